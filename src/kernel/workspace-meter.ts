/**
 * The workspace meter: a small Python process (python/workspace_meter.py), one per interpreter and host
 * process, that walks workspaces for the disk budget off Node's thread. Node has no fstatat, so the host's own
 * walk reaches every entry through `/proc/self/fd/N/name`: about 1 ms of the event loop per v3 workspace, after
 * every program, 27% of the host's thread in a warm burst of 512 episodes (issue 8). The meter stats each entry
 * relative to its directory's descriptor, about a quarter of that CPU, on another core.
 *
 * Owned by this process: it dies with it (parent-death signal, and it ends when its stdin closes). A request
 * has a deadline; when the meter cannot start, dies or misses a deadline, the requests it held are rejected
 * (the caller walks in-process), it is killed, and no new meter starts for a while.
 */
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startHelperProcess } from "./helper-process.js";

const METER_SOURCE = fileURLToPath(new URL("./python/workspace_meter.py", import.meta.url));
/** How long one measurement may take in the meter (walks take turns, 256 entries each). */
const METER_REPLY_TIMEOUT_MS = 30_000;
/** After a meter failed, measurements stay in-process this long before a new meter is tried. */
const METER_RETRY_AFTER_MS = 10_000;

/** What a workspace holds (the meter's answer, and `walkWorkspace`'s in workspace-usage.ts). */
export interface WorkspaceUsage {
  /** Disk space the files take (allocated blocks, so sparse files count what they really use). */
  bytes: number;
  entryCount: number;
  /**
   * The walk did not see everything: it stopped at `maxEntries` or at the depth bound, or a directory could not be
   * opened or read. `bytes` is then a lower bound, and `reason` says why.
   */
  incomplete: boolean;
  reason?: string;
}

interface Pending {
  resolve: (usage: WorkspaceUsage) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

class Meter {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  dead: string | undefined;

  constructor(
    interpreter: string,
    private readonly onDeath: (meter: Meter) => void,
  ) {
    // Never keeps the host alive by itself; a measurement in flight holds its own timer.
    this.child = startHelperProcess(interpreter, METER_SOURCE, "the workspace meter", {
      onLine: (line) => this.onLine(line),
      onGone: (reason) => this.die(reason),
    });
  }

  measure(root: string, maxEntries: number): Promise<WorkspaceUsage> {
    if (this.dead !== undefined) return Promise.reject(new Error(this.dead));
    this.nextId += 1;
    const id = this.nextId;
    return new Promise<WorkspaceUsage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.die(`the workspace meter did not answer within ${METER_REPLY_TIMEOUT_MS} ms`);
      }, METER_REPLY_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.child.stdin!.write(`${JSON.stringify({ id, path: root, max: maxEntries })}\n`);
    });
  }

  private onLine(line: string): void {
    let reply: {
      id?: unknown;
      bytes?: unknown;
      entries?: unknown;
      incomplete?: unknown;
      reason?: unknown;
      error?: unknown;
    };
    try {
      reply = JSON.parse(line) as typeof reply;
    } catch {
      this.die(`the workspace meter wrote a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const entry = typeof reply.id === "number" ? this.pending.get(reply.id) : undefined;
    if (!entry) return;
    this.pending.delete(reply.id as number);
    clearTimeout(entry.timer);
    if (typeof reply.error === "string") entry.reject(new Error(`the workspace meter: ${reply.error}`));
    else if (
      typeof reply.bytes === "number" &&
      typeof reply.entries === "number" &&
      typeof reply.incomplete === "boolean"
    )
      entry.resolve({
        bytes: reply.bytes,
        entryCount: reply.entries,
        incomplete: reply.incomplete,
        ...(reply.incomplete ? { reason: typeof reply.reason === "string" ? reply.reason : "unknown" } : {}),
      });
    else entry.reject(new Error(`the workspace meter's reply has no usage: ${line.slice(0, 200)}`));
  }

  /** Rejects what it holds (the callers walk in-process) and ends the process. */
  die(reason: string): void {
    if (this.dead !== undefined) return;
    this.dead = reason;
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new Error(reason));
    }
    this.pending.clear();
    this.child.stdin?.end();
    try {
      this.child.kill("SIGKILL");
    } catch {
      // already gone
    }
    this.onDeath(this);
  }
}

const meters = new Map<string, Meter>();
const failedAt = new Map<string, number>();

/**
 * Measures `root` in this host's meter for `interpreter` (started on first use). Rejects when there is no meter
 * to ask (it failed less than METER_RETRY_AFTER_MS ago) or it failed on this request: the caller walks itself.
 */
export function measureInMeter(
  interpreter: string,
  root: string,
  maxEntries: number,
): Promise<WorkspaceUsage> {
  let meter = meters.get(interpreter);
  if (!meter) {
    const failed = failedAt.get(interpreter);
    if (failed !== undefined && performance.now() - failed < METER_RETRY_AFTER_MS)
      return Promise.reject(new Error("the workspace meter failed recently"));
    try {
      meter = new Meter(interpreter, (dead) => {
        if (meters.get(interpreter) === dead) meters.delete(interpreter);
        failedAt.set(interpreter, performance.now());
      });
    } catch (error) {
      failedAt.set(interpreter, performance.now());
      return Promise.reject(error);
    }
    meters.set(interpreter, meter);
  }
  return meter.measure(root, maxEntries);
}

/** Ends every meter (tests; the process's exit ends them anyway). */
export function stopWorkspaceMeters(): void {
  for (const meter of [...meters.values()]) meter.die("the workspace meter was stopped");
  failedAt.clear();
}
