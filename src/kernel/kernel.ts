import { chmodSync, copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ERROR_CODES,
  ProgAgentError,
  createTempDir,
  errorMessage,
  isTraversableByOthers,
  scratchDir,
  type TempDir,
} from "../core/index.js";
import { availableParallelism, tmpdir } from "node:os";
import { composeOutput, DEFAULT_MAX_OUTPUT_CHARS } from "./compose-output.js";
import {
  KernelProcess,
  escapeKernelText,
  kernelStartError,
  type KernelLauncher,
  type KernelMessage,
  type ResourceLimits,
  type WorkerMessage,
} from "./kernel-process.js";
import { UNSAFE_WARNING } from "./sandbox.js";
import { acquireStartTurn } from "./start-queue.js";
import {
  allocateKernelUid,
  directoryInode,
  probeIdmappedWorkspace,
  type KernelIdentity,
} from "./workspace-mount.js";
import {
  createSandboxBudget,
  formatBytes,
  SANDBOX_LIMITS_VARIABLE,
  type BudgetViolation,
  type SandboxLimitsReport,
} from "./sandbox-limits.js";

/** How a tool appears inside the kernel: `tools["name"]`, `tools.attr`, positional order and docs. */
export interface KernelToolSpec {
  name: string;
  attr: string;
  params: string[];
  signature: string;
  doc: string;
}

export type KernelToolOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Routes a tool call made by the program to the host; must resolve (never reject) before the signal aborts.
 * A handler that has the answer at once returns it directly: the reply is then written in the same turn of
 * the event loop as the call was read.
 */
export type KernelToolHandler = (
  call: { name: string; args: Record<string, unknown> },
  options: { signal: AbortSignal; timeoutMs: number },
) => KernelToolOutcome | Promise<KernelToolOutcome>;

export interface KernelOptions {
  /**
   * Bound read-write at /workspace (cwd and HOME); its files keep their owners and modes, and files the program
   * creates belong to the directory's owner. Default: a fresh temporary directory of the kernel's own.
   */
  workspaceDir?: string;
  /** Default /usr/bin/python3. */
  interpreter?: string;
  /** Development only: run without bubblewrap. Loudly labelled. */
  unsafeNoSandbox?: boolean;
  /** The bubblewrap executable (default: `bwrap` on PATH). */
  bwrapPath?: string;
  /** How sandboxed kernels start (kernel-process.ts; default PROGAGENT_KERNEL_LAUNCHER, else bwrap). */
  launcher?: KernelLauncher;
  /** Per-execution deadline (default 60 s). */
  timeoutMs?: number;
  /** How long an interrupted execution may take to stop before the kernel is killed (default 2 s). */
  interruptGraceMs?: number;
  maxOutputChars?: number;
  limits?: Partial<ResourceLimits>;
  /**
   * How long the interpreter may take from its launch to its ready signal (default 15 s). The wait for a turn to
   * launch (a few kernels start at once, see start-queue.ts) does not count; it has `startQueueTimeoutMs`.
   */
  startTimeoutMs?: number;
  /** How long a start may wait for its turn in a burst of starts (default 120 s). */
  startQueueTimeoutMs?: number;
  tools?: KernelToolSpec[];
  onToolCall?: KernelToolHandler;
  /** Receives warnings (unsafe mode, limits that could not be set). Default: stderr. */
  onWarning?: (message: string) => void;
  /**
   * Called as a start passes each of its stages, with `performance.now()` at that moment (bench:runtime's
   * per-stage table): `prepared` (folders and budget), `turn` (its place in a burst of starts), `forked` (the
   * sandbox's first processes exist), `ready` (the interpreter and bootstrap answered), `budgeted` (every process
   * in the kernel's cgroup).
   */
  onStartStage?: (stage: KernelStartStage, atMs: number) => void;
}

export type KernelStartStage = "prepared" | "turn" | "forked" | "ready" | "budgeted";

export type ExecutionStatus = "ok" | "error" | "timeout" | "killed" | "crashed";

/** The structured result of one execution (for trajectories) and the text the model sees. */
export interface ExecutionResult {
  text: string;
  truncated: boolean;
  status: ExecutionStatus;
  stdout: string;
  stderr: string;
  value: string | null;
  error: { type: string; message: string; traceback: string } | null;
  durationMs: number;
  toolCallCount: number;
  /** This execution ran in a fresh kernel after the previous one was lost. */
  kernelRestarted: boolean;
  /** For a command (runCommand): the program's exit code, or null when it did not exit by itself. */
  exitCode?: number | null;
  /** Set when the program exceeded a sandbox budget (the text says which and by how much). */
  budgetExceeded?: BudgetViolation["kind"];
}

export interface ExecuteOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface Kernel {
  readonly workspaceDir: string;
  /** The sandbox budgets of this kernel and the mechanism that enforces them. */
  readonly sandboxLimits: SandboxLimitsReport;
  /** Starts the interpreter now instead of on first execution. */
  start(): Promise<void>;
  setTools(tools: KernelToolSpec[], handler: KernelToolHandler): void;
  execute(code: string, options?: ExecuteOptions): Promise<ExecutionResult>;
  /**
   * Runs one of the programs the bootstrap allows (ls, find, cat) inside the sandbox with an argv list (never a
   * shell), in the workspace; its output is composed and truncated like an execution's. The caller validates
   * the command first; the bootstrap refuses any other program.
   */
  runCommand(argv: readonly string[], options?: ExecuteOptions): Promise<ExecutionResult>;
  /**
   * Ends the interpreter and everything it started, for good (later executions fail), and keeps the workspace
   * until dispose(): what a verifier reads after the program is over.
   */
  stop(): Promise<void>;
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export const DEFAULT_LIMITS: ResourceLimits = {
  memoryBytes: 2 * 1024 ** 3,
  processes: 256,
  fileSizeBytes: 256 * 1024 ** 2,
  cpuSeconds: 3600,
  openFiles: 1024,
  diskBytes: 4 * 1024 ** 3,
  tmpBytes: 1024 ** 3,
  workspaceEntries: 200_000,
};

export const RESTART_NOTE =
  "[Note: the kernel was restarted; variables, functions and imports from earlier executions are gone.]";

const BOOTSTRAP_SOURCE = fileURLToPath(new URL("./python/bootstrap.py", import.meta.url));
let bootstrapDir: TempDir | undefined;
const identityWarnings = new Set<string>();
let warnedAboutFallback = false;

/**
 * A world-readable copy of the bootstrap, so that a sandbox user can read it wherever the package lives. Its
 * directory is made once per process, in `parent()` (asked only then: it checks the file system).
 */
function bootstrapPath(parent: () => string): string {
  if (!bootstrapDir) {
    bootstrapDir = createTempDir("bootstrap", parent());
    chmodSync(bootstrapDir.path, 0o755);
    const owned = bootstrapDir;
    process.once("exit", () => owned.dispose());
  }
  const target = join(bootstrapDir.path, "bootstrap.py");
  if (!existsSync(target)) {
    copyFileSync(BOOTSTRAP_SOURCE, target);
    chmodSync(target, 0o644);
  }
  return target;
}

/**
 * On a root host a sandboxed kernel runs as its own unprivileged uid (its own process limit) and sees its
 * workspace through an idmapped mount; without idmapped mounts it runs as the invoking user, as on a
 * non-root host. Undefined means: run as the invoking user.
 */
function kernelIdentity(
  sandbox: boolean,
  workspaceDir: string,
  stageDir: string,
  interpreter: string,
  warn: (message: string) => void,
): KernelIdentity | undefined {
  if (!sandbox || process.getuid?.() !== 0) return undefined;
  const probe = probeIdmappedWorkspace(workspaceDir, interpreter);
  if (!probe.ok) {
    // Once per reason: every kernel's own workspace has a different path but the same file system.
    if (!identityWarnings.has(probe.reason)) {
      identityWarnings.add(probe.reason);
      warn(
        `progagent: idmapped mounts are not available for ${workspaceDir} (${probe.reason}); kernels there run ` +
          "as root inside the sandbox, without a uid of their own and without the per-kernel process limit.",
      );
    }
    return undefined;
  }
  const uid = allocateKernelUid();
  return { uid, gid: uid, stageDir, workspaceInode: directoryInode(workspaceDir) };
}

/**
 * Kernels live in the scratch directory (core/temp-dir.ts). bwrap runs as the kernel's own uid and must reach
 * the stage directory and the bootstrap: when the directory is private to the host user (mode 0700 somewhere
 * on the way), kernels live under /tmp instead. A scratch directory progagent chose itself (/dev/shm) is used
 * by such kernels only where their workspace can be idmapped (tmpfs can from Linux 6.3).
 */
function kernelParentDir(ownUid: boolean, interpreter: string): string {
  const scratch = scratchDir();
  if (!ownUid) return scratch.dir;
  const usable =
    isTraversableByOthers(scratch.dir) &&
    (!scratch.automatic || probeIdmappedWorkspace(scratch.dir, interpreter).ok);
  if (usable) return scratch.dir;
  const preferred = tmpdir();
  return isTraversableByOthers(preferred) ? preferred : "/tmp";
}

type DoneMessage = Extract<WorkerMessage, { t: "done" }>;

interface PendingExecution {
  id: number;
  settle(outcome: ExecutionOutcome): void;
  controller: AbortController;
  deadlineAt: number;
  /** Tool calls the host routed for this execution (the kernel's own count could be forged). */
  toolCallCount: number;
  /** The last reply the worker wrote for this execution; it counts only once the supervisor saw the worker stop. */
  reply: DoneMessage | undefined;
}

type ExecutionOutcome =
  | { kind: "done"; message: DoneMessage }
  | { kind: "exited"; code: number | null; signal: NodeJS.Signals | null }
  | { kind: "killed" }
  | { kind: "budget"; violation: BudgetViolation }
  | { kind: "violation"; reason: string };

const MAX_WORKER_WARNINGS = 20;

const SIGNAL_NAMES: Record<number, NodeJS.Signals> = {
  6: "SIGABRT",
  9: "SIGKILL",
  11: "SIGSEGV",
  15: "SIGTERM",
  24: "SIGXCPU",
  25: "SIGXFSZ",
};

/**
 * Executions running now in this process's kernels, and how many of them may wait for tool results spinning.
 * A kernel that spins for a result skips the wake-up the host's write would cost (bootstrap.py,
 * _await_result); that pays only while each running kernel has a core beside the host's one thread, so every
 * exec and result message says whether the kernel may spin until the next one (issue 8).
 */
let executionsRunning = 0;
const SPINNING_KERNELS = Math.max(0, availableParallelism() - 1);
const maySpin = (): boolean => executionsRunning <= SPINNING_KERNELS;

/** Creates a persistent, sandboxed Python kernel. Nothing starts until start() or the first execute(). */
export function createKernel(options: KernelOptions = {}): Kernel {
  const sandbox = options.unsafeNoSandbox !== true;
  const warn = options.onWarning ?? ((message: string) => process.stderr.write(`${message}\n`));
  if (!sandbox) warn(UNSAFE_WARNING);
  const interpreter = options.interpreter ?? "/usr/bin/python3";
  const ownDir = createTempDir("kernel", kernelParentDir(sandbox && process.getuid?.() === 0, interpreter));
  // Only the stage directory must be reachable by the kernel's uid; io files and an own workspace stay private.
  chmodSync(ownDir.path, 0o711);
  const ioDir = join(ownDir.path, "io");
  mkdirSync(ioDir, { mode: 0o700 });
  const stageDir = join(ownDir.path, "stage");
  mkdirSync(stageDir, { mode: 0o755 });
  let workspaceDir: string;
  if (options.workspaceDir === undefined) {
    mkdirSync(join(ownDir.path, "private"), { mode: 0o700 });
    workspaceDir = join(ownDir.path, "private", "workspace");
    mkdirSync(workspaceDir, { mode: 0o755 });
  } else {
    workspaceDir = resolve(options.workspaceDir);
    mkdirSync(workspaceDir, { recursive: true });
  }
  const identity = kernelIdentity(sandbox, workspaceDir, stageDir, interpreter, warn);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  let budget: ReturnType<typeof createSandboxBudget>;
  try {
    budget = createSandboxBudget(limits, workspaceDir, options.bwrapPath, sandbox, interpreter);
  } catch (error) {
    ownDir.dispose();
    throw error;
  }
  if (
    budget.report.mechanism === "rlimit" &&
    !warnedAboutFallback &&
    process.env[SANDBOX_LIMITS_VARIABLE] !== "rlimit"
  ) {
    warnedAboutFallback = true;
    warn(
      `[sandbox] ${budget.report.detail}. Memory and process budgets are enforced by rlimits and a host-side watch instead (see \`progagent sandbox\`).`,
    );
  }
  const stage = options.onStartStage ?? (() => undefined);
  stage("prepared", performance.now());
  const timeoutMs = options.timeoutMs ?? 60_000;
  const graceMs = options.interruptGraceMs ?? 2_000;
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  let tools = options.tools ?? [];
  let toolHandler: KernelToolHandler | undefined = options.onToolCall;

  let current: KernelProcess | undefined;
  /** The last process started: a restart's check waits for it to be gone (with it, its /tmp). */
  let lastStarted: KernelProcess | undefined;
  let starting: Promise<KernelProcess> | undefined;
  let pending: PendingExecution | undefined;
  let lostState = false;
  let everStarted = false;
  let disposed = false;
  /** Aborts a start still waiting for its turn when the kernel is stopped. */
  const stopping = new AbortController();
  let executionId = 0;
  let queue: Promise<unknown> = Promise.resolve();

  /** How the worker died, as its supervisor saw it (bwrap only reports the supervisor's exit). */
  let workerExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  /** The program can write warnings too: each is escaped and bounded, and only the first few are logged. */
  const workerWarnings = new WeakMap<KernelProcess, number>();
  const warnFromWorker = (process: KernelProcess, text: string): void => {
    const count = (workerWarnings.get(process) ?? 0) + 1;
    workerWarnings.set(process, count);
    if (count <= MAX_WORKER_WARNINGS) warn(`[kernel] ${escapeKernelText(text)}`);
    else if (count === MAX_WORKER_WARNINGS + 1)
      warn(`[kernel] more than ${MAX_WORKER_WARNINGS} warnings from this kernel; the rest are not logged`);
  };

  const onViolation = (process: KernelProcess, reason: string): void => {
    if (process !== current) return;
    warn(`[kernel] protocol violation: ${escapeKernelText(reason)}; the kernel was stopped`);
    current = undefined;
    lostState = true;
    process.kill();
    if (pending) pending.settle({ kind: "violation", reason });
    // An execution that settled before the violation (and may still await its disk check) reads the output the
    // process kept when it was disposed.
    else process.dispose();
  };

  const onMessage = (process: KernelProcess, { source, message }: KernelMessage): void => {
    if (process !== current) return;
    if (source === "supervisor") {
      if (message.t === "violation") onViolation(process, message.message);
      else if (message.t === "exited")
        workerExit = {
          code: message.code,
          signal: message.signal === null ? null : (SIGNAL_NAMES[message.signal] ?? null),
        };
      else if (message.t === "stopped" && pending) {
        // The worker stopped itself: a stop after a reply ends the execution; any other stop (the program
        // stopped itself) is continued.
        if (pending.reply) pending.settle({ kind: "done", message: pending.reply });
        else process.continueWorker();
      }
      return;
    }
    if (message.t === "warning") warnFromWorker(process, message.message);
    else if (message.t === "done" && pending && message.id === pending.id) pending.reply = message;
    else if (message.t === "call") {
      if (pending) pending.toolCallCount += 1;
      routeToolCall(process, message);
    }
  };

  const reply = (process: KernelProcess, id: number, outcome: KernelToolOutcome): void => {
    if (process === current) process.send({ t: "result", id, ...outcome, spin: maySpin() });
  };

  const routeToolCall = (process: KernelProcess, message: Extract<WorkerMessage, { t: "call" }>): void => {
    const execution = pending;
    if (!toolHandler || !execution) {
      reply(process, message.id, {
        ok: false,
        error: `no tools are connected to this kernel (called '${message.name}')`,
      });
      return;
    }
    const remainingMs = Math.max(0, execution.deadlineAt - Date.now());
    let outcome: KernelToolOutcome | Promise<KernelToolOutcome>;
    try {
      outcome = toolHandler(
        { name: message.name, args: message.args ?? {} },
        { signal: execution.controller.signal, timeoutMs: remainingMs },
      );
    } catch (error) {
      outcome = { ok: false, error: errorMessage(error) };
    }
    if (typeof (outcome as Partial<PromiseLike<unknown>>).then !== "function") {
      reply(process, message.id, outcome as KernelToolOutcome);
      return;
    }
    Promise.resolve(outcome).then(
      (settled) => reply(process, message.id, settled),
      (error: unknown) => reply(process, message.id, { ok: false, error: errorMessage(error) }),
    );
  };

  const spawnProcess = async (): Promise<KernelProcess> => {
    if (disposed)
      throw new ProgAgentError("the kernel was disposed", {
        code: ERROR_CODES.KERNEL_DISPOSED,
        category: "system",
      });
    const startTimeoutMs = options.startTimeoutMs ?? 15_000;
    let endTurn: () => void;
    try {
      endTurn = await acquireStartTurn(options.startQueueTimeoutMs ?? 120_000, stopping.signal);
    } catch (error) {
      if (error instanceof ProgAgentError) throw error;
      throw new ProgAgentError("the kernel was disposed", {
        code: ERROR_CODES.KERNEL_DISPOSED,
        category: "system",
      });
    }
    try {
      if (disposed)
        throw new ProgAgentError("the kernel was disposed", {
          code: ERROR_CODES.KERNEL_DISPOSED,
          category: "system",
        });
      stage("turn", performance.now());
      return await launchProcess(startTimeoutMs);
    } finally {
      endTurn();
    }
  };

  const launchProcess = async (startTimeoutMs: number): Promise<KernelProcess> => {
    let markReady: () => void = () => undefined;
    let failStart: (error: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    const child: KernelProcess = new KernelProcess({
      interpreter,
      workspaceDir,
      bootstrapPath: bootstrapPath(() => kernelParentDir(identity !== undefined, interpreter)),
      ioDir,
      sandbox,
      ...(options.bwrapPath === undefined ? {} : { bwrapPath: options.bwrapPath }),
      ...(options.launcher === undefined ? {} : { launcher: options.launcher }),
      limits,
      ...(identity === undefined ? {} : { identity }),
      onMessage: (message) => {
        if (message.source === "supervisor" && message.message.t === "ready") markReady();
        onMessage(child, message);
      },
      onViolation: (reason) => {
        failStart(kernelStartError(reason, ""));
        onViolation(child, reason);
      },
      onExit: (code, signal) => {
        failStart(
          kernelStartError(
            child.startFailure ?? `the interpreter exited (code ${code}, signal ${signal})`,
            child.readStartupError(),
          ),
        );
        if (child !== current) return;
        current = undefined;
        lostState = true;
        const how = workerExit ?? { code, signal };
        workerExit = undefined;
        if (pending) pending.settle({ kind: "exited", ...how });
        else child.dispose();
      },
    });
    current = child;
    lastStarted = child;
    // The cgroup migration overlaps the interpreter's start-up; `attach` checks every process before the first program.
    const joining = child.firstPids.then((pids) => {
      stage("forked", performance.now());
      return budget.join(pids);
    });
    joining.catch(() => undefined);
    if (tools.length > 0) child.send({ t: "init", tools });
    const timer = setTimeout(
      () =>
        failStart(kernelStartError(`no ready signal within ${startTimeoutMs} ms`, child.readStartupError())),
      startTimeoutMs,
    );
    try {
      await ready;
      stage("ready", performance.now());
      // Before the first program: every process of the sandbox is in the kernel's cgroup.
      await joining.catch(() => undefined);
      if (child.pid !== undefined) await budget.attach(child.pid);
      stage("budgeted", performance.now());
    } catch (error) {
      child.dispose();
      if (current === child) current = undefined;
      if (error instanceof ProgAgentError) throw error;
      throw kernelStartError(`could not apply the sandbox budgets: ${errorMessage(error)}`, "");
    } finally {
      clearTimeout(timer);
    }
    child.takeOutput();
    everStarted = true;
    return child;
  };

  /** Whether a restart must be refused; asked again once the last sandbox is surely gone (its /tmp is memory too). */
  const restartRefusal = async (): Promise<BudgetViolation | undefined> => {
    const refusal = budget.restartRefusal();
    if (!refusal || !lastStarted) return refusal;
    await exitOf(lastStarted, 2_000);
    return budget.restartRefusal();
  };

  const ensureProcess = async (): Promise<KernelProcess> => {
    if (current?.isAlive && !starting) return current;
    if (!starting) {
      starting = spawnProcess().finally(() => {
        starting = undefined;
      });
    }
    return await starting;
  };

  const runExecution = async (
    request: { t: "exec"; code: string } | { t: "run"; argv: readonly string[] },
    executeOptions: ExecuteOptions,
  ): Promise<ExecutionResult> => {
    const startedAt = Date.now();
    const isCommand = request.t === "run";
    // A command does not use the program's state: the note about lost state waits for the next execution.
    const restartedNow = lostState && everStarted && !isCommand;
    // A workspace on a tmpfs that fills the memory budget leaves no room for a new kernel: say so, start nothing.
    const refusal = everStarted && !current?.isAlive && !starting ? await restartRefusal() : undefined;
    if (refusal) return refusedRestart(refusal, startedAt, isCommand);
    const process = await ensureProcess();
    if (!isCommand) lostState = false;
    const limitMs = executeOptions.timeoutMs ?? timeoutMs;
    executionId += 1;
    const controller = new AbortController();
    let timedOut = false;
    let stopWatching: () => void = () => undefined;
    let settledExecution: PendingExecution | undefined;
    let interruptTimer: NodeJS.Timeout | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const settled = await new Promise<ExecutionOutcome>((resolve) => {
      const execution: PendingExecution = {
        id: executionId,
        controller,
        deadlineAt: startedAt + limitMs,
        toolCallCount: 0,
        reply: undefined,
        settle: (value) => {
          if (pending !== execution) return;
          pending = undefined;
          executionsRunning -= 1;
          resolve(value);
        },
      };
      pending = execution;
      executionsRunning += 1;
      settledExecution = execution;
      const interrupt = (): void => {
        controller.abort(new Error("execution deadline"));
        process.interrupt();
        killTimer = setTimeout(() => {
          if (pending !== execution) return;
          process.kill();
          if (current === process) current = undefined;
          lostState = true;
          execution.settle({ kind: "killed" });
        }, graceMs);
      };
      interruptTimer = setTimeout(() => {
        timedOut = true;
        interrupt();
      }, limitMs);
      executeOptions.signal?.addEventListener("abort", interrupt, { once: true });
      stopWatching = budget.watch((violation) => {
        if (pending !== execution) return;
        process.kill();
        if (current === process) current = undefined;
        lostState = true;
        execution.settle({ kind: "budget", violation });
      });
      process.send({ ...request, id: executionId, spin: maySpin() });
      process.continueWorker();
    });
    stopWatching();
    clearTimeout(interruptTimer);
    clearTimeout(killTimer);
    let outcome = settled;
    if (settled.kind === "exited") {
      // An OOM kill of the whole sandbox arrives as an exit; the cgroup says whether the budget did it.
      const violation = budget.memoryExceeded();
      if (violation) outcome = { kind: "budget", violation };
    }
    // A child killed by the OOM killer while the program itself finished: say so (the kernel lives on).
    const memoryNote = settled.kind === "done" ? budget.memoryExceeded() : undefined;
    const diskViolation =
      outcome.kind === "done" ? await budget.checkDisk().catch(() => undefined) : undefined;
    const output = process.takeOutput();
    if (outcome.kind !== "done") process.dispose();
    const seconds = Math.round(limitMs / 100) / 10;
    const notes = restartedNow ? [RESTART_NOTE] : [];
    const trailer: string[] = [];
    let status: ExecutionStatus;
    let value: string | null = null;
    let error: ExecutionResult["error"] = null;
    const toolCallCount = settledExecution?.toolCallCount ?? 0;
    if (outcome.kind === "done") {
      value = outcome.message.value;
      error = outcome.message.error;
      if (isCommand) {
        status = commandOutcome(request.argv[0] ?? "", outcome.message, timedOut, seconds, trailer);
      } else if (
        error &&
        error.type === "KeyboardInterrupt" &&
        (timedOut || executeOptions.signal?.aborted)
      ) {
        status = "timeout";
        trailer.push(
          timedOut
            ? `[Execution timed out after ${seconds} s and was interrupted. The kernel is still alive: variables and imports are preserved.]`
            : "[Execution was cancelled and interrupted. The kernel is still alive: variables and imports are preserved.]",
        );
      } else {
        status = error ? "error" : "ok";
      }
    } else if (outcome.kind === "budget") {
      status = "crashed";
      trailer.push(`[${outcome.violation.message}]`);
    } else if (outcome.kind === "killed") {
      status = "killed";
      trailer.push(
        `[Execution timed out after ${seconds} s and did not stop within ${graceMs / 1000} s of the interrupt, so the kernel was killed. ` +
          "All kernel state (variables, functions, imports) is lost; the next execution starts a fresh kernel.]",
      );
    } else if (outcome.kind === "violation") {
      status = "crashed";
      trailer.push(
        `[The kernel broke the protocol (${outcome.reason}) and was stopped. All kernel state is lost; the next execution starts a fresh kernel.]`,
      );
    } else {
      status = "crashed";
      const how = outcome.signal
        ? `killed by ${outcome.signal}${outcome.signal === "SIGKILL" ? ", possibly out of memory" : ""}`
        : `exit code ${outcome.code}`;
      trailer.push(
        `[The kernel process died during execution (${how}). All kernel state is lost; the next execution starts a fresh kernel.]`,
      );
    }
    if (memoryNote) {
      trailer.push(
        `[A process of the program was killed for exceeding the sandbox memory budget of ${formatBytes(memoryNote.limitBytes)}.]`,
      );
    }
    if (diskViolation) {
      if (status === "ok") status = "error";
      trailer.push(`[${diskViolation.message}]`);
    }
    const budgetExceeded =
      outcome.kind === "budget" ? outcome.violation.kind : (memoryNote?.kind ?? diskViolation?.kind);
    const composed = composeOutput(
      {
        notes,
        stdout: output.stdout,
        value,
        stderr: output.stderr,
        traceback: error?.traceback ?? null,
        trailer,
      },
      maxOutputChars,
    );
    return {
      text: composed.text,
      truncated: composed.truncated,
      status,
      stdout: output.stdout,
      stderr: output.stderr,
      value,
      error,
      durationMs: Date.now() - startedAt,
      toolCallCount,
      kernelRestarted: restartedNow,
      ...(isCommand
        ? { exitCode: outcome.kind === "done" ? (outcome.message.exit_code ?? null) : null }
        : {}),
      ...(budgetExceeded === undefined ? {} : { budgetExceeded }),
    };
  };

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= shutdown());
  const dispose = async (): Promise<void> => {
    await stop();
    // In slices: removing a workspace of many files takes milliseconds that a burst pays one by one. What model
    // code left that cannot be removed now (it never should) is swept by the next progagent process.
    await ownDir
      .disposeAsync()
      .catch((error: unknown) =>
        warn(`progagent: could not remove ${ownDir.path} entirely: ${errorMessage(error)}`),
      );
  };
  const shutdown = async (): Promise<void> => {
    disposed = true;
    stopping.abort(new Error("the kernel was stopped"));
    try {
      await starting;
    } catch {
      // a failed start has nothing left to end
    }
    if (pending) pending.settle({ kind: "killed" });
    const process = current;
    current = undefined;
    if (process) {
      process.dispose();
      await exitOf(process, 2_000);
    }
    await budget.dispose();
  };

  return {
    workspaceDir,
    sandboxLimits: budget.report,
    stop,
    start: async () => {
      await ensureProcess();
    },
    setTools(nextTools, handler) {
      tools = nextTools;
      toolHandler = handler;
      current?.send({ t: "init", tools });
    },
    execute(code, executeOptions = {}) {
      if (disposed) {
        return Promise.reject(
          new ProgAgentError("the kernel was disposed", {
            code: ERROR_CODES.KERNEL_DISPOSED,
            category: "system",
          }),
        );
      }
      // One execution at a time: later calls wait for earlier ones.
      const run = queue.then(() => runExecution({ t: "exec", code }, executeOptions));
      queue = run.catch(() => undefined);
      return run;
    },
    runCommand(argv, executeOptions = {}) {
      if (disposed) {
        return Promise.reject(
          new ProgAgentError("the kernel was disposed", {
            code: ERROR_CODES.KERNEL_DISPOSED,
            category: "system",
          }),
        );
      }
      const run = queue.then(() => runExecution({ t: "run", argv }, executeOptions));
      queue = run.catch(() => undefined);
      return run;
    },
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

/** Resolves once the process has exited, or after `timeoutMs`. */
async function exitOf(process: KernelProcess, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    process.exitedPromise,
    new Promise((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

/** The result of an execution that could not run because the kernel could not restart. */
function refusedRestart(violation: BudgetViolation, startedAt: number, isCommand: boolean): ExecutionResult {
  const text = `[${violation.message}]`;
  return {
    text,
    truncated: false,
    status: "crashed",
    stdout: "",
    stderr: "",
    value: null,
    error: null,
    durationMs: Date.now() - startedAt,
    toolCallCount: 0,
    kernelRestarted: false,
    ...(isCommand ? { exitCode: null } : {}),
    budgetExceeded: violation.kind,
  };
}

/** How a command ended, as a status and trailer lines (the interrupt of a command kills the program). */
function commandOutcome(
  program: string,
  message: DoneMessage,
  timedOut: boolean,
  seconds: number,
  trailer: string[],
): ExecutionStatus {
  if (message.error?.type === "KeyboardInterrupt") {
    trailer.push(
      timedOut
        ? `[${program} timed out after ${seconds} s and was stopped.]`
        : `[${program} was cancelled and stopped.]`,
    );
    return "timeout";
  }
  if (message.error) return "error";
  if (message.exit_code !== undefined && message.exit_code !== null && message.exit_code !== 0) {
    trailer.push(`[${program} exited with code ${message.exit_code}]`);
    return "error";
  }
  return "ok";
}
