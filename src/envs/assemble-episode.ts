import { ERROR_CODES, ProgAgentError, createTempDir, scratchDir, type TempDir } from "../core/index.js";
import type { ExecuteOptions, ExecutionResult, Kernel, KernelOptions, KernelPool } from "../kernel/index.js";
import { createKernel } from "../kernel/index.js";
import {
  createToolRouter,
  type ToolCallRecord,
  type ToolCallResult,
  type ToolEndpoint,
  type ToolRouter,
} from "../runtime/index.js";
import type { ReferenceVariant, ReplacedCodeTool, Task } from "./define-external-task.js";
import type { Verdict } from "./define-task.js";
import type { HarnessMode } from "./names.js";
import type { Scale } from "./scale.js";

/** Which instance an episode runs: enough to name it (a built-in task's `Instance` has more). */
export interface EpisodeInstance {
  scale: Scale;
  seed: number;
  key: string;
}

export interface EpisodeOptions {
  /** Whether code will run (PTC/Hybrid). Without it no kernel is started and the workspace is a plain directory. */
  withKernel?: boolean;
  pool?: KernelPool;
  kernelOptions?: Omit<KernelOptions, "workspaceDir" | "tools" | "onToolCall">;
  cacheDir?: string;
  toolTimeoutMs?: number;
  onCall?: (record: ToolCallRecord) => void;
  /**
   * The harness mode the episode serves, when known. External tasks need it: under DTC the suite's own code
   * tool (LOCA's `python_execute`) is offered and runs in the sandbox, so a kernel is started for it.
   */
  mode?: HarnessMode;
  /**
   * External tasks: whether the suite's servers are started (default true). Validation turns it off: the null
   * agent and the reference states make no tool call, so a task whose servers cannot start here is still judged.
   */
  connectServers?: boolean;
}

/** One run of one task instance: a private copy of the state, the task's tools, a kernel, and the verdict. */
export interface Episode {
  readonly task: Task;
  readonly instance: EpisodeInstance;
  /** What the agent is told: the task's instruction (an external instance's own wording for its data). */
  readonly instruction: string;
  readonly endpoints: readonly ToolEndpoint[];
  readonly router: ToolRouter;
  readonly workspaceDir: string;
  /** Every tool call so far, direct or from code, in order. */
  readonly calls: readonly ToolCallRecord[];
  readonly finished: boolean;
  /** Whether code runs in this episode (a kernel was created). */
  readonly hasKernel: boolean;
  /** An external suite's own code tool, offered under DTC and run in the sandbox (see `ReplacedCodeTool`). */
  readonly codeTool?: ReplacedCodeTool;
  /**
   * Validation only (never offered to an agent): writes the suite's reference final state, or a perturbed copy,
   * into this episode's state. Present on external episodes whose suite has a reference state.
   */
  readonly applyReference?: (variant: ReferenceVariant) => Promise<void>;
  /** Why an external episode has no reference state (validation reports it). */
  readonly referenceUnavailable?: string;
  callTool(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<ToolCallResult>;
  execute(code: string, options?: ExecuteOptions): Promise<ExecutionResult>;
  /** Runs ls, find or cat with an argv list inside the sandbox (see `parseTerminalCommand`). */
  runCommand(argv: readonly string[], options?: ExecuteOptions): Promise<ExecutionResult>;
  /** Ends the episode and runs the verifier on the host; a verifier that throws yields reward 0. */
  finish(answer: string): Promise<Verdict>;
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The workspace of a new episode: a kernel's (from the pool or new) when code will run, else a plain folder. */
export async function startEpisodeWorkspace(
  options: Pick<EpisodeOptions, "withKernel" | "pool" | "kernelOptions">,
): Promise<{ kernel: Kernel | undefined; plainWorkspace: TempDir | undefined }> {
  if (options.withKernel) {
    const kernel = options.pool ? await options.pool.acquire() : createKernel(options.kernelOptions);
    return { kernel, plainWorkspace: undefined };
  }
  return { kernel: undefined, plainWorkspace: createTempDir("workspace", scratchDir().dir) };
}

/** What an episode is made of, whatever kind of task it runs: the machinery below is the same for all. */
export interface EpisodeParts {
  task: Task;
  instance: EpisodeInstance;
  /** Default: the task's instruction. */
  instruction?: string;
  kernel: Kernel | undefined;
  workspaceDir: string;
  /** The tools offered to the model (directly, and to programs unless `kernelEndpoints` says otherwise). */
  endpoints: readonly ToolEndpoint[];
  /** The tools a program may call through the proxy (default: `endpoints`). */
  kernelEndpoints?: readonly ToolEndpoint[];
  codeTool?: ReplacedCodeTool;
  applyReference?: (variant: ReferenceVariant) => Promise<void>;
  referenceUnavailable?: string;
  options: Pick<EpisodeOptions, "toolTimeoutMs" | "onCall">;
  /** Stops whatever else can change the state before the verdict (upstream servers), after the program ended. */
  quiesce?: () => Promise<void>;
  /** The verdict, once the program and everything `quiesce` stops have ended. */
  judge(answer: string): Promise<Verdict>;
  /** Releases what the episode owns (state, kernel, workspace, servers); called once. */
  release(): Promise<void>;
}

/**
 * An episode over its parts: the router, calls in flight, one kernel call at a time, and the end by `finish`
 * (calls stopped and answered, the program ended, then the verdict) or `dispose`.
 */
export function assembleEpisode(parts: EpisodeParts): Episode {
  const { task, instance, kernel, workspaceDir, endpoints, options } = parts;
  const calls: ToolCallRecord[] = [];
  const onCall = (record: ToolCallRecord): void => {
    calls.push(record);
    options.onCall?.(record);
  };
  const routerOptions = {
    ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
    onCall,
  };
  const router = createToolRouter(endpoints, routerOptions);
  const kernelRouter =
    parts.kernelEndpoints === undefined ? router : createToolRouter(parts.kernelEndpoints, routerOptions);
  kernel?.setTools(kernelRouter.kernelTools, kernelRouter.handleKernelCall);
  let finished = false;
  let disposed = false;
  // Calls in flight, so that finishing or disposing stops them first and waits for their answers (M3).
  const inFlight = new Set<{ controller: AbortController; done: Promise<unknown> }>();
  // One kernel call at a time, queued here so that a call queued behind one that claim_done stops never starts.
  let kernelQueue: Promise<unknown> = Promise.resolve();

  const assertOpen = (): void => {
    if (finished) {
      throw new ProgAgentError("the episode is over (claim_done was called)", {
        code: ERROR_CODES.EPISODE_FINISHED,
        category: "user",
      });
    }
  };

  const track = <T>(
    work: (signal: AbortSignal) => Promise<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> => {
    const controller = new AbortController();
    const done = work(signal ? AbortSignal.any([signal, controller.signal]) : controller.signal);
    const entry = { controller, done };
    inFlight.add(entry);
    return done.finally(() => inFlight.delete(entry));
  };

  const inKernel = (
    work: (kernel: Kernel, signal: AbortSignal) => Promise<ExecutionResult>,
    signal: AbortSignal | undefined,
  ): Promise<ExecutionResult> => {
    assertOpen();
    if (!kernel) {
      throw new ProgAgentError("this episode was created without a kernel (withKernel: false)", {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "system",
      });
    }
    const owned = kernel;
    const run = track(async (combined) => {
      await kernelQueue;
      return finished ? notRun() : await work(owned, combined);
    }, signal);
    kernelQueue = run.catch(() => undefined);
    return run;
  };

  /** Stops every call in flight (interrupting code) and waits until each has answered. */
  const settleInFlight = async (): Promise<void> => {
    for (const entry of inFlight) entry.controller.abort(new Error("the episode ended"));
    await Promise.allSettled([...inFlight].map((entry) => entry.done));
  };

  const dispose = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    finished = true;
    await settleInFlight();
    await parts.release();
  };

  return {
    task,
    instance,
    instruction: parts.instruction ?? task.instruction,
    endpoints,
    router,
    workspaceDir,
    calls,
    get finished() {
      return finished;
    },
    hasKernel: kernel !== undefined,
    ...(parts.codeTool ? { codeTool: parts.codeTool } : {}),
    ...(parts.applyReference ? { applyReference: parts.applyReference } : {}),
    ...(parts.referenceUnavailable === undefined ? {} : { referenceUnavailable: parts.referenceUnavailable }),
    async callTool(name, args, callOptions = {}) {
      assertOpen();
      return await track(
        (signal) => router.callDirect(name, args, { ...callOptions, signal }),
        callOptions.signal,
      );
    },
    async execute(code, executeOptions = {}) {
      return await inKernel(
        (owned, signal) => owned.execute(code, { ...executeOptions, signal }),
        executeOptions.signal,
      );
    },
    async runCommand(argv, executeOptions = {}) {
      return await inKernel(
        (owned, signal) => owned.runCommand(argv, { ...executeOptions, signal }),
        executeOptions.signal,
      );
    },
    async finish(answer) {
      assertOpen();
      finished = true;
      // Stop the program before judging, so nothing changes the state under the verifier: running calls are
      // interrupted and answered first, then the kernel ends.
      await settleInFlight();
      await kernel?.stop();
      await parts.quiesce?.();
      return await parts.judge(answer);
    },
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

/** The result of code that was queued when the episode ended, and so never ran. */
function notRun(): ExecutionResult {
  const text = "[Not run: the episode ended (claim_done) before this code started.]";
  return {
    text,
    truncated: false,
    status: "timeout",
    stdout: "",
    stderr: "",
    value: null,
    error: null,
    durationMs: 0,
    toolCallCount: 0,
    kernelRestarted: false,
  };
}
