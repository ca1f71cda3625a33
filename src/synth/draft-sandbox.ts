import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import type { CompletionRequest, CompletionResponse, ModelClient } from "../harness/index.js";
import {
  assertSandboxAvailable,
  createSandboxBudget,
  formatBytes,
  launcherCommand,
  type BudgetViolation,
  type SandboxBudget,
} from "../kernel/index.js";
import { restoreDraftFolder } from "./draft-folder.js";
import {
  workerMessageSchema,
  type CalibrationReport,
  type ValidationReport,
  type WorkerRequest,
} from "./worker-protocol.js";

/** Where the draft folder appears inside the sandbox (the worker's cwd). */
export const SANDBOX_DRAFT_DIR = "/draft";
/** A message line from the worker longer than this ends the run (the worker shares a process with the draft). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** The draft's own output kept for the report (its tail). */
const MAX_LOG_CHARS = 20_000;
const MiB = 1024 * 1024;
/** Runs the launcher that sets the sandbox's CPU limit (and, as root, its set-id filter) before it execs bwrap. */
const LAUNCHER_INTERPRETER = "/usr/bin/python3";
/** bwrap exits with 128 + the signal that ended the worker: SIGXCPU is the CPU time limit. */
const CPU_LIMIT_EXIT_CODE = 128 + 24;

/**
 * The draft sandbox's budgets, as a kernel's (attacks.md B12): one memory budget for all its processes and its
 * tmpfs mounts, one process budget (a cgroup where there is one, see sandbox-limits.ts), CPU time per process
 * (RLIMIT_CPU), and sized tmpfs for every place it can write: /tmp, /draft and /dev/shm (/dev itself is
 * read-only). Nothing it writes reaches the host's disk.
 */
export interface DraftSandboxLimits {
  /** All its processes and its /tmp, /draft and /dev/shm together. */
  memoryBytes: number;
  /** Processes and threads together. */
  processes: number;
  /** CPU time of each process (default: the run's deadline in seconds). */
  cpuSeconds: number;
  /** The private /tmp (the instance cache and the kernels' workspaces). */
  tmpBytes: number;
  /** /draft: a tmpfs holding the host's task.ts and package.json read-only, and whatever the draft writes. */
  draftBytes: number;
  /** /dev/shm. */
  shmBytes: number;
}

export const DEFAULT_DRAFT_LIMITS: Omit<DraftSandboxLimits, "cpuSeconds"> = {
  memoryBytes: 4096 * MiB,
  processes: 256,
  tmpBytes: 1024 * MiB,
  draftBytes: 16 * MiB,
  shmBytes: 64 * MiB,
};

/** A worker request without its key (the sandbox runner adds a fresh one per run). */
export type DraftRequest = WorkerRequest extends infer Request
  ? Request extends WorkerRequest
    ? Omit<Request, "nonce">
    : never
  : never;

export interface DraftSandboxOptions {
  /** Host path of the draft folder: the only place the sandbox can write. */
  draftDir: string;
  request: DraftRequest;
  timeoutMs: number;
  signal?: AbortSignal;
  /** For calibration: the host's model client, which the sandbox reaches only through the worker protocol. */
  client?: ModelClient;
  /** Called for every model call answered for the sandbox (token accounting). */
  onModelCall?: (response: CompletionResponse) => void;
  bwrapPath?: string;
  /** Defaults: DEFAULT_DRAFT_LIMITS, and CPU time per process up to the deadline. */
  limits?: Partial<DraftSandboxLimits>;
}

export interface DraftSandboxResult {
  /** The worker's report; null when the worker died, timed out or sent something malformed (see `error`). */
  report: ValidationReport | CalibrationReport | null;
  /** Why there is no report (sandbox failure, crash, timeout, protocol violation). */
  error?: string;
  /** The tail of what the draft printed on stdout and stderr. */
  log: string;
  exitCode: number | null;
}

/** The package's root (where package.json, node_modules and src or dist live). */
function packageRoot(): string {
  return dirname(dirname(dirname(fileURLToPath(import.meta.url))));
}

function workerEntry(): { path: string; typescript: boolean } {
  const here = fileURLToPath(import.meta.url);
  const typescript = here.endsWith(".ts");
  return { path: join(dirname(here), typescript ? "draft-worker.ts" : "draft-worker.js"), typescript };
}

/**
 * The bwrap command line of a draft sandbox: every namespace unshared (no network), uid 1000 inside, read-only
 * system directories and Node, the package's sources and dependencies read-only, the draft's task.ts and
 * package.json read-only in a sized tmpfs at /draft (no host directory is writable), a sized private /tmp (where
 * the instance cache lives) and /dev/shm, a read-only /dev, no host environment.
 */
export function buildDraftSandboxCommand(
  draftDir: string,
  bwrapPath = "bwrap",
  limits: Omit<DraftSandboxLimits, "cpuSeconds" | "memoryBytes" | "processes"> = DEFAULT_DRAFT_LIMITS,
): { command: string; args: string[] } {
  const root = packageRoot();
  const entry = workerEntry();
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--uid", "1000", "--gid", "1000"];
  args.push("--hostname", "draft-sandbox", "--ro-bind", "/usr", "/usr");
  for (const name of ["/bin", "/lib", "/lib64", "/lib32", "/sbin"]) {
    if (!existsSync(name)) continue;
    if (lstatSync(name).isSymbolicLink()) args.push("--symlink", realpathSync(name).replace(/^\//, ""), name);
    else args.push("--ro-bind", name, name);
  }
  for (const name of ["/etc/localtime", "/etc/alternatives", "/etc/ld.so.cache"]) {
    if (existsSync(name)) args.push("--ro-bind", name, name);
  }
  // Globally installed npm packages are none of the draft's business.
  for (const name of ["/usr/lib/node_modules", "/usr/local/lib/node_modules"]) {
    if (existsSync(name)) args.push("--tmpfs", name);
  }
  const node = realpathSync(process.execPath);
  if (!node.startsWith("/usr/")) args.push("--ro-bind", dirname(dirname(node)), dirname(dirname(node)));
  args.push("--proc", "/proc", "--dev", "/dev", "--size", String(limits.shmBytes), "--tmpfs", "/dev/shm");
  // bwrap's /dev is an unsized tmpfs the sandbox's uid owns: read-only, it holds only its devices and /dev/shm.
  args.push("--remount-ro", "/dev", "--size", String(limits.tmpBytes), "--tmpfs", "/tmp");
  // An installed package finds its dependencies beside it, in the node_modules folder that holds it.
  if (basename(dirname(root)) === "node_modules") args.push("--ro-bind", dirname(root), dirname(root));
  // Only what the worker needs of the package, at its own path: not the clone's runs, caches or dotfiles.
  for (const name of ["package.json", "node_modules", "src", "dist"]) {
    const path = join(root, name);
    if (existsSync(path)) args.push("--ro-bind", path, path);
  }
  // A tmpfs, not the host folder: what the draft writes there is memory of its budget, never the host's disk.
  args.push("--size", String(limits.draftBytes), "--tmpfs", SANDBOX_DRAFT_DIR);
  // The module under validation is read-only to itself: what passed is what the host reads back. (The host
  // wrote these files, and swept the folder after the last run, so they are plain files, not planted links.)
  for (const name of ["task.ts", "package.json"]) {
    const path = join(draftDir, name);
    if (existsSync(path) && lstatSync(path).isFile())
      args.push("--ro-bind", path, `${SANDBOX_DRAFT_DIR}/${name}`);
  }
  args.push("--chdir", SANDBOX_DRAFT_DIR, "--remount-ro", "/");
  args.push("--clearenv");
  const environment: Record<string, string> = {
    HOME: "/tmp",
    TMPDIR: "/tmp",
    PATH: "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    PROGAGENT_CACHE_DIR: "/tmp/instances",
    PROGAGENT_SANDBOX_LIMITS: "rlimit",
    NODE_OPTIONS: "--max-old-space-size=2048",
  };
  for (const [name, value] of Object.entries(environment)) args.push("--setenv", name, value);
  args.push("--", node);
  if (entry.typescript) args.push("--import", join(root, "node_modules", "tsx", "dist", "esm", "index.mjs"));
  args.push(entry.path);
  return { command: bwrapPath, args };
}

/**
 * Runs the draft worker in its sandbox: sends the request, answers its model calls through `client` (so no
 * network and no API key ever reach the sandbox), and returns its report. Always ends the sandbox before it
 * returns (deadline, abort, malformed message).
 */
export async function runDraftSandbox(options: DraftSandboxOptions): Promise<DraftSandboxResult> {
  const bwrap = assertSandboxAvailable(options.bwrapPath ?? "bwrap");
  const limits: DraftSandboxLimits = {
    ...DEFAULT_DRAFT_LIMITS,
    cpuSeconds: Math.ceil(options.timeoutMs / 1000),
    ...options.limits,
  };
  // The kernel's launcher sets the CPU limit and, as root, refuses set-user-ID and set-group-ID modes (its filter).
  const command = launcherCommand(
    buildDraftSandboxCommand(options.draftDir, bwrap, limits),
    LAUNCHER_INTERPRETER,
    {
      setidFilter: process.getuid?.() === 0,
      rlimits: { cpuSeconds: limits.cpuSeconds },
    },
  );
  const child = spawn(command.command, command.args, {
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    env: {},
    detached: false,
  });

  // The sandbox's processes join it before the worker gets its request (underBudgets below).
  const budget = createSandboxBudget(
    {
      memoryBytes: limits.memoryBytes,
      processes: limits.processes,
      diskBytes: limits.draftBytes,
      tmpBytes: limits.tmpBytes,
    },
    undefined,
    bwrap,
    true,
    LAUNCHER_INTERPRETER,
  );
  const input = child.stdin;
  const messages = (child.stdio as unknown as Readable[])[3]!;
  let log = "";
  const appendLog = (chunk: Buffer): void => {
    log = (log + chunk.toString("utf8")).slice(-MAX_LOG_CHARS);
  };
  child.stdout?.on("data", appendLog);
  child.stderr?.on("data", appendLog);
  input.on("error", () => undefined);

  const nonce = randomBytes(24).toString("hex");
  let report: DraftSandboxResult["report"] = null;
  let failure: string | undefined;
  const stop = (reason: string): void => {
    failure ??= reason;
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const send = (message: unknown): void => {
    if (!input.destroyed) input.write(`${JSON.stringify(message)}\n`);
  };

  const handleLine = async (line: string): Promise<void> => {
    let parsed;
    try {
      parsed = workerMessageSchema.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      stop(`the worker sent a malformed message (${line.slice(0, 200)})`);
      return;
    }
    const message = parsed.data;
    if (message.type === "report") {
      // The draft shares the worker's process and may write on its descriptor: only the keyed report counts.
      if (message.nonce !== nonce) stop("the draft wrote a report of its own (without the run's key)");
      else if (report) stop("the worker sent two reports");
      else report = message.report;
      return;
    }
    if (!options.client) {
      send({ type: "model-response", id: message.id, error: "no model is available to this sandbox" });
      return;
    }
    try {
      const request: CompletionRequest = {
        messages: message.request.messages as unknown as CompletionRequest["messages"],
        tools: message.request.tools as unknown as CompletionRequest["tools"],
        maxTokens: message.request.maxTokens,
        ...(message.request.temperature === undefined ? {} : { temperature: message.request.temperature }),
        ...(options.signal ? { signal: options.signal } : {}),
      };
      const response = await options.client.complete(request);
      options.onModelCall?.(response);
      send({
        type: "model-response",
        id: message.id,
        message: response.message,
        ...(response.usage ? { usage: response.usage } : {}),
        ...(response.finishReason ? { finishReason: response.finishReason } : {}),
      });
    } catch (error) {
      send({ type: "model-response", id: message.id, error: errorMessage(error).slice(0, 5_000) });
    }
  };

  let pending = "";
  let pendingBytes = 0;
  const work: Array<Promise<void>> = [];
  messages.on("data", (chunk: Buffer) => {
    let text = chunk.toString("utf8");
    let newline = text.indexOf("\n");
    while (newline >= 0) {
      const line = pending + text.slice(0, newline);
      pending = "";
      pendingBytes = 0;
      if (line.trim()) work.push(handleLine(line));
      text = text.slice(newline + 1);
      newline = text.indexOf("\n");
    }
    pendingBytes += chunk.length;
    if (pendingBytes > MAX_MESSAGE_BYTES) stop("the worker sent a message over 64 MiB");
    else pending += text;
  });
  messages.on("error", () => undefined);

  const timer = setTimeout(
    () => stop(`the sandbox did not finish within ${Math.round(options.timeoutMs / 1000)} s`),
    options.timeoutMs,
  );
  const onAbort = (): void => stop("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let stopWatching: () => void = () => undefined;
  try {
    const exited = new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => resolve(code));
    });
    exited.catch(() => undefined); // awaited below, after the budgets are applied
    // The draft runs once the worker has its request: by then every process of the sandbox is under the budgets.
    if (child.pid !== undefined && (await underBudgets(budget, child.pid, stop))) {
      stopWatching = budget.watch((violation) => stop(budgetFailure(violation, limits)));
      send({ ...options.request, nonce });
    }
    const exitCode = await exited;
    stopWatching();
    const memory = budget.memoryExceeded();
    if (memory) stop(budgetFailure(memory, limits));
    else if (exitCode === CPU_LIMIT_EXIT_CODE)
      stop(`the draft exceeded its CPU time budget of ${limits.cpuSeconds} s per process (SIGXCPU)`);
    await Promise.all(work);
    if (!report && !failure) {
      failure =
        exitCode === 0
          ? "the worker ended without a report"
          : `the sandboxed worker exited with code ${exitCode ?? "(signal)"}`;
    }
    // A run with a violation has no report, even when the worker's own report arrived.
    if (failure) return { report: null, error: failure, log, exitCode };
    return { report, log, exitCode };
  } catch (error) {
    throw new ProgAgentError(`cannot start the draft sandbox: ${errorMessage(error)}`, {
      code: ERROR_CODES.SANDBOX_UNAVAILABLE,
      category: "system",
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    stopWatching();
    options.signal?.removeEventListener("abort", onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    // Removing the cgroup also ends whatever of the sandbox is left in it.
    await budget.dispose();
    // Belt and braces (/draft is a tmpfs): a folder left 777 would let any local user plant files for the host.
    restoreDraftFolder(options.draftDir);
  }
}

/** Puts the sandbox's processes under its budgets; false (and the run stopped) when that fails. */
async function underBudgets(
  budget: SandboxBudget,
  pid: number,
  stop: (reason: string) => void,
): Promise<boolean> {
  try {
    await budget.attach(pid);
    return true;
  } catch (error) {
    stop(`the draft sandbox could not be put under its budgets: ${errorMessage(error)}`);
    return false;
  }
}

function budgetFailure(violation: BudgetViolation, limits: DraftSandboxLimits): string {
  return violation.kind === "memory"
    ? `the draft sandbox exceeded its memory budget of ${formatBytes(limits.memoryBytes)} (all its processes and its /tmp, /draft and /dev/shm together) and was stopped`
    : violation.message;
}
