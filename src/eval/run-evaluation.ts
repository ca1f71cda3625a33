import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import {
  isExternalTask,
  type HarnessMode,
  type InterfaceProfileName,
  type Scale,
  type Task,
  type TaskDefinition,
} from "../envs/index.js";
import { createKernelPool, type KernelOptions, type KernelPool } from "../kernel/index.js";
import {
  createAnthropicClient,
  createOpenAiClient,
  createOraclePolicy,
  createReplaySource,
  createCountingWorker,
  episodeIdOf,
  newRunId,
  recordOracle,
  runAgentEpisode,
  trajectorySchema,
  type AgentLimits,
  type ModelClient,
  type OracleRecording,
  type Trajectory,
} from "../harness/index.js";
import { isModelError } from "./metrics.js";
import { RUN_COST_FILE } from "./run-cost.js";
import {
  RUN_CONFIG_FILE,
  buildRunConfig,
  describeRunConfigDifferences,
  readRunConfig,
  writeRunConfig,
} from "./run-config.js";

/** Makes the model client of one episode. */
export type ClientFactory = (
  task: Task,
  scale: Scale,
  mode: HarnessMode,
  sample: number,
  seed: number,
) => Promise<ModelClient>;

export interface ModelSpecOptions {
  baseUrl?: string;
  /** Name of the environment variable holding the API key. */
  apiKeyEnv?: string;
  requestTimeoutMs?: number;
  pool?: KernelPool;
}

type ModelSpec =
  { kind: "oracle" } | { kind: "replay"; path: string } | { kind: "openai" | "anthropic"; model: string };

function parseModelSpec(spec: string): ModelSpec {
  if (spec === "oracle") return { kind: "oracle" };
  const [kind, ...rest] = spec.split(":");
  const value = rest.join(":");
  if (kind === "replay" && value) return { kind, path: value };
  if ((kind === "openai" || kind === "anthropic") && value) return { kind, model: value };
  throw new ProgAgentError(
    `unknown model '${spec}': expected oracle, replay:<file>, openai:<model> or anthropic:<model>`,
    {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    },
  );
}

/** The endpoint a model spec talks to (null for the built-in policies), as the run configuration records it. */
export function modelBaseUrl(spec: string, options: Pick<ModelSpecOptions, "baseUrl"> = {}): string | null {
  const parsed = parseModelSpec(spec);
  if (parsed.kind === "openai")
    return options.baseUrl ?? process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
  if (parsed.kind === "anthropic") return options.baseUrl ?? "https://api.anthropic.com";
  return null;
}

/** How the clients of a run's episodes are made. */
export interface ClientSource {
  name: string;
  factory: ClientFactory;
  /**
   * Starts the preparation of an episode's client that will be asked for soon (the DTC oracle records its
   * direct calls in a kernel), so that it runs while other episodes use the host. Never throws: a failure
   * surfaces when `factory` is asked for that client.
   */
  prefetch?: (task: Task, scale: Scale, mode: HarnessMode, sample: number, seed: number) => void;
  /** Resolves when every preparation started has ended (a run waits for them before it releases its kernels). */
  settle?: () => Promise<void>;
  /** The remote endpoint's URL (undefined for the built-in policies). */
  endpoint?: string;
  /** One small request that fails fast, naming the endpoint and the cause (remote models only). */
  preflight?: (signal?: AbortSignal) => Promise<void>;
}

/** The client source of a remote model: one client for every episode, checked once before the run. */
function remoteSource(spec: string, client: ModelClient): ClientSource {
  return {
    name: spec,
    factory: async () => client,
    ...(client.endpoint ? { endpoint: client.endpoint } : {}),
    ...(client.preflight ? { preflight: (signal) => client.preflight!(signal) } : {}),
  };
}

/** The refusal of `--model oracle` for tasks without one (external suites ship no reference solutions). */
export function noOracleError(tasks: readonly Task[]): ProgAgentError {
  const ids = tasks.map((task) => task.id);
  const shown = ids.length > 3 ? `${ids.slice(0, 3).join(", ")} and ${ids.length - 3} more` : ids.join(", ");
  return new ProgAgentError(
    `--model oracle cannot run ${shown}: external suites (such as LOCA-bench) have no oracle, their benchmarks ship no reference solutions; evaluate them with --model replay:<trajectories.jsonl> or a model endpoint (openai:<model>, anthropic:<model>), or leave them out with --tasks`,
    { code: ERROR_CODES.INVALID_ARGUMENT, category: "user", details: { tasks: ids } },
  );
}

/** `oracle`, `replay:<file>`, `openai:<model>` (with a base URL) or `anthropic:<model>`. */
export function clientFactoryFor(spec: string, options: ModelSpecOptions = {}): ClientSource {
  const parsed = parseModelSpec(spec);
  if (parsed.kind === "oracle") {
    const recordings = new Map<string, Promise<OracleRecording>>();
    const recording = (task: TaskDefinition, scale: Scale, seed: number): Promise<OracleRecording> => {
      const key = `${task.id}|${scale}|${seed}`;
      let recorded = recordings.get(key);
      if (!recorded) {
        recorded = recordOracle(task, scale, seed, options.pool ? { pool: options.pool } : {});
        // Handled where it is awaited; a prefetched recording nobody asks for (an aborted run) must not go unhandled.
        recorded.catch(() => undefined);
        recordings.set(key, recorded);
      }
      return recorded;
    };
    return {
      name: "oracle",
      factory: async (task, scale, mode, _sample, seed) => {
        if (isExternalTask(task)) throw noOracleError([task]);
        if (mode !== "dtc") return createOraclePolicy(task, mode, undefined);
        return createOraclePolicy(task, mode, await recording(task, scale, seed));
      },
      prefetch: (task, scale, mode, _sample, seed) => {
        if (mode === "dtc" && !isExternalTask(task)) void recording(task, scale, seed);
      },
      settle: async () => {
        await Promise.allSettled([...recordings.values()]);
      },
    };
  }
  if (parsed.kind === "replay") {
    const source = createReplaySource(parsed.path);
    return { name: spec, factory: async (task, scale, mode, sample) => source(task.id, scale, mode, sample) };
  }
  const value = parsed.model;
  if (parsed.kind === "openai") {
    const baseUrl = modelBaseUrl(spec, options)!;
    const apiKey = process.env[options.apiKeyEnv ?? "OPENAI_API_KEY"];
    const client = createOpenAiClient({
      baseUrl,
      model: value,
      ...(apiKey ? { apiKey } : {}),
      ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    });
    return remoteSource(spec, client);
  }
  const apiKey = process.env[options.apiKeyEnv ?? "ANTHROPIC_API_KEY"];
  if (!apiKey)
    throw new ProgAgentError(`set ${options.apiKeyEnv ?? "ANTHROPIC_API_KEY"} to use ${spec}`, {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  const client = createAnthropicClient({
    model: value,
    apiKey,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
  return remoteSource(spec, client);
}

export interface EvaluationPlan {
  tasks: Task[];
  harnesses: HarnessMode[];
  scales: Scale[];
  samples: number;
  seed: number;
}

export interface EvaluationOptions extends EvaluationPlan {
  model: string;
  outDir: string;
  concurrency: number;
  /** Model clients made by the caller instead of from `model` (which still names the run's model). */
  clientFactory?: ClientFactory;
  modelOptions?: Omit<ModelSpecOptions, "pool">;
  limits?: Partial<AgentLimits>;
  kernelOptions?: Omit<KernelOptions, "workspaceDir" | "tools" | "onToolCall" | "timeoutMs">;
  temperature?: number;
  /** Show verifier check messages (expected values) to the model in claim_done's reply: debugging only. */
  revealVerdict?: boolean;
  /** How the meta-tools are presented (recorded in each trajectory when not `default`). */
  interface?: InterfaceProfileName;
  /** Offer `terminal` (ls, find, cat in the workspace); default: the profile's choice. */
  terminal?: boolean;
  /** Start over in a directory that holds an earlier run (its episodes, configuration and reports are removed). */
  forceNew?: boolean;
  /** Check a remote endpoint with one small request before the first episode (`eval` does; default false). */
  preflight?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: { done: number; total: number; skipped: number; last?: Trajectory }) => void;
}

export interface EvaluationOutcome {
  runId: string;
  total: number;
  ran: number;
  skipped: number;
  /** Episodes of an earlier attempt that had ended with a model error and were run again. */
  retried: number;
  /** Episodes of this run that ended with a model error (the endpoint failed): errors, not failures. */
  modelErrors: Array<{ episodeId: string; error: string }>;
  /**
   * Episodes of external tasks whose environment could not start (an instance that failed to generate, a server
   * that did not start): no trajectory is written, so a resume runs them again; the other episodes run on.
   */
  environmentErrors: Array<{ episodeId: string; error: string }>;
  /** External tasks that cannot run here (a server that is not installed), with the reason: left out of the run. */
  skippedTasks: Array<{ task: string; reason: string }>;
  trajectoriesPath: string;
}

/** Where a resume sets aside the lines it runs again: model errors and lines cut short by an interrupted run. */
export const RETRIED_FILE = "retried.jsonl";
const RUN_FILES = [
  "trajectories.jsonl",
  RUN_CONFIG_FILE,
  RETRIED_FILE,
  "results.json",
  "report.md",
  "report.html",
  RUN_COST_FILE,
];

/**
 * The episodes already recorded in a trajectories file (for resuming): `ids` of those that need no re-run,
 * and `setAside`, the lines that do (episodes that ended with a model error, lines cut short).
 */
export function finishedEpisodes(path: string): {
  runId: string | undefined;
  ids: Set<string>;
  kept: string[];
  setAside: string[];
  modelErrors: number;
} {
  const ids = new Set<string>();
  const kept: string[] = [];
  const setAside: string[] = [];
  let modelErrors = 0;
  let runId: string | undefined;
  if (!existsSync(path)) return { runId, ids, kept, setAside, modelErrors };
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim().length === 0) continue;
    let parsed;
    try {
      parsed = trajectorySchema.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined; // a line cut short by an interrupted run is simply run again
    }
    if (!parsed?.success || ids.has(parsed.data.episodeId)) {
      setAside.push(line);
      continue;
    }
    runId = parsed.data.runId;
    if (isModelError(parsed.data)) {
      modelErrors += 1;
      setAside.push(line);
      continue;
    }
    ids.add(parsed.data.episodeId);
    kept.push(line);
  }
  return { runId, ids, kept, setAside, modelErrors };
}

/** Refuses to mix runs: a directory's recorded configuration must equal this run's (or forceNew starts over). */
function prepareRunDirectory(options: EvaluationOptions, trajectoriesPath: string): void {
  mkdirSync(options.outDir, { recursive: true });
  if (options.forceNew) for (const file of RUN_FILES) rmSync(join(options.outDir, file), { force: true });
  const current = buildRunConfig({
    model: options.model,
    baseUrl: modelBaseUrl(options.model, options.modelOptions),
    harnesses: options.harnesses,
    scales: options.scales,
    taskIds: options.tasks.map((task) => task.id),
    samples: options.samples,
    seed: options.seed,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.kernelOptions ? { kernelOptions: options.kernelOptions } : {}),
    ...(options.interface ? { interface: options.interface } : {}),
    ...(options.terminal ? { terminal: true } : {}),
    ...(options.revealVerdict ? { revealVerdict: true } : {}),
  });
  const recorded = readRunConfig(options.outDir);
  if (recorded) {
    const differences = describeRunConfigDifferences(recorded, current);
    if (differences.length > 0)
      throw new ProgAgentError(
        `${options.outDir} holds a run with a different configuration (${differences.join("; ")}): resume with the same options, choose another output directory, or start over with --force-new`,
        {
          code: ERROR_CODES.RUN_CONFIG_MISMATCH,
          category: "user",
          details: { outDir: options.outDir, differences },
        },
      );
    return;
  }
  if (existsSync(trajectoriesPath) && readFileSync(trajectoriesPath, "utf8").trim() !== "")
    throw new ProgAgentError(
      `${options.outDir} holds episodes but no ${RUN_CONFIG_FILE} (written by an older progagent), so a resume cannot tell whether they match this configuration: choose another output directory or start over with --force-new`,
      { code: ERROR_CODES.RUN_CONFIG_MISMATCH, category: "user", details: { outDir: options.outDir } },
    );
  writeRunConfig(options.outDir, current);
}

/** Moves the lines a resume runs again out of trajectories.jsonl (atomically), so that each episode has one line. */
function setAsideForRetry(
  outDir: string,
  trajectoriesPath: string,
  kept: string[],
  setAside: string[],
): void {
  if (setAside.length === 0) return;
  appendFileSync(join(outDir, RETRIED_FILE), `${setAside.join("\n")}\n`);
  const temporary = `${trajectoriesPath}.${process.pid}.tmp`;
  writeFileSync(temporary, kept.length === 0 ? "" : `${kept.join("\n")}\n`);
  renameSync(temporary, trajectoriesPath);
}

/** The preflight of a remote model: its failure ends the run before any episode, naming the endpoint. */
async function checkEndpoint(source: ClientSource, signal: AbortSignal | undefined): Promise<void> {
  try {
    await source.preflight!(signal);
  } catch (error) {
    const category = error instanceof ProgAgentError ? error.category : "upstream";
    throw new ProgAgentError(
      `the model endpoint failed its check before the run (no episode was run): ${errorMessage(error)}`,
      {
        code: ERROR_CODES.MODEL_REQUEST_FAILED,
        category,
        cause: error,
        details: { endpoint: source.endpoint ?? null },
      },
    );
  }
}

/** An external suite's environment that failed to start: that episode's problem, not the run's. */
function isEnvironmentFailure(error: unknown): boolean {
  return error instanceof ProgAgentError && error.code === ERROR_CODES.EXTERNAL_ENVIRONMENT_FAILED;
}

/**
 * Runs every task x scale x harness x sample episode, appending one trajectory line per finished episode
 * to `<outDir>/trajectories.jsonl`. Re-running with the same directory skips finished episodes.
 */
export async function runEvaluation(options: EvaluationOptions): Promise<EvaluationOutcome> {
  const withoutOracle = options.tasks.filter(isExternalTask);
  if (options.model === "oracle" && !options.clientFactory && withoutOracle.length > 0)
    throw noOracleError(withoutOracle);
  const trajectoriesPath = join(options.outDir, "trajectories.jsonl");
  prepareRunDirectory(options, trajectoriesPath);
  const previous = finishedEpisodes(trajectoriesPath);
  setAsideForRetry(options.outDir, trajectoriesPath, previous.kept, previous.setAside);
  const runId = previous.runId ?? newRunId();
  const jobs: Array<{ task: Task; scale: Scale; mode: HarnessMode; sample: number }> = [];
  const skippedTasks = options.tasks.flatMap((task) =>
    isExternalTask(task) && task.skipped !== undefined ? [{ task: task.id, reason: task.skipped }] : [],
  );
  for (const task of options.tasks.filter((task) => !isExternalTask(task) || task.skipped === undefined))
    for (const scale of options.scales)
      for (const mode of options.harnesses)
        for (let sample = 0; sample < options.samples; sample += 1) jobs.push({ task, scale, mode, sample });
  const pending = jobs.filter(
    (job) => !previous.ids.has(episodeIdOf(job.task.id, job.scale, job.mode, job.sample)),
  );
  const skipped = jobs.length - pending.length;
  const needsKernel = options.harnesses.some((mode) => mode !== "dtc") || options.terminal === true;
  const pool = createKernelPool({
    size: needsKernel ? Math.min(options.concurrency, 4) : 0,
    kernel: options.kernelOptions ?? {},
  });
  const source: ClientSource = options.clientFactory
    ? { name: options.model, factory: options.clientFactory }
    : clientFactoryFor(options.model, { ...options.modelOptions, pool });
  const factory = source.factory;
  // Counts run in a worker thread beside the tool calls and verifiers of this one (a DTC run's main thread had
  // spent a quarter of its time rendering and tokenising).
  const tokenCounter = createCountingWorker();
  let done = 0;
  let cursor = 0;
  const modelErrors: EvaluationOutcome["modelErrors"] = [];
  const environmentErrors: EvaluationOutcome["environmentErrors"] = [];
  // A DTC oracle episode first records the oracle's program in a kernel (mostly waiting for the interpreter),
  // then replays it on the host (mostly busy): recording the next episodes ahead overlaps the two. Measured on
  // the DTC slice of bench/scale/eval.ts, workers waited 38 s in all for recordings one round ahead, 23 s two
  // rounds ahead.
  const lookahead = 2 * Math.max(1, options.concurrency);
  let prefetched = 0;
  const prefetchAhead = (): void => {
    if (!source.prefetch) return;
    prefetched = Math.max(prefetched, cursor);
    while (prefetched < Math.min(pending.length, cursor + lookahead)) {
      const job = pending[prefetched++]!;
      source.prefetch(job.task, job.scale, job.mode, job.sample, options.seed);
    }
  };
  options.onProgress?.({ done, total: pending.length, skipped });
  const worker = async (): Promise<void> => {
    while (cursor < pending.length && !options.signal?.aborted) {
      const job = pending[cursor++]!;
      prefetchAhead();
      let trajectory: Trajectory;
      try {
        const client = await factory(job.task, job.scale, job.mode, job.sample, options.seed);
        trajectory = await runAgentEpisode({
          task: job.task,
          scale: job.scale,
          seed: options.seed,
          mode: job.mode,
          client,
          runId,
          sample: job.sample,
          pool,
          tokenCounter,
          ...(options.limits ? { limits: options.limits } : {}),
          ...(options.kernelOptions ? { kernelOptions: options.kernelOptions } : {}),
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.revealVerdict ? { revealVerdict: true } : {}),
          ...(options.interface ? { interface: options.interface } : {}),
          ...(options.terminal === undefined ? {} : { terminal: options.terminal }),
        });
      } catch (error) {
        const episodeId = episodeIdOf(job.task.id, job.scale, job.mode, job.sample);
        if (isEnvironmentFailure(error)) {
          environmentErrors.push({ episodeId, error: errorMessage(error) });
          done += 1;
          options.onProgress?.({ done, total: pending.length, skipped });
          continue;
        }
        throw new ProgAgentError(`episode ${episodeId} could not run: ${errorMessage(error)}`, {
          code: "EPISODE_FAILED",
          category: "system",
          cause: error,
        });
      }
      if (options.signal?.aborted) return;
      appendFileSync(trajectoriesPath, `${JSON.stringify(trajectory)}\n`);
      if (isModelError(trajectory))
        modelErrors.push({ episodeId: trajectory.episodeId, error: trajectory.error ?? "model error" });
      done += 1;
      options.onProgress?.({ done, total: pending.length, skipped, last: trajectory });
    }
  };
  try {
    if (source.preflight && pending.length > 0 && options.preflight === true)
      await checkEndpoint(source, options.signal);
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, () => worker()));
  } finally {
    await source.settle?.();
    await tokenCounter.close();
    await pool.dispose();
  }
  return {
    runId,
    total: jobs.length,
    ran: done,
    skipped,
    retried: previous.modelErrors,
    modelErrors,
    environmentErrors,
    skippedTasks,
    trajectoriesPath,
  };
}
