import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import { interpreterFlags } from "./sandbox.js";

/**
 * How a sandboxed kernel reaches its workspace on a root host: it runs as its own unprivileged uid, and the
 * workspace is an idmapped mount in which the directory owner's ids on disk appear as the kernel's ids.
 */
export interface KernelIdentity {
  uid: number;
  gid: number;
  /** `dev:ino` of the workspace directory when the kernel was created; every (re)start checks it. */
  workspaceInode: string;
  /** An empty host directory the kernel's uid can reach; the launcher mounts the workspace there, privately. */
  stageDir: string;
}

const LAUNCHER_SOURCE = fileURLToPath(new URL("./python/launch.py", import.meta.url));
const probes = new Map<string, { ok: true } | { ok: false; reason: string }>();
let uidCounter = 0;

/** `dev:ino` of a directory, as the launcher compares it (exact, so big integers). */
export function directoryInode(path: string): string {
  const stat = statSync(path, { bigint: true });
  return `${stat.dev}:${stat.ino}`;
}

/** A fresh unprivileged uid for one kernel (RLIMIT_NPROC counts per uid, so each kernel gets its own limit). */
export function allocateKernelUid(): number {
  uidCounter += 1;
  return 200_000 + ((process.pid * 131 + uidCounter) % 100_000);
}

/**
 * Whether an idmapped mount of this directory can be made here (root, kernel >= 5.12, a file system that
 * supports it). Asked once per file system: the answer depends on the file system, not on the directory.
 */
export function probeIdmappedWorkspace(
  workspaceDir: string,
  interpreter: string,
): { ok: true } | { ok: false; reason: string } {
  if (process.getuid?.() !== 0) return { ok: false, reason: "not running as root" };
  let key: string;
  try {
    key = String(statSync(workspaceDir).dev);
  } catch (error) {
    return { ok: false, reason: `cannot stat ${workspaceDir}: ${(error as Error).message}` };
  }
  let probe = probes.get(key);
  if (!probe) {
    const result = spawnSync(
      interpreter,
      [...interpreterFlags(interpreter), LAUNCHER_SOURCE, "--probe", workspaceDir],
      { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "ignore", "pipe"] },
    );
    if (result.error) probe = { ok: false, reason: result.error.message };
    else if (result.status !== 0)
      probe = { ok: false, reason: result.stderr.trim() || `exit code ${result.status}` };
    else probe = { ok: true };
    probes.set(key, probe);
  }
  return probe;
}

/** Per-process limits the launcher sets before it execs a sandbox (inherited by all its processes). */
export interface LaunchRlimits {
  cpuSeconds?: number;
  fileSizeBytes?: number;
  openFiles?: number;
}

/**
 * A command that execs `sandboxCommand` through the launcher: with `setidFilter`, behind its filter refusing
 * set-user-ID and set-group-ID modes (no mount), and with `rlimits` set first. For sandboxes started outside the
 * kernel spawner, e.g. synth's draft sandbox.
 */
export function launcherCommand(
  sandboxCommand: { command: string; args: string[] },
  interpreter: string,
  options: { setidFilter: boolean; rlimits?: LaunchRlimits },
): { command: string; args: string[] } {
  const limits: Array<[string, number | undefined]> = [
    ["cpu", options.rlimits?.cpuSeconds],
    ["fsize", options.rlimits?.fileSizeBytes],
    ["nofile", options.rlimits?.openFiles],
  ];
  const rlimitArgs = limits.flatMap(([name, value]) =>
    value === undefined ? [] : ["--rlimit", `${name}=${Math.max(1, Math.ceil(value))}`],
  );
  return {
    command: interpreter,
    args: [
      ...interpreterFlags(interpreter),
      LAUNCHER_SOURCE,
      ...rlimitArgs,
      options.setidFilter ? "--setid-filter-only" : "--exec",
      sandboxCommand.command,
      ...sandboxCommand.args,
    ],
  };
}

/** `launcherCommand` with the set-id filter only. */
export function setidFilterLaunchCommand(
  sandboxCommand: { command: string; args: string[] },
  interpreter: string,
): { command: string; args: string[] } {
  return launcherCommand(sandboxCommand, interpreter, { setidFilter: true });
}

/**
 * Fails with a one-line error unless the invoking user can list, read and write the directory: a workspace
 * the kernel cannot use should stop `serve` at start, not every session later.
 */
export function assertUsableWorkspace(workspaceDir: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(workspaceDir).isDirectory();
  } catch (error) {
    throw workspaceError(
      workspaceDir,
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : (error as Error).message,
    );
  }
  if (!isDirectory) throw workspaceError(workspaceDir, "it is not a directory");
  try {
    accessSync(workspaceDir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    throw workspaceError(workspaceDir, "this user cannot read and write it");
  }
}

function workspaceError(workspaceDir: string, reason: string): ProgAgentError {
  return new ProgAgentError(
    `The workspace ${workspaceDir} cannot be used: ${reason}. Give a directory this user can read and write.`,
    { code: ERROR_CODES.INVALID_ARGUMENT, category: "user", details: { workspaceDir } },
  );
}
