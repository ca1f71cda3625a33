import {
  ERROR_CODES,
  ProgAgentError,
  createTempDir,
  errorMessage,
  scratchDir,
  type TempDir,
} from "../core/index.js";
import { copyImmutableTree } from "./copy-tree.js";
import type { ExecuteOptions, ExecutionResult, Kernel, KernelOptions, KernelPool } from "../kernel/index.js";
import { createKernel } from "../kernel/index.js";
import {
  bindTool,
  createToolRouter,
  type ToolCallRecord,
  type ToolCallResult,
  type ToolEndpoint,
  type ToolRouter,
} from "../runtime/index.js";
import type { ToolContext } from "./define-domain.js";
import type { TaskDefinition, Verdict } from "./define-task.js";
import { openEpisodeState, type EpisodeState } from "./episode-state.js";
import { buildInstance, openStateView, type Instance } from "./instance.js";
import type { Scale } from "./scale.js";
import { WORKSPACE_READ_TOOLS, WORKSPACE_WRITE_TOOL } from "./workspace-tools.js";

export interface EpisodeOptions {
  /** Whether code will run (PTC/Hybrid). Without it no kernel is started and the workspace is a plain directory. */
  withKernel?: boolean;
  pool?: KernelPool;
  kernelOptions?: Omit<KernelOptions, "workspaceDir" | "tools" | "onToolCall">;
  cacheDir?: string;
  toolTimeoutMs?: number;
  onCall?: (record: ToolCallRecord) => void;
}

/** One run of one task instance: a private copy of the state, the task's tools, a kernel, and the verdict. */
export interface Episode {
  readonly task: TaskDefinition;
  readonly instance: Instance;
  readonly endpoints: readonly ToolEndpoint[];
  readonly router: ToolRouter;
  readonly workspaceDir: string;
  /** Every tool call so far, direct or from code, in order. */
  readonly calls: readonly ToolCallRecord[];
  readonly finished: boolean;
  /** Whether code runs in this episode (a kernel was created). */
  readonly hasKernel: boolean;
  callTool(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<ToolCallResult>;
  execute(code: string, options?: ExecuteOptions): Promise<ExecutionResult>;
  /** Runs ls, find or cat with an argv list inside the sandbox (see `parseTerminalCommand`). */
  runCommand(argv: readonly string[], options?: ExecuteOptions): Promise<ExecutionResult>;
  /** Ends the episode and runs the verifier on the host; a verifier that throws yields reward 0. */
  finish(answer: string): Promise<Verdict>;
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The tool definitions a task exposes: its domain tools plus the workspace file tools. */
export function taskToolDefinitions(task: TaskDefinition) {
  const chosen = task.domain.tools.filter((tool) => task.tools.includes(tool.name));
  return [...chosen, ...WORKSPACE_READ_TOOLS, ...(task.workspaceWrite ? [WORKSPACE_WRITE_TOOL] : [])];
}

export async function createEpisode(
  task: TaskDefinition,
  scale: Scale,
  seed: number,
  options: EpisodeOptions = {},
): Promise<Episode> {
  const instance = buildInstance(task, scale, seed, options.cacheDir);
  let kernel: Kernel | undefined;
  let plainWorkspace: TempDir | undefined;
  let state: EpisodeState | undefined;
  try {
    if (options.withKernel) {
      kernel = options.pool ? await options.pool.acquire() : createKernel(options.kernelOptions);
    } else {
      plainWorkspace = createTempDir("workspace", scratchDir().dir);
    }
    const workspaceDir = kernel ? kernel.workspaceDir : plainWorkspace!.path;
    // Off the event loop (tens of files at v3): a burst of episodes opening together pays it in parallel.
    await copyImmutableTree(instance.workspaceDir, workspaceDir);
    // The database never enters the sandbox: a private in-memory copy, or a host-only file when it is large.
    const episodeState = openEpisodeState(instance);
    state = episodeState;
    const { db } = episodeState;
    const context: ToolContext = { db, workspaceDir };
    const endpoints = taskToolDefinitions(task).map((definition) => bindTool(definition, context));
    const calls: ToolCallRecord[] = [];
    const router = createToolRouter(endpoints, {
      ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
      onCall: (record) => {
        calls.push(record);
        options.onCall?.(record);
      },
    });
    kernel?.setTools(router.kernelTools, router.handleKernelCall);
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
      // Removing the copies off the event loop: synchronous removal was a tenth of a DTC evaluation's main thread.
      await Promise.all([episodeState.close(), kernel?.dispose(), plainWorkspace?.disposeAsync()]);
    };

    return {
      task,
      instance,
      endpoints,
      router,
      workspaceDir,
      calls,
      get finished() {
        return finished;
      },
      hasKernel: kernel !== undefined,
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
        return await runVerifier(task, instance, episodeState.finalState(), workspaceDir, answer);
      },
      dispose,
      [Symbol.asyncDispose]: dispose,
    };
  } catch (error) {
    await state?.close();
    await kernel?.dispose();
    plainWorkspace?.dispose();
    throw error;
  }
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

async function runVerifier(
  task: TaskDefinition,
  instance: Instance,
  finalState: Buffer | string,
  workspaceDir: string,
  answer: string,
): Promise<Verdict> {
  const initial = openStateView(instance.dbPath, instance.workspaceDir);
  const final = openStateView(finalState, workspaceDir);
  try {
    const checks = await task.verify({
      initial: initial.view,
      final: final.view,
      answer,
      scale: instance.scale,
      seed: instance.seed,
    });
    const passed = checks.length > 0 && checks.every((item) => item.passed);
    return { reward: passed ? 1 : 0, checks };
  } catch (error) {
    return { reward: 0, checks: [], error: `verifier failed: ${errorMessage(error)}` };
  } finally {
    initial.close();
    final.close();
  }
}
