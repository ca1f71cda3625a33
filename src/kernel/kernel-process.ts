import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, openSync, readFileSync, ftruncateSync, fstatSync, readSync } from "node:fs";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { z } from "zod";
import { createLogger, ERROR_CODES, ProgAgentError } from "../core/index.js";
import {
  assertSandboxAvailable,
  buildSandboxCommand,
  SANDBOX_BOOTSTRAP,
  SANDBOX_BOOTSTRAP_COMPILED,
  interpreterFlags,
  sandboxEnvironment,
  sandboxFeatures,
  sandboxInterpreter,
} from "./sandbox.js";
import { compiledBootstrap } from "./compiled-bootstrap.js";
import type { KernelIdentity } from "./workspace-mount.js";
import { hostSeccompFilter, seccompSupported } from "./seccomp.js";
import { spawnThroughSpawner, type LaunchSpec, type SpawnedProcess, type TemplateSpec } from "./spawner.js";

/**
 * A line written by the protocol supervisor inside the sandbox, recognised by the key the host gave it (the
 * worker that runs the program never sees the key).
 */
export type SupervisorMessage =
  | { t: "ready"; pid: number }
  | { t: "stopped" }
  | { t: "exited"; code: number | null; signal: number | null }
  | { t: "violation"; message: string };

/** A line written by the worker that runs the program: untrusted, the program can write any of these. */
export type WorkerMessage =
  | { t: "ok" }
  | { t: "pong" }
  | { t: "warning"; message: string }
  | { t: "call"; id: number; name: string; args: Record<string, unknown> }
  | {
      t: "done";
      id: number;
      value: string | null;
      error: { type: string; message: string; traceback: string } | null;
      /** Only in the reply to a `run` command. */
      exit_code?: number | null;
    };

/** A message from the Python side of the protocol, with who wrote it. */
export type KernelMessage =
  { source: "supervisor"; message: SupervisorMessage } | { source: "worker"; message: WorkerMessage };

/**
 * The longest protocol line the host reads (the bootstrap's MAX_MESSAGE_BYTES plus a little): a longer one
 * is a protocol violation, discarded as it streams in without being buffered.
 */
export const MAX_PROTOCOL_LINE_BYTES = 32 * 1024 * 1024 + 16;

const SUPERVISOR_TYPES = new Set(["ready", "stopped", "exited", "violation"]);
const errorSchema = z.object({ type: z.string(), message: z.string(), traceback: z.string() });
const supervisorMessageSchema = z.discriminatedUnion("t", [
  z.object({ t: z.literal("ready"), pid: z.number() }),
  z.object({ t: z.literal("stopped") }),
  z.object({ t: z.literal("exited"), code: z.number().nullable(), signal: z.number().nullable() }),
  z.object({ t: z.literal("violation"), message: z.string() }),
]);
const workerMessageSchema = z.discriminatedUnion("t", [
  z.object({ t: z.literal("ok") }),
  z.object({ t: z.literal("pong") }),
  z.object({ t: z.literal("warning"), message: z.string() }),
  z.object({
    t: z.literal("call"),
    id: z.number(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
  }),
  z.object({
    t: z.literal("done"),
    id: z.number(),
    value: z.string().nullable(),
    error: errorSchema.nullable(),
    exit_code: z.number().int().nullable().optional(),
  }),
]);

function sameKey(given: unknown, key: Buffer): boolean {
  if (typeof given !== "string") return false;
  const bytes = Buffer.from(given, "utf8");
  return bytes.length === key.length && timingSafeEqual(bytes, key);
}

/**
 * Parses one protocol line; undefined for anything malformed, and for a supervisor message without the
 * supervisor's key (which only the program can have written).
 */
export function parseProtocolLine(line: string, key: Buffer): KernelMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  const type = (raw as { t?: unknown } | null)?.t;
  if (typeof type === "string" && SUPERVISOR_TYPES.has(type)) {
    if (!sameKey((raw as { key?: unknown }).key, key)) return undefined;
    const parsed = supervisorMessageSchema.safeParse(raw);
    return parsed.success ? { source: "supervisor", message: parsed.data } : undefined;
  }
  if (type === "call") return parseCall(raw as Record<string, unknown>);
  const parsed = workerMessageSchema.safeParse(raw);
  return parsed.success ? { source: "worker", message: parsed.data } : undefined;
}

/**
 * A tool call, checked by hand: it is the one message per tool call, and the schema's generic walk cost more
 * than the rest of its parsing. Same rules as the schema: unknown keys are dropped.
 */
function parseCall(raw: Record<string, unknown>): KernelMessage | undefined {
  const { id, name, args } = raw;
  if (typeof id !== "number" || typeof name !== "string") return undefined;
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  return { source: "worker", message: { t: "call", id, name, args: args as Record<string, unknown> } };
}

export interface ResourceLimits {
  /** The sandbox's memory budget: all its processes and its /tmp together (also each process's RLIMIT_AS). */
  memoryBytes: number;
  /** Processes and threads of the sandbox together. */
  processes: number;
  fileSizeBytes: number;
  cpuSeconds: number;
  openFiles: number;
  /** The workspace's disk budget. */
  diskBytes: number;
  /** Size of the private /tmp (a tmpfs in RAM, so it counts against `memoryBytes` too). */
  tmpBytes: number;
  /** How many entries the workspace may hold (the disk budget's walk is bounded by it). */
  workspaceEntries: number;
}

/**
 * How a sandboxed kernel is started: `bwrap` execs bwrap and a new interpreter per kernel; `template` forks it
 * from a template interpreter per configuration (python/template.py), which builds the same sandbox itself.
 */
export type KernelLauncher = "bwrap" | "template";
/** `PROGAGENT_KERNEL_LAUNCHER=template|bwrap` chooses the launcher where the options do not. */
export const KERNEL_LAUNCHER_VARIABLE = "PROGAGENT_KERNEL_LAUNCHER";

export interface KernelProcessOptions {
  interpreter: string;
  workspaceDir: string;
  bootstrapPath: string;
  /** Host directory for the program's stdout/stderr files (never visible in the sandbox). */
  ioDir: string;
  sandbox: boolean;
  bwrapPath?: string;
  /** Default: PROGAGENT_KERNEL_LAUNCHER, else bwrap. The template needs `identity` (a root host); bwrap otherwise. */
  launcher?: KernelLauncher;
  limits: ResourceLimits;
  /**
   * Run as this uid/gid with the workspace idmapped (root hosts only): each kernel gets its own process
   * limit, and the workspace's files keep their owners on disk. Without it the kernel runs as the invoking user.
   */
  identity?: KernelIdentity;
  onMessage(message: KernelMessage): void;
  /** The kernel broke the protocol (a line over the size cap); the kernel should be ended. */
  onViolation(reason: string): void;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
}

const MAX_CAPTURE_BYTES = 16 * 1024 * 1024;
/** The descriptor bwrap reads the seccomp filter from (after the protocol's 3 and 4). */
const SECCOMP_FD = 5;
/** The descriptor bwrap writes its JSON info to (`child-pid`: the sandbox's first process). */
const INFO_FD = 6;

/**
 * One Python process speaking the kernel protocol. Owns the process and its output files; knows nothing
 * of executions or deadlines (that is the kernel's job). A sandboxed kernel is started by the spawner
 * (spawner.ts), so the constructor returns at once and never forks from this thread.
 */
export class KernelProcess {
  private readonly stdoutFd: number;
  private readonly stderrFd: number;
  /** The process once the spawner started it (undefined while starting, and when it never started). */
  private handle: SpawnedProcess | undefined;
  /** Command lines written before the process existed, sent in order once it does. */
  private queued: string[] = [];
  private killRequested = false;
  /** Why the process could not be started at all (the spawner failed or died first). */
  private failedToStart: string | undefined;
  /** Parts of the protocol line being read (joined once, when its newline arrives). */
  private lineParts: Buffer[] = [];
  /** Proves a line comes from the supervisor; sent as the first command line, read only by the supervisor. */
  private readonly key = Buffer.from(randomBytes(16).toString("hex"));
  private lineBytes = 0;
  /** Inside a line longer than MAX_PROTOCOL_LINE_BYTES: its bytes are dropped until the newline. */
  private discarding = false;
  private exited = false;
  /**
   * What the program wrote before `dispose` closed the files, kept for one last `takeOutput`: an execution may
   * still be settling (awaiting the disk check) when a protocol violation disposes the process.
   */
  private outputAtDispose: ReturnType<KernelProcess["takeOutput"]> | undefined;
  private disposed = false;
  /** The host pid of the Python interpreter (inside bwrap it is a child of bwrap). */
  private pythonPid: number | undefined;
  /**
   * The first processes of the sandbox as soon as they exist (bwrap and its child, the template's PID 1, or the
   * interpreter when unsandboxed): the host moves them into the kernel's cgroup while the interpreter starts (a
   * migration into a fresh cgroup before the exec was on the start's critical path: a sequential cold start's
   * p50 +4 ms and p95 +15 ms in interleaved bench:runtime runs), and `attach` checks the whole tree after.
   */
  readonly firstPids: Promise<number[]>;
  /** Resolves once the process has exited (or never started). */
  readonly exitedPromise: Promise<void>;
  private markExited: () => void = () => undefined;

  constructor(private readonly options: KernelProcessOptions) {
    const stdoutPath = join(options.ioDir, "stdout");
    const stderrPath = join(options.ioDir, "stderr");
    this.stdoutFd = openSync(stdoutPath, "w+");
    this.stderrFd = openSync(stderrPath, "w+");
    this.exitedPromise = new Promise((resolve) => {
      this.markExited = resolve;
    });
    const environment = sandboxEnvironment({
      PROGAGENT_LIMITS: JSON.stringify({
        memory_bytes: options.limits.memoryBytes,
        processes: options.identity === undefined ? 0 : options.limits.processes,
        file_size_bytes: Math.min(options.limits.fileSizeBytes, options.limits.diskBytes),
        cpu_seconds: options.limits.cpuSeconds,
        open_files: options.limits.openFiles,
      }),
    });
    let launched: Promise<SpawnedProcess>;
    if (options.sandbox) {
      const bwrap = assertSandboxAvailable(options.bwrapPath);
      const seccomp = seccompSupported();
      launched = compiledBootstrap(options.interpreter, options.bootstrapPath, SANDBOX_BOOTSTRAP).then(
        (compiledBootstrapPath) => {
          const { command, args } = buildSandboxCommand({
            interpreter: options.interpreter,
            workspaceDir: options.identity?.stageDir ?? options.workspaceDir,
            bootstrapPath: options.bootstrapPath,
            ...(compiledBootstrapPath === undefined ? {} : { compiledBootstrapPath }),
            environment,
            bwrapPath: bwrap,
            ...(sandboxFeatures(bwrap).tmpfsSize ? { tmpBytes: options.limits.tmpBytes } : {}),
            ...(seccomp ? { seccompFd: SECCOMP_FD } : {}),
            infoFd: INFO_FD,
          });
          const template = templateSpec(options, compiledBootstrapPath);
          return spawnThroughSpawner(options.interpreter, {
            argv: [command, ...args],
            stdoutPath,
            stderrPath,
            ...(seccomp ? { seccomp: hostSeccompFilter() } : {}),
            ...launchSpec(options),
            ...(template === undefined ? {} : { template }),
          });
        },
      );
    } else {
      launched = spawnDirect(options, environment, stdoutPath, stderrPath);
    }
    this.firstPids = launched.then(
      (handle) => handle.firstPids,
      () => [],
    );
    launched.then(
      (handle) => this.attach(handle),
      (error: unknown) => {
        this.failedToStart = (error as Error).message;
        this.exited = true;
        this.markExited();
        this.options.onExit(null, null);
      },
    );
  }

  /** Why the process could not be started at all, if that is what happened. */
  get startFailure(): string | undefined {
    return this.failedToStart;
  }

  /** The host pid of the sandbox's first process (bwrap), once started. */
  get pid(): number | undefined {
    return this.handle?.pid;
  }

  private attach(handle: SpawnedProcess): void {
    this.handle = handle;
    if (!this.options.sandbox || handle.pidIsInterpreter === true) this.pythonPid = handle.pid;
    const { commands, replies } = handle;
    commands.on("error", () => undefined);
    replies.on("error", () => undefined);
    commands.write(`${JSON.stringify({ t: "key", key: this.key.toString() })}\n`);
    for (const line of this.queued.splice(0)) commands.write(line);
    replies.on("data", (chunk: Buffer) => this.onData(chunk));
    // The supervisor's last lines (how the worker died) can still be in the pipe when the exit is reported:
    // report the exit once the replies have ended, or shortly after if something else still holds the pipe.
    let repliesEnded = false;
    let exitReported = false;
    let reportExit: () => void = () => undefined;
    replies.once("close", () => {
      repliesEnded = true;
      reportExit();
    });
    handle.onExit((code, signal) => {
      this.exited = true;
      commands.destroy();
      reportExit = () => {
        if (exitReported) return;
        exitReported = true;
        clearTimeout(fallback);
        replies.destroy();
        this.markExited();
        this.options.onExit(code, signal);
      };
      const fallback = setTimeout(reportExit, 500);
      if (repliesEnded) reportExit();
    });
    if (this.killRequested) handle.kill();
  }

  get isAlive(): boolean {
    return !this.exited;
  }

  send(message: Record<string, unknown>): void {
    if (this.exited) return;
    const line = `${JSON.stringify(message)}\n`;
    if (this.handle) this.handle.commands.write(line);
    else this.queued.push(line);
  }

  /** Sends SIGINT to the supervisor, which interrupts the worker (KeyboardInterrupt in the program). */
  interrupt(): void {
    this.signalSupervisor("SIGINT");
  }

  /** Continues the worker (stopped after each reply) so that it reads the next command. */
  continueWorker(): void {
    this.signalSupervisor("SIGCONT");
  }

  private signalSupervisor(signal: NodeJS.Signals): void {
    const pid = this.resolvePythonPid();
    // Never 0 or negative: process.kill would signal a whole group, or every process.
    if (pid === undefined || pid <= 0 || this.exited) return;
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }

  /** Kills the whole process group; inside bwrap the PID namespace dies with it. */
  kill(): void {
    if (this.exited) return;
    if (this.handle) this.handle.kill();
    else this.killRequested = true;
  }

  /** Reads and clears what the program wrote to stdout and stderr since the last call. */
  takeOutput(): { stdout: string; stderr: string; stdoutBytes: number; stderrBytes: number } {
    if (this.disposed) {
      const kept = this.outputAtDispose ?? { stdout: "", stderr: "", stdoutBytes: 0, stderrBytes: 0 };
      this.outputAtDispose = undefined;
      return kept;
    }
    const stdout = this.drain(this.stdoutFd);
    const stderr = this.drain(this.stderrFd);
    return { stdout: stdout.text, stderr: stderr.text, stdoutBytes: stdout.bytes, stderrBytes: stderr.bytes };
  }

  /** Everything the bootstrap wrote to stderr (for start-up failures). */
  readStartupError(): string {
    try {
      return readFileSync(join(this.options.ioDir, "stderr"), "utf8").slice(-4000);
    } catch {
      return "";
    }
  }

  dispose(): void {
    this.kill();
    if (this.disposed) return;
    try {
      this.outputAtDispose = this.takeOutput();
    } catch {
      // the files are gone (the io directory was removed): nothing to keep
    }
    this.disposed = true;
    for (const fd of [this.stdoutFd, this.stderrFd]) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
  }

  private drain(fd: number): { text: string; bytes: number } {
    const size = fstatSync(fd).size;
    if (size === 0) return { text: "", bytes: 0 };
    // A runaway printer can write gigabytes; the model only ever sees 50k characters, so keep head and tail.
    let text: string;
    if (size <= MAX_CAPTURE_BYTES) {
      const data = Buffer.alloc(size);
      readSync(fd, data, 0, size, 0);
      text = data.toString("utf8");
    } else {
      const half = MAX_CAPTURE_BYTES / 2;
      const head = Buffer.alloc(half);
      const tail = Buffer.alloc(half);
      readSync(fd, head, 0, half, 0);
      readSync(fd, tail, 0, half, size - half);
      text = `${head.toString("utf8")}\n... [${size - MAX_CAPTURE_BYTES} bytes not captured] ...\n${tail.toString("utf8")}`;
    }
    ftruncateSync(fd, 0);
    return { text, bytes: size };
  }

  private resolvePythonPid(): number | undefined {
    if (this.pythonPid !== undefined) return this.pythonPid;
    const pid = this.handle?.pid;
    if (pid === undefined) return undefined;
    try {
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
      const first = Number(children[0]);
      if (Number.isInteger(first) && first > 0) this.pythonPid = first;
    } catch {
      return undefined;
    }
    return this.pythonPid;
  }

  /** Linear in the bytes read: each chunk is scanned once, a line is joined once. */
  private onData(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline;
      if (!this.discarding && end > start) {
        this.lineBytes += end - start;
        if (this.lineBytes > MAX_PROTOCOL_LINE_BYTES) {
          this.lineParts = [];
          this.lineBytes = 0;
          this.discarding = true;
          this.options.onViolation(
            `the kernel wrote a protocol message longer than ${MAX_PROTOCOL_LINE_BYTES >> 20} MiB`,
          );
        } else {
          this.lineParts.push(chunk.subarray(start, end));
        }
      }
      if (newline < 0) return;
      if (this.discarding) this.discarding = false;
      else if (this.lineParts.length > 0) {
        const line =
          this.lineParts.length === 1 ? this.lineParts[0]! : Buffer.concat(this.lineParts, this.lineBytes);
        this.lineParts = [];
        this.lineBytes = 0;
        const message = parseProtocolLine(line.toString("utf8"), this.key);
        if (message) this.options.onMessage(message);
      }
      start = newline + 1;
    }
  }
}

/**
 * On a root host bwrap runs behind the launcher's steps (done by the spawner in the forked child): with an
 * identity it mounts the workspace idmapped and drops to the kernel's ids; without one (no idmapped mounts) it
 * only loads the filter against set-id modes.
 */
function launchSpec(options: KernelProcessOptions): { launch?: LaunchSpec } {
  const { identity } = options;
  if (!identity) return process.getuid?.() === 0 ? { launch: { mode: "setid" } } : {};
  return {
    launch: {
      mode: "idmap",
      workspace: options.workspaceDir,
      inode: identity.workspaceInode,
      stage: identity.stageDir,
      uid: identity.uid,
      gid: identity.gid,
    },
  };
}

const logger = createLogger();
let templateFallbackLogged = false;

/** The launcher asked for: the option, else PROGAGENT_KERNEL_LAUNCHER, else bwrap. */
export function requestedLauncher(option: KernelLauncher | undefined): KernelLauncher {
  if (option !== undefined) return option;
  const value = process.env[KERNEL_LAUNCHER_VARIABLE];
  if (value === undefined || value === "") return "bwrap";
  if (value === "bwrap" || value === "template") return value;
  throw new ProgAgentError(
    `${KERNEL_LAUNCHER_VARIABLE} must be "bwrap" or "template", not ${JSON.stringify(value)}`,
    {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    },
  );
}

/**
 * What the spawner needs to fork the kernel from a template, or undefined for bwrap. The template launches only
 * kernels with their own uid (a root host with idmapped workspaces): elsewhere bwrap starts them, said once.
 */
function templateSpec(
  options: KernelProcessOptions,
  compiledBootstrapPath: string | undefined,
): TemplateSpec | undefined {
  if (requestedLauncher(options.launcher) !== "template") return undefined;
  if (options.identity === undefined) {
    if (!templateFallbackLogged) {
      templateFallbackLogged = true;
      logger.debug(
        "kernel launcher: the template needs a kernel identity (root with idmapped workspaces); kernels start with bwrap",
      );
    }
    return undefined;
  }
  const { interpreter, flags } = sandboxInterpreter(options.interpreter);
  return {
    interpreter,
    flags,
    code: compiledBootstrapPath ?? options.bootstrapPath,
    script: compiledBootstrapPath === undefined ? SANDBOX_BOOTSTRAP : SANDBOX_BOOTSTRAP_COMPILED,
    environment: sandboxEnvironment({}),
  };
}

/** Unsafe mode (no sandbox, development only): the interpreter is spawned from this process directly. */
function spawnDirect(
  options: KernelProcessOptions,
  environment: Record<string, string>,
  stdoutPath: string,
  stderrPath: string,
): Promise<SpawnedProcess> {
  const appendOut = openSync(stdoutPath, "a");
  const appendErr = openSync(stderrPath, "a");
  let child: ChildProcess;
  try {
    child = spawn(options.interpreter, [...interpreterFlags(options.interpreter), options.bootstrapPath], {
      stdio: ["ignore", appendOut, appendErr, "pipe", "pipe"],
      detached: true,
      cwd: options.workspaceDir,
      env: { ...environment, HOME: options.workspaceDir },
    });
  } finally {
    closeSync(appendOut);
    closeSync(appendErr);
  }
  if (child.pid === undefined) {
    // Not started (the interpreter is missing, say): Node reports why in an 'error' event.
    return new Promise((_, reject) => child.once("error", reject));
  }
  child.on("error", () => undefined);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const listeners: Array<(code: number | null, signal: NodeJS.Signals | null) => void> = [];
  child.on("exit", (code, signal) => {
    exit = { code, signal };
    for (const listener of listeners.splice(0)) listener(code, signal);
  });
  const pid = child.pid;
  return Promise.resolve({
    pid,
    commands: child.stdio[3] as Writable,
    replies: child.stdio[4] as Readable,
    firstPids: Promise.resolve(child.pid === undefined ? [] : [child.pid]),
    onExit: (listener) => {
      if (exit) listener(exit.code, exit.signal);
      else listeners.push(listener);
    },
    kill: () => {
      if (exit) return;
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
      }
    },
  });
}

/**
 * Kernel-originated text made safe for a log line: control characters, ANSI escapes, line and bidi
 * separators are escaped, and the length is bounded.
 */
export function escapeKernelText(text: string, maxChars = 2_000): string {
  const escaped = text.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return escaped.length <= maxChars
    ? escaped
    : `${escaped.slice(0, maxChars)}... [${escaped.length - maxChars} characters omitted]`;
}

export function kernelStartError(reason: string, startupError: string): ProgAgentError {
  return new ProgAgentError(
    `The Python kernel failed to start: ${reason}${startupError ? `\n${startupError}` : ""}`,
    {
      code: ERROR_CODES.KERNEL_START_FAILED,
      category: "system",
    },
  );
}
