import { spawnSync } from "node:child_process";
import { accessSync, constants as fsConstants, existsSync, lstatSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";

/** The fixed path of the episode's workspace inside the sandbox: the program's cwd and HOME. */
export const SANDBOX_WORKSPACE = "/workspace";
export const SANDBOX_BOOTSTRAP = "/run/progagent/bootstrap.py";
/** The bootstrap compiled to bytecode (compiled-bootstrap.ts), which the interpreter runs when there is one. */
export const SANDBOX_BOOTSTRAP_COMPILED = "/run/progagent/bootstrap.pyc";

/** Host variables that may pass into the sandbox; everything else is scrubbed. */
const ENVIRONMENT_ALLOWLIST = ["TZ", "LANG", "LC_ALL"];

export const BWRAP_INSTALL_HINT =
  "Bubblewrap (bwrap) is required to run model code in a sandbox. Install it with `apt-get install -y bubblewrap` " +
  "(Debian/Ubuntu) or `dnf install bubblewrap` (Fedora), or pass --unsafe-no-sandbox for development only.";

export const UNSAFE_WARNING =
  "!!! UNSAFE: --unsafe-no-sandbox is set. Model code runs WITHOUT a sandbox, with this user's file system " +
  "and network access. Use only for development with trusted code. !!!";

export interface SandboxCommandOptions {
  interpreter: string;
  workspaceDir: string;
  bootstrapPath: string;
  /** The bootstrap compiled for this interpreter: run instead of the source, which stays visible for tracebacks. */
  compiledBootstrapPath?: string;
  environment: Record<string, string>;
  bwrapPath?: string;
  /** Size of the private /tmp tmpfs (needs bwrap >= 0.6 for `--size`; unbounded otherwise). */
  tmpBytes?: number;
  /** A descriptor number in bwrap from which it reads the compiled seccomp filter. */
  seccompFd?: number;
  /** A descriptor number to which bwrap writes its JSON info (the sandbox's host pid, `child-pid`). */
  infoFd?: number;
}

const sandboxProbes = new Map<string, { ok: true; bwrap: string } | { ok: false; reason: string }>();

/**
 * Where `name` is found on PATH (a name with a slash is taken as it is), so that each kernel start execs bwrap
 * directly instead of trying every PATH entry; undefined when it is not found (the probe then says why).
 */
function resolveExecutable(name: string): string | undefined {
  if (name.includes("/")) return name;
  for (const directory of (process.env.PATH ?? "").split(delimiter)) {
    if (!directory || !isAbsolute(directory)) continue;
    const candidate = join(directory, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Checks once per process that bwrap exists and can create the namespaces we need. */
export function assertSandboxAvailable(bwrapPath = "bwrap"): string {
  let probe = sandboxProbes.get(bwrapPath);
  if (!probe) {
    const result = spawnSync(
      bwrapPath,
      ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--", "true"],
      {
        encoding: "utf8",
        timeout: 10_000,
      },
    );
    if (result.error) probe = { ok: false, reason: `cannot run '${bwrapPath}': ${result.error.message}` };
    else if (result.status !== 0)
      probe = { ok: false, reason: `'${bwrapPath}' failed: ${result.stderr.trim()}` };
    else probe = { ok: true, bwrap: resolveExecutable(bwrapPath) ?? bwrapPath };
    sandboxProbes.set(bwrapPath, probe);
  }
  if (!probe.ok) {
    throw new ProgAgentError(`The sandbox is unavailable (${probe.reason}). ${BWRAP_INSTALL_HINT}`, {
      code: ERROR_CODES.SANDBOX_UNAVAILABLE,
      category: "user",
    });
  }
  return probe.bwrap;
}

const featureProbes = new Map<string, { tmpfsSize: boolean }>();

/** Options this bwrap understands (from its --help): `--size` for tmpfs came with bubblewrap 0.6. */
export function sandboxFeatures(bwrapPath: string): { tmpfsSize: boolean } {
  let features = featureProbes.get(bwrapPath);
  if (!features) {
    const result = spawnSync(bwrapPath, ["--help"], { encoding: "utf8", timeout: 10_000 });
    features = { tmpfsSize: /--size\b/.test(`${result.stdout ?? ""}${result.stderr ?? ""}`) };
    featureProbes.set(bwrapPath, features);
  }
  return features;
}

/**
 * Isolated mode, no bytecode files. The distribution's own Python also skips `site` (about 8 ms of start-up);
 * the bootstrap adds the distribution's package directories itself. Other interpreters (venvs, conda) keep
 * `site`, which is what finds their packages.
 */
export function interpreterFlags(interpreter: string): string[] {
  const resolved = realpathSync(interpreter);
  return /^\/usr\/bin\/python3(\.\d+)?$/.test(resolved) ? ["-I", "-S", "-B"] : ["-I", "-B"];
}

/**
 * The part of the command line that depends only on the host's layout and the interpreter (read once per
 * interpreter and process: it was a dozen file system calls on the host's thread for every kernel start).
 */
const systemLayouts = new Map<string, { interpreter: string; mounts: string[]; flags: string[] }>();

function systemLayout(interpreterPath: string): { interpreter: string; mounts: string[]; flags: string[] } {
  const known = systemLayouts.get(interpreterPath);
  if (known) return known;
  const mounts = ["--ro-bind", "/usr", "/usr"];
  for (const name of ["/bin", "/lib", "/lib64", "/lib32", "/sbin"]) {
    if (!existsSync(name)) continue;
    const stat = lstatSync(name);
    if (stat.isSymbolicLink()) mounts.push("--symlink", realpathSync(name).replace(/^\//, ""), name);
    else mounts.push("--ro-bind", name, name);
  }
  for (const name of ["/etc/localtime", "/etc/alternatives", "/etc/ld.so.cache"]) {
    if (existsSync(name)) mounts.push("--ro-bind", name, name);
  }
  const interpreter = realpathSync(interpreterPath);
  if (!interpreter.startsWith("/usr/")) {
    // A Python outside /usr (pyenv, conda, a venv): expose its installation prefix read-only.
    const prefix = dirname(dirname(interpreter));
    mounts.push("--ro-bind", prefix, prefix);
  }
  // Globally installed npm packages (progagent itself, with its verifiers and oracles) live under /usr: mask them.
  for (const name of ["/usr/lib/node_modules", "/usr/local/lib/node_modules"]) {
    if (existsSync(name)) mounts.push("--tmpfs", name);
  }
  const layout = { interpreter, mounts, flags: interpreterFlags(interpreter) };
  systemLayouts.set(interpreterPath, layout);
  return layout;
}

/** The interpreter a sandbox runs (its real path) and its flags (read once per interpreter and process). */
export function sandboxInterpreter(interpreterPath: string): { interpreter: string; flags: string[] } {
  const { interpreter, flags } = systemLayout(interpreterPath);
  return { interpreter, flags };
}

/** Variables the program sees: a fixed set plus the small allowlist from the host. */
export function sandboxEnvironment(extra: Record<string, string>): Record<string, string> {
  const environment: Record<string, string> = {
    HOME: SANDBOX_WORKSPACE,
    PATH: "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    PYTHONIOENCODING: "utf-8",
    PYTHONDONTWRITEBYTECODE: "1",
    TMPDIR: "/tmp",
  };
  for (const name of ENVIRONMENT_ALLOWLIST) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  return { ...environment, ...extra };
}

/**
 * The bwrap command line: every namespace unshared (no network, own PID namespace), read-only system
 * directories, private /tmp and /proc, minimal /dev, the workspace bound read-write, environment cleared.
 */
export function buildSandboxCommand(options: SandboxCommandOptions): { command: string; args: string[] } {
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--as-pid-1", "--hostname", "sandbox"];
  const { interpreter, mounts, flags } = systemLayout(options.interpreter);
  args.push(...mounts);
  args.push("--proc", "/proc", "--dev", "/dev");
  if (options.tmpBytes !== undefined) args.push("--size", String(options.tmpBytes));
  args.push("--tmpfs", "/tmp");
  args.push("--bind", options.workspaceDir, SANDBOX_WORKSPACE, "--chdir", SANDBOX_WORKSPACE);
  args.push("--ro-bind", options.bootstrapPath, SANDBOX_BOOTSTRAP);
  if (options.compiledBootstrapPath !== undefined)
    args.push("--ro-bind", options.compiledBootstrapPath, SANDBOX_BOOTSTRAP_COMPILED);
  // The root of the mount namespace is a tmpfs bwrap made; without this the program could write there.
  args.push("--remount-ro", "/");
  if (options.seccompFd !== undefined) args.push("--seccomp", String(options.seccompFd));
  if (options.infoFd !== undefined) args.push("--info-fd", String(options.infoFd));
  args.push("--clearenv");
  for (const [name, value] of Object.entries(options.environment)) args.push("--setenv", name, value);
  args.push(
    "--",
    interpreter,
    ...flags,
    options.compiledBootstrapPath === undefined ? SANDBOX_BOOTSTRAP : SANDBOX_BOOTSTRAP_COMPILED,
  );
  return { command: options.bwrapPath ?? "bwrap", args };
}
