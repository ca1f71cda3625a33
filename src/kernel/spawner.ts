/**
 * The kernel spawner: a small Python process (python/spawner.py), one per interpreter and host process, that
 * forks the kernels' sandboxes so that Node's event loop never pays for fork() of a large process (13-30 ms
 * once the host holds a few hundred MB, measured in issue 8). It also runs the launcher's steps in the forked
 * child, so no launcher interpreter starts per kernel.
 *
 * Owned by this process: it dies with it (parent-death signal, and it ends when its stdin closes) and takes its
 * kernels with it (bwrap --die-with-parent). When it dies anyway, every start in flight fails naming why, every
 * kernel it started is reported as exited, and the next start launches a new spawner.
 */
import type { ChildProcess } from "node:child_process";
import { closeSync, constants as fsConstants, openSync } from "node:fs";
import { Socket } from "node:net";
import { constants as osConstants } from "node:os";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import { startHelperProcess } from "./helper-process.js";

const SPAWNER_SOURCE = fileURLToPath(new URL("./python/spawner.py", import.meta.url));
/** How long the spawner may take to answer a spawn request (it forks and answers; it never waits on the kernel). */
const SPAWN_REPLY_TIMEOUT_MS = 10_000;

/** What the forked child does before it execs `argv`. */
export type LaunchSpec =
  | { mode: "setid" }
  | { mode: "idmap"; workspace: string; inode: string; stage: string; uid: number; gid: number };

/**
 * Start the kernel from a template process (python/template.py) for this configuration instead of exec'ing
 * `argv`: the template forks, and the child does what `argv` (bwrap's arguments) says without exec.
 */
export interface TemplateSpec {
  /** The interpreter (a real path) and its flags, as at the end of `argv`. */
  interpreter: string;
  flags: string[];
  /** The host's copy of the bootstrap the template loads (the compiled one when there is one). */
  code: string;
  /** The bootstrap's path in the sandbox, the last word of `argv`. */
  script: string;
  /** The environment the template starts with: the kernels' without the per-kernel variables. */
  environment: Record<string, string>;
}

export interface SpawnRequest {
  argv: string[];
  /** Files the kernel's stdout and stderr append to. */
  stdoutPath: string;
  stderrPath: string;
  /** The compiled seccomp filter bwrap reads from descriptor 5. */
  seccomp?: Buffer;
  launch?: LaunchSpec;
  template?: TemplateSpec;
}

/** A process the spawner started, with the host's ends of its protocol pipes (descriptors 3 and 4 in it). */
export interface SpawnedProcess {
  readonly pid: number;
  readonly commands: Writable;
  readonly replies: Readable;
  /** The pid is the interpreter itself (a template's kernel), not bwrap around it. */
  readonly pidIsInterpreter?: boolean;
  /** The process and, from bwrap's info descriptor, its child (the sandbox's first process) once known. */
  readonly firstPids: Promise<number[]>;
  /** Called once when the process has exited (reaped by the spawner, or the spawner died). */
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** SIGKILL to the process group, unless the process was reaped already. */
  kill(): void;
}

interface Entry {
  id: number;
  request: SpawnRequest;
  resolve(process: SpawnedProcess): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  pid?: number;
  exited: boolean;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  exitListeners: Array<(code: number | null, signal: NodeJS.Signals | null) => void>;
  resolveInfo?: (pids: number[]) => void;
  info?: number[];
}

type SpawnerMessage =
  | { t: "spawned"; id: number; pid: number; command: number; reply: number; interpreter?: boolean }
  | { t: "failed"; id: number; error: string }
  | { t: "info"; id: number; child: number | null }
  | { t: "exit"; id: number; code: number | null; signal: number | null };

/** Signal numbers to names, the first name where several share a number (SIGABRT before SIGIOT). */
const SIGNAL_NAMES = new Map<number, NodeJS.Signals>();
for (const [name, number] of Object.entries(osConstants.signals))
  if (!SIGNAL_NAMES.has(number)) SIGNAL_NAMES.set(number, name as NodeJS.Signals);

function spawnerError(message: string): ProgAgentError {
  return new ProgAgentError(message, { code: ERROR_CODES.KERNEL_START_FAILED, category: "system" });
}

/** One spawner process and the kernels it started. */
class Spawner {
  readonly child: ChildProcess;
  private readonly entries = new Map<number, Entry>();
  private nextId = 0;
  private dead: string | undefined;

  constructor(
    interpreter: string,
    private readonly onDeath: (spawner: Spawner) => void,
  ) {
    // The spawner never keeps the host alive by itself; live kernels do, through their reply pipes.
    this.child = startHelperProcess(interpreter, SPAWNER_SOURCE, "the kernel spawner", {
      onLine: (line) => this.onMessage(JSON.parse(line) as SpawnerMessage),
      onGone: (reason) => this.die(reason),
    });
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Kernels started and not yet exited, plus requests in flight. */
  get size(): number {
    return this.entries.size;
  }

  spawn(request: SpawnRequest): Promise<SpawnedProcess> {
    if (this.dead !== undefined) return Promise.reject(spawnerError(this.dead));
    this.nextId += 1;
    const id = this.nextId;
    return new Promise<SpawnedProcess>((resolve, reject) => {
      const entry: Entry = {
        id,
        request,
        resolve,
        reject,
        exited: false,
        exitListeners: [],
        timer: setTimeout(() => {
          this.entries.delete(id);
          reject(spawnerError(`the kernel spawner did not answer within ${SPAWN_REPLY_TIMEOUT_MS} ms`));
        }, SPAWN_REPLY_TIMEOUT_MS),
      };
      this.entries.set(id, entry);
      this.write({
        op: "spawn",
        id,
        argv: request.argv,
        stdout: request.stdoutPath,
        stderr: request.stderrPath,
        seccomp: request.seccomp?.toString("base64") ?? null,
        launch: request.launch ?? null,
        ...(request.template === undefined ? {} : { template: request.template }),
      });
    });
  }

  /** Ends the spawner and, with it, every kernel it started. */
  stop(): void {
    this.child.stdin?.end();
    try {
      this.child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  private write(message: Record<string, unknown>): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  private onMessage(message: SpawnerMessage): void {
    const entry = this.entries.get(message.id);
    if (!entry) {
      // A late answer to a request that timed out: end what it started.
      if (message.t === "spawned") {
        this.write({ op: "kill", id: message.id });
        this.write({ op: "release", id: message.id });
      }
      return;
    }
    if (message.t === "failed") {
      clearTimeout(entry.timer);
      this.entries.delete(entry.id);
      entry.reject(spawnerError(`the kernel spawner could not start the kernel: ${message.error}`));
    } else if (message.t === "spawned") {
      clearTimeout(entry.timer);
      entry.pid = message.pid;
      let spawned: SpawnedProcess;
      try {
        spawned = this.attach(entry, message);
      } catch (error) {
        this.write({ op: "kill", id: entry.id });
        entry.reject(spawnerError(`cannot open the kernel's protocol pipes: ${(error as Error).message}`));
        return;
      } finally {
        this.write({ op: "release", id: entry.id });
      }
      entry.resolve(spawned);
    } else if (message.t === "info") {
      entry.info = message.child === null ? [entry.pid!] : [entry.pid!, message.child];
      entry.resolveInfo?.(entry.info);
    } else if (message.t === "exit") {
      this.finish(
        entry,
        message.code,
        message.signal === null ? null : (SIGNAL_NAMES.get(message.signal) ?? null),
      );
    }
  }

  /** Opens the host's ends of the pipes through /proc (the spawner holds them until it hears `release`). */
  private attach(entry: Entry, message: Extract<SpawnerMessage, { t: "spawned" }>): SpawnedProcess {
    const base = `/proc/${this.child.pid}/fd`;
    const flags = fsConstants.O_NONBLOCK; // libuv adds O_CLOEXEC itself
    const commandFd = openSync(`${base}/${message.command}`, fsConstants.O_WRONLY | flags);
    let replyFd: number;
    try {
      replyFd = openSync(`${base}/${message.reply}`, fsConstants.O_RDONLY | flags);
    } catch (error) {
      closeSync(commandFd);
      throw error;
    }
    const commands = new Socket({ fd: commandFd, readable: false, writable: true });
    const replies = new Socket({ fd: replyFd, readable: true, writable: false });
    const firstPids = new Promise<number[]>((resolve) => {
      if (entry.info) resolve(entry.info);
      else entry.resolveInfo = resolve;
    });
    const pid = message.pid;
    return {
      pid,
      commands,
      replies,
      ...(message.interpreter === true ? { pidIsInterpreter: true } : {}),
      firstPids,
      onExit: (listener) => {
        if (entry.exit) listener(entry.exit.code, entry.exit.signal);
        else entry.exitListeners.push(listener);
      },
      kill: () => {
        if (entry.exited) return;
        if (this.dead === undefined) this.write({ op: "kill", id: entry.id });
        else killGroup(pid);
      },
    };
  }

  private finish(entry: Entry, code: number | null, signal: NodeJS.Signals | null): void {
    if (entry.exited) return;
    entry.exited = true;
    entry.exit = { code, signal };
    this.entries.delete(entry.id);
    entry.resolveInfo?.(entry.info ?? (entry.pid === undefined ? [] : [entry.pid]));
    for (const listener of entry.exitListeners.splice(0)) listener(code, signal);
  }

  private die(reason: string): void {
    if (this.dead !== undefined) return;
    this.dead = reason;
    this.onDeath(this);
    for (const entry of [...this.entries.values()]) {
      clearTimeout(entry.timer);
      if (entry.pid === undefined) {
        this.entries.delete(entry.id);
        entry.reject(spawnerError(reason));
        continue;
      }
      // Its kernels die with it (bwrap --die-with-parent); make sure, then report them as exited.
      killGroup(entry.pid);
      this.finish(entry, null, "SIGKILL");
    }
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

const spawners = new Map<string, Spawner>();

/** Starts a process through this host's spawner for `interpreter` (started on first use, restarted after it died). */
export function spawnThroughSpawner(interpreter: string, request: SpawnRequest): Promise<SpawnedProcess> {
  let spawner = spawners.get(interpreter);
  if (!spawner?.alive) {
    spawner = new Spawner(interpreter, (dead) => {
      if (spawners.get(interpreter) === dead) spawners.delete(interpreter);
    });
    spawners.set(interpreter, spawner);
  }
  return spawner.spawn(request);
}

/** The pids of the running spawners (for tests and benchmarks). */
export function spawnerPids(): number[] {
  return [...spawners.values()].flatMap((spawner) => (spawner.pid === undefined ? [] : [spawner.pid]));
}

/** Stops every spawner (their kernels end with them). */
export function stopSpawners(): void {
  for (const spawner of spawners.values()) spawner.stop();
  spawners.clear();
}
