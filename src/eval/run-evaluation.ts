import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import type { HarnessMode, Scale, TaskDefinition } from "../envs/index.js";
import { createKernelPool, type KernelOptions, type KernelPool } from "../kernel/index.js";
import {
  createAnthropicClient,
  createOpenAiClient,
  createOraclePolicy,
  createReplaySource,
  createTokenCounter,
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

/** Makes the model client of one episode. */
export type ClientFactory = (
  task: TaskDefinition,
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

/** `oracle`, `replay:<file>`, `openai:<model>` (with a base URL) or `anthropic:<model>`. */
export function clientFactoryFor(
  spec: string,
  options: ModelSpecOptions = {},
): { name: string; factory: ClientFactory } {
  if (spec === "oracle") {
    const recordings = new Map<string, Promise<OracleRecording>>();
    return {
      name: "oracle",
      factory: async (task, scale, mode, _sample, seed) => {
        if (mode !== "dtc") return createOraclePolicy(task, mode, undefined);
        const key = `${task.id}|${scale}|${seed}`;
        let recording = recordings.get(key);
        if (!recording) {
          recording = recordOracle(task, scale, seed, options.pool ? { pool: options.pool } : {});
          recordings.set(key, recording);
        }
        return createOraclePolicy(task, mode, await recording);
      },
    };
  }
  const [kind, ...rest] = spec.split(":");
  const value = rest.join(":");
  if (kind === "replay" && value) {
    const source = createReplaySource(value);
    return { name: spec, factory: async (task, scale, mode, sample) => source(task.id, scale, mode, sample) };
  }
  if (kind === "openai" && value) {
    const baseUrl = options.baseUrl ?? process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
    const apiKey = process.env[options.apiKeyEnv ?? "OPENAI_API_KEY"];
    const client = createOpenAiClient({
      baseUrl,
      model: value,
      ...(apiKey ? { apiKey } : {}),
      ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    });
    return { name: spec, factory: async () => client };
  }
  if (kind === "anthropic" && value) {
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
    return { name: spec, factory: async () => client };
  }
  throw new ProgAgentError(
    `unknown model '${spec}': expected oracle, replay:<file>, openai:<model> or anthropic:<model>`,
    {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    },
  );
}

export interface EvaluationPlan {
  tasks: TaskDefinition[];
  harnesses: HarnessMode[];
  scales: Scale[];
  samples: number;
  seed: number;
}

export interface EvaluationOptions extends EvaluationPlan {
  model: string;
  outDir: string;
  concurrency: number;
  modelOptions?: Omit<ModelSpecOptions, "pool">;
  limits?: Partial<AgentLimits>;
  kernelOptions?: Omit<KernelOptions, "workspaceDir" | "tools" | "onToolCall" | "timeoutMs">;
  temperature?: number;
  /** Show verifier check messages (expected values) to the model in claim_done's reply: debugging only. */
  revealVerdict?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: { done: number; total: number; skipped: number; last?: Trajectory }) => void;
}

export interface EvaluationOutcome {
  runId: string;
  total: number;
  ran: number;
  skipped: number;
  trajectoriesPath: string;
}

/** The ids of episodes already recorded in a trajectories file (for resuming). */
export function finishedEpisodes(path: string): { runId: string | undefined; ids: Set<string> } {
  const ids = new Set<string>();
  let runId: string | undefined;
  if (!existsSync(path)) return { runId, ids };
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim().length === 0) continue;
    try {
      const parsed = trajectorySchema.safeParse(JSON.parse(line));
      if (parsed.success) {
        ids.add(parsed.data.episodeId);
        runId = parsed.data.runId;
      }
    } catch {
      // a line cut short by an interrupted run is simply run again
    }
  }
  return { runId, ids };
}

/**
 * Runs every task x scale x harness x sample episode, appending one trajectory line per finished episode
 * to `<outDir>/trajectories.jsonl`. Re-running with the same directory skips finished episodes.
 */
export async function runEvaluation(options: EvaluationOptions): Promise<EvaluationOutcome> {
  mkdirSync(options.outDir, { recursive: true });
  const trajectoriesPath = join(options.outDir, "trajectories.jsonl");
  const previous = finishedEpisodes(trajectoriesPath);
  const runId = previous.runId ?? newRunId();
  const jobs: Array<{ task: TaskDefinition; scale: Scale; mode: HarnessMode; sample: number }> = [];
  for (const task of options.tasks)
    for (const scale of options.scales)
      for (const mode of options.harnesses)
        for (let sample = 0; sample < options.samples; sample += 1) jobs.push({ task, scale, mode, sample });
  const pending = jobs.filter(
    (job) => !previous.ids.has(episodeIdOf(job.task.id, job.scale, job.mode, job.sample)),
  );
  const skipped = jobs.length - pending.length;
  const needsKernel = options.harnesses.some((mode) => mode !== "dtc");
  const pool = createKernelPool({
    size: needsKernel ? Math.min(options.concurrency, 4) : 0,
    kernel: options.kernelOptions ?? {},
  });
  const { factory } = clientFactoryFor(options.model, { ...options.modelOptions, pool });
  const tokenCounter = createTokenCounter();
  let done = 0;
  let cursor = 0;
  options.onProgress?.({ done, total: pending.length, skipped });
  const worker = async (): Promise<void> => {
    while (cursor < pending.length && !options.signal?.aborted) {
      const job = pending[cursor++]!;
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
        });
      } catch (error) {
        throw new ProgAgentError(
          `episode ${episodeIdOf(job.task.id, job.scale, job.mode, job.sample)} could not run: ${errorMessage(error)}`,
          {
            code: "EPISODE_FAILED",
            category: "system",
            cause: error,
          },
        );
      }
      if (options.signal?.aborted) return;
      appendFileSync(trajectoriesPath, `${JSON.stringify(trajectory)}\n`);
      done += 1;
      options.onProgress?.({ done, total: pending.length, skipped, last: trajectory });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, () => worker()));
  } finally {
    await pool.dispose();
  }
  return { runId, total: jobs.length, ran: done, skipped, trajectoriesPath };
}
