import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import type { KernelPool } from "../kernel/index.js";
import {
  harnessModeSchema,
  interfaceProfile,
  interfaceProfileNameSchema,
  scaleSchema,
  type EpisodeDriver,
  type EpisodeOptions,
  type HarnessMode,
  type InterfaceProfileName,
  type Scale,
  type TaskDefinition,
} from "../envs/index.js";
import { openAgentEpisode, type ChatMessage } from "../harness/index.js";
import { parseToolCalls, type ParsedToolCall } from "./parse-tool-calls.js";
import type { ChatRenderer } from "../chat-template/index.js";
import { episodeTokenRenderer, type EpisodeTokenRenderer } from "./rollout-renderer.js";

/** `POST /v1/episodes` */
export const createEpisodeBodySchema = z.object({
  task: z.string().min(1),
  scale: scaleSchema,
  seed: z.number().int().min(0).optional(),
  mode: harnessModeSchema,
  render: z
    .object({ tokenizer: z.string().min(1).optional(), enable_thinking: z.boolean().optional() })
    .optional(),
  /** Offer `terminal{command}` (ls, find, cat in the workspace); default: the interface profile's choice. */
  terminal: z.boolean().optional(),
  /** How the meta-tools are presented: progagent's own (`default`) or as the paper's runtime did (`paper`). */
  interface: interfaceProfileNameSchema.optional(),
});
export type CreateEpisodeBody = z.infer<typeof createEpisodeBodySchema>;

/** `POST /v1/episodes/{id}/tool_calls` */
export const toolCallsBodySchema = z.object({
  calls: z
    .array(
      z.object({
        id: z.string().optional(),
        name: z.string().min(1),
        arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
      }),
    )
    .min(1)
    .max(64),
});
export type ToolCallsBody = z.infer<typeof toolCallsBodySchema>;

/** `POST /v1/tokenize` and `/v1/detokenize`: the service's own tokenizer, for trainers and debugging. */
export const tokenizeBodySchema = z
  .object({ text: z.string(), tokenizer: z.string().min(1).optional() })
  .strict();
export const detokenizeBodySchema = z
  .object({
    token_ids: z.array(z.number().int().min(0)).max(1_000_000),
    tokenizer: z.string().min(1).optional(),
  })
  .strict();

/** `POST /v1/episodes/{id}/completion`: exactly one of text and token_ids. */
export const completionBodySchema = z.union([
  z.object({ text: z.string() }).strict(),
  z.object({ token_ids: z.array(z.number().int().min(0)).max(1_000_000) }).strict(),
]);
export type CompletionBody = z.infer<typeof completionBodySchema>;

export interface RolloutLimits {
  /** Deadline of one code execution or tool call; unset: the interface profile's training deadline (paper: 10 s). */
  executionTimeoutMs: number | undefined;
  /** Tool calls per episode; the next one ends it with `max_tool_calls`. */
  maxToolCalls: number;
  /** Wall clock per episode from creation; afterwards every step answers `done` with `wall_clock`. */
  episodeWallClockMs: number;
  /** An episode without a request for this long is ended and released. */
  idleTimeoutMs: number;
}

export const DEFAULT_ROLLOUT_LIMITS: RolloutLimits = {
  executionTimeoutMs: undefined,
  maxToolCalls: 100,
  episodeWallClockMs: 30 * 60_000,
  idleTimeoutMs: 10 * 60_000,
};

export interface RolloutServiceOptions {
  loadTask(id: string): Promise<TaskDefinition | undefined>;
  /** The chat renderer of a tokenizer folder (undefined: the default Qwen3); asked once per folder. */
  createRenderer?(tokenizer: string | undefined): Promise<ChatRenderer>;
  /**
   * The tokenizer names a request may give (`render.tokenizer`, `tokenizer` of /v1/tokenize); any other is
   * refused before `createRenderer` sees it, so a client cannot make the service read host folders. Omitted:
   * requests may only use the default tokenizer.
   */
  tokenizers?: readonly string[];
  maxEpisodes?: number;
  limits?: Partial<RolloutLimits>;
  pool?: KernelPool;
  cacheDir?: string;
  kernelOptions?: EpisodeOptions["kernelOptions"];
  /** Offer `terminal` in every episode unless the request says otherwise. */
  terminal?: boolean;
  /** The interface profile of episodes that do not name one. */
  interface?: InterfaceProfileName;
}

export interface ToolResultBody {
  tool_call_id: string;
  name: string;
  content: string;
  is_error: boolean;
}

export interface StepAnswer {
  results: ToolResultBody[];
  done: boolean;
  reward?: number;
  checks?: Array<{ id: string; passed: boolean }>;
  end_reason?: string;
  parsed_calls?: Array<{ id: string; name: string; arguments: Record<string, unknown>; format: string }>;
  parse_errors?: string[];
  observation_token_ids?: number[];
}

export type EndReason =
  | "claim_done"
  | "max_tool_calls"
  | "no_tool_calls"
  | "wall_clock"
  | "idle_timeout"
  | "deleted"
  | "service_shutdown";

interface LiveEpisode {
  id: string;
  task: TaskDefinition;
  scale: Scale;
  seed: number;
  mode: HarnessMode;
  driver: EpisodeDriver;
  messages: ChatMessage[];
  renderer: EpisodeTokenRenderer | undefined;
  createdAt: number;
  lastActiveAt: number;
  /** Serialises requests of one episode: a trainer may retry, a step must never interleave with another. */
  queue: Promise<unknown>;
  endReason: EndReason | undefined;
  reward: number | undefined;
  turns: number;
}

export interface RolloutServiceStats {
  live: number;
  created: number;
  finished: number;
  rejected: number;
  toolCalls: number;
  rewardSum: number;
  rewardCount: number;
  rewardsByValue: Map<string, number>;
  endReasons: Map<string, number>;
  /** Step latencies in seconds, bucketed for the Prometheus histogram. */
  stepLatency: { buckets: number[]; counts: number[]; sum: number; count: number };
}

const LATENCY_BUCKETS_S = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface RolloutService {
  readonly limits: RolloutLimits;
  readonly maxEpisodes: number;
  readonly stats: RolloutServiceStats;
  create(body: CreateEpisodeBody): Promise<Record<string, unknown>>;
  toolCalls(id: string, body: ToolCallsBody): Promise<StepAnswer>;
  completion(id: string, body: CompletionBody): Promise<StepAnswer>;
  describe(id: string): Record<string, unknown>;
  tokenize(text: string, tokenizer?: string): Promise<number[]>;
  detokenize(tokenIds: readonly number[], tokenizer?: string): Promise<string>;
  remove(id: string): Promise<void>;
  /** Ends idle and over-time episodes; runs on a timer, exposed for tests. */
  reap(now?: number): Promise<number>;
  dispose(): Promise<void>;
}

export class RolloutError extends ProgAgentError {
  constructor(
    message: string,
    readonly status: number,
    code: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message, { code, category: status >= 500 ? "system" : "user" });
  }
}

export function createRolloutService(options: RolloutServiceOptions): RolloutService {
  const limits: RolloutLimits = { ...DEFAULT_ROLLOUT_LIMITS, ...options.limits };
  const maxEpisodes = options.maxEpisodes ?? 1024;
  const episodes = new Map<string, LiveEpisode>();
  const renderers = new Map<string, Promise<ChatRenderer>>();
  let reserved = 0;
  let disposed = false;
  const stats: RolloutServiceStats = {
    live: 0,
    created: 0,
    finished: 0,
    rejected: 0,
    toolCalls: 0,
    rewardSum: 0,
    rewardCount: 0,
    rewardsByValue: new Map(),
    endReasons: new Map(),
    stepLatency: { buckets: LATENCY_BUCKETS_S, counts: LATENCY_BUCKETS_S.map(() => 0), sum: 0, count: 0 },
  };

  const observeLatency = (seconds: number): void => {
    const histogram = stats.stepLatency;
    histogram.sum += seconds;
    histogram.count += 1;
    const index = histogram.buckets.findIndex((bound) => seconds <= bound);
    if (index >= 0) histogram.counts[index] = (histogram.counts[index] ?? 0) + 1;
  };

  const rendererFor = (tokenizer: string | undefined): Promise<ChatRenderer> => {
    if (!options.createRenderer)
      throw new RolloutError(
        "this service has no token renderer; create episodes without `render`",
        400,
        ERROR_CODES.INVALID_ARGUMENT,
      );
    if (tokenizer !== undefined && !(options.tokenizers ?? []).includes(tokenizer))
      throw new RolloutError(
        `tokenizer ${JSON.stringify(tokenizer)} is not served here; served: the default${(options.tokenizers ?? []).map((name) => `, ${JSON.stringify(name)}`).join("")} (rollout serve --tokenizer <folder> adds one)`,
        400,
        ERROR_CODES.INVALID_ARGUMENT,
      );
    const key = tokenizer ?? "";
    let renderer = renderers.get(key);
    if (!renderer) {
      renderer = options.createRenderer(tokenizer);
      renderers.set(key, renderer);
      renderer.catch(() => renderers.delete(key));
    }
    return renderer;
  };

  const lookup = (id: string): LiveEpisode => {
    const episode = episodes.get(id);
    if (!episode)
      throw new RolloutError(
        `no live episode '${id}' (it ended, was reaped after ${limits.idleTimeoutMs / 1000} s idle, or never existed)`,
        404,
        ERROR_CODES.EPISODE_NOT_FOUND,
      );
    return episode;
  };

  const finish = (episode: LiveEpisode, reason: EndReason, reward: number): void => {
    if (episode.endReason !== undefined) return;
    episode.endReason = reason;
    episode.reward = reward;
    stats.finished += 1;
    stats.rewardSum += reward;
    stats.rewardCount += 1;
    stats.rewardsByValue.set(String(reward), (stats.rewardsByValue.get(String(reward)) ?? 0) + 1);
    stats.endReasons.set(reason, (stats.endReasons.get(reason) ?? 0) + 1);
  };

  const release = async (episode: LiveEpisode, reason: EndReason): Promise<void> => {
    if (!episodes.delete(episode.id)) return;
    stats.live = episodes.size;
    finish(episode, reason, episode.reward ?? 0);
    await episode.driver.dispose().catch(() => undefined);
  };

  /** Runs `step` after every earlier request of the episode; measures it; applies the wall clock. */
  const serialised = async <T>(episode: LiveEpisode, step: () => Promise<T>): Promise<T> => {
    const run = episode.queue.then(async () => {
      const started = performance.now();
      episode.lastActiveAt = Date.now();
      try {
        return await step();
      } finally {
        episode.lastActiveAt = Date.now();
        observeLatency((performance.now() - started) / 1000);
      }
    });
    episode.queue = run.catch(() => undefined);
    return await run;
  };

  const overAnswer = (episode: LiveEpisode, results: ToolResultBody[] = []): StepAnswer => ({
    results,
    done: true,
    reward: episode.reward ?? 0,
    ...(episode.driver.verdict
      ? { checks: episode.driver.verdict.checks.map((check) => ({ id: check.id, passed: check.passed })) }
      : {}),
    end_reason: episode.endReason ?? "claim_done",
  });

  const runCalls = async (
    episode: LiveEpisode,
    calls: Array<{ id: string; name: string; arguments: unknown }>,
  ): Promise<StepAnswer> => {
    const results: ToolResultBody[] = [];
    const deadline = AbortSignal.timeout(
      Math.max(1, episode.createdAt + limits.episodeWallClockMs - Date.now()),
    );
    for (const call of calls) {
      if (episode.endReason !== undefined) break;
      if (deadline.aborted) {
        finish(episode, "wall_clock", 0);
        break;
      }
      const outcome = await episode.driver.call(call.name, call.arguments, { signal: deadline });
      stats.toolCalls += 1;
      results.push({
        tool_call_id: call.id,
        name: call.name,
        content: outcome.text,
        is_error: outcome.result.isError === true,
      });
      episode.messages.push({ role: "tool", tool_call_id: call.id, content: outcome.text });
      if (outcome.endReason === "claim_done") finish(episode, "claim_done", outcome.verdict?.reward ?? 0);
      else if (outcome.endReason === "max_tool_calls") finish(episode, "max_tool_calls", 0);
    }
    if (episode.endReason !== undefined) return overAnswer(episode, results);
    return { results, done: false };
  };

  const withObservation = async (
    episode: LiveEpisode,
    answer: StepAnswer,
    toolMessages: ChatMessage[],
    generatedTokenIds: readonly number[],
  ): Promise<StepAnswer> => {
    if (!episode.renderer || answer.done) return answer;
    return {
      ...answer,
      observation_token_ids: episode.renderer.observationTokenIds(
        toolMessages,
        episode.driver.functionTools(),
        generatedTokenIds,
      ),
    };
  };

  const reap = async (now = Date.now()): Promise<number> => {
    const stale = [...episodes.values()].filter(
      (episode) =>
        now - episode.lastActiveAt > limits.idleTimeoutMs ||
        now - episode.createdAt > limits.episodeWallClockMs + limits.idleTimeoutMs,
    );
    await Promise.all(stale.map((episode) => release(episode, "idle_timeout")));
    return stale.length;
  };
  const reaper = setInterval(() => void reap(), Math.min(30_000, Math.max(1_000, limits.idleTimeoutMs / 4)));
  reaper.unref();

  return {
    limits,
    maxEpisodes,
    stats,

    async create(body) {
      if (disposed)
        throw new RolloutError("the service is shutting down", 503, ERROR_CODES.SERVICE_CLOSED, 1);
      if (episodes.size + reserved >= maxEpisodes) {
        stats.rejected += 1;
        throw new RolloutError(
          `the service holds its maximum of ${maxEpisodes} live episodes; retry later or end finished episodes with DELETE`,
          429,
          ERROR_CODES.SERVICE_FULL,
          1,
        );
      }
      const task = await options.loadTask(body.task).catch((error: unknown) => {
        if (
          error instanceof ProgAgentError &&
          error.code === ERROR_CODES.TASK_NOT_FOUND &&
          error.category === "user"
        )
          return undefined;
        throw error;
      });
      if (!task)
        throw new RolloutError(
          `unknown task '${body.task}'; GET /v1/tasks lists them`,
          404,
          ERROR_CODES.TASK_NOT_FOUND,
        );
      reserved += 1;
      try {
        const renderer = body.render
          ? episodeTokenRenderer(await rendererFor(body.render.tokenizer), body.render.enable_thinking)
          : undefined;
        const seed = body.seed ?? 0;
        const profile = interfaceProfile(body.interface ?? options.interface ?? "default");
        const terminal = body.terminal ?? options.terminal ?? profile.terminalByDefault;
        const timeoutMs = limits.executionTimeoutMs ?? profile.executionTimeoutMs.training;
        const { driver, tools, messages } = await openAgentEpisode({
          task,
          scale: body.scale,
          seed,
          mode: body.mode,
          executionTimeoutMs: timeoutMs,
          maxToolCalls: limits.maxToolCalls,
          terminal,
          interface: profile.name,
          ...(options.pool ? { pool: options.pool } : {}),
          ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
          ...(options.kernelOptions ? { kernelOptions: options.kernelOptions } : {}),
        });
        const id = `ep-${randomUUID()}`;
        const now = Date.now();
        const live: LiveEpisode = {
          id,
          task,
          scale: body.scale,
          seed,
          mode: body.mode,
          driver,
          messages,
          renderer,
          createdAt: now,
          lastActiveAt: now,
          queue: Promise.resolve(),
          endReason: undefined,
          reward: undefined,
          turns: 0,
        };
        episodes.set(id, live);
        stats.created += 1;
        stats.live = episodes.size;
        return {
          episode_id: id,
          task: task.id,
          scale: body.scale,
          seed,
          mode: body.mode,
          interface: profile.name,
          terminal,
          messages: messages.map((message) => ({ ...message })),
          tools,
          limits: {
            execution_timeout_s: timeoutMs / 1000,
            max_tool_calls: limits.maxToolCalls,
            episode_wall_clock_s: limits.episodeWallClockMs / 1000,
            idle_timeout_s: limits.idleTimeoutMs / 1000,
          },
          ...(renderer ? { prompt_token_ids: renderer.promptTokenIds(messages, tools) } : {}),
        };
      } finally {
        reserved -= 1;
      }
    },

    async toolCalls(id, body) {
      const episode = lookup(id);
      return await serialised(episode, async () => {
        if (episode.endReason !== undefined) return overAnswer(episode);
        const calls = body.calls.map((call, index) => ({
          id: call.id ?? `call_${episode.turns}_${index}`,
          name: call.name,
          arguments: call.arguments ?? {},
        }));
        episode.messages.push({
          role: "assistant",
          content: "",
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function" as const,
            function: {
              name: call.name,
              arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
            },
          })),
        });
        episode.turns += 1;
        return await runCalls(episode, calls);
      });
    },

    async completion(id, body) {
      const episode = lookup(id);
      return await serialised(episode, async () => {
        if (episode.endReason !== undefined) return overAnswer(episode);
        let text: string;
        let generated: readonly number[] | undefined;
        if ("token_ids" in body) {
          if (!episode.renderer)
            throw new RolloutError(
              "token_ids need an episode created with `render`; send {text} instead",
              400,
              ERROR_CODES.INVALID_ARGUMENT,
            );
          text = episode.renderer.decode(body.token_ids);
          generated = body.token_ids;
        } else {
          text = body.text;
        }
        const schemas = new Map(episode.driver.tools.map((spec) => [spec.name, spec.inputSchema]));
        const parsed = parseToolCalls(text, (name) => parameterTypes(schemas.get(name)));
        episode.turns += 1;
        const calls = parsed.calls.map((call: ParsedToolCall, index) => ({
          id: `call_${episode.turns}_${index}`,
          name: call.name,
          arguments: call.arguments,
          argumentsText: call.argumentsText,
          format: call.format,
        }));
        episode.messages.push({
          role: "assistant",
          content: parsed.content,
          ...(parsed.reasoning ? { reasoning_content: parsed.reasoning } : {}),
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: "function" as const,
                  function: { name: call.name, arguments: call.argumentsText },
                })),
              }
            : {}),
        });
        const parsedCalls = calls.map(({ id: callId, name, arguments: args, format }) => ({
          id: callId,
          name,
          arguments: args,
          format,
        }));
        const before = episode.messages.length;
        if (calls.length === 0 && parsed.errors.length === 0) {
          finish(episode, "no_tool_calls", 0);
          return { ...overAnswer(episode), parsed_calls: [] };
        }
        const answer = await runCalls(episode, calls);
        if (parsed.errors.length > 0 && !answer.done) {
          const content = `Error: your tool call could not be parsed: ${parsed.errors.join("; ")}`;
          answer.results.push({ tool_call_id: "parse_error", name: "", content, is_error: true });
          episode.messages.push({ role: "tool", tool_call_id: "parse_error", content });
        }
        const observation = await withObservation(
          episode,
          answer,
          episode.messages.slice(before),
          generated ?? episode.renderer?.encode(text) ?? [],
        );
        return {
          ...observation,
          parsed_calls: parsedCalls,
          ...(parsed.errors.length > 0 ? { parse_errors: parsed.errors } : {}),
        };
      });
    },

    describe(id) {
      const episode = lookup(id);
      const driverStats = episode.driver.stats;
      return {
        episode_id: episode.id,
        task: episode.task.id,
        scale: episode.scale,
        seed: episode.seed,
        mode: episode.mode,
        done: episode.endReason !== undefined,
        ...(episode.endReason !== undefined
          ? { reward: episode.reward ?? 0, end_reason: episode.endReason }
          : {}),
        counts: {
          turns: episode.turns,
          tool_calls: driverStats.toolCalls,
          code_blocks: driverStats.codeBlocks,
          runtime_errors: driverStats.runtimeErrors,
          ptc_errors: driverStats.runtimeErrors,
          refused_direct_calls: driverStats.refusedDirectCalls,
        },
        age_s: (Date.now() - episode.createdAt) / 1000,
        idle_s: (Date.now() - episode.lastActiveAt) / 1000,
      };
    },

    tokenize: async (text, tokenizer) => (await rendererFor(tokenizer)).encode(text),
    detokenize: async (tokenIds, tokenizer) => (await rendererFor(tokenizer)).decode(tokenIds),

    async remove(id) {
      const episode = lookup(id);
      await serialised(episode, () => release(episode, "deleted"));
    },

    reap,

    async dispose() {
      disposed = true;
      clearInterval(reaper);
      await Promise.all([...episodes.values()].map((episode) => release(episode, "service_shutdown")));
    },
  };
}

/** JSON-schema `type`s of a tool's top-level parameters (for converting XML parameter text). */
function parameterTypes(schema: unknown): Record<string, string | undefined> | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  if (!properties) return undefined;
  const types: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(properties))
    types[key] = typeof value?.type === "string" ? value.type : undefined;
  return types;
}
