import { randomUUID } from "node:crypto";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import type { KernelPool } from "../kernel/index.js";
import {
  interfaceProfile,
  type EpisodeOptions,
  type InterfaceProfileName,
  type TaskDefinition,
} from "../envs/index.js";
import { openAgentEpisode } from "../harness/index.js";
import { RolloutError, type StepAnswer } from "./rollout-answers.js";
import type { CompletionBody, CreateEpisodeBody, ToolCallsBody } from "./rollout-bodies.js";
import { DEFAULT_ROLLOUT_LIMITS, type RolloutLimits } from "./rollout-limits.js";
import { createEpisodeRegistry, type LiveEpisode } from "./rollout-registry.js";
import { episodeTokenRenderer, type EpisodeTokenRenderer } from "./rollout-renderer.js";
import { createRolloutStats, type RolloutServiceStats } from "./rollout-stats.js";
import { stepCompletion, stepToolCalls, type StepContext } from "./rollout-steps.js";
import type { RolloutTokenizer, TokenizerLoad } from "./rollout-tokenizer.js";
import { createTokenizerSet } from "./rollout-tokenizers.js";

export {
  createEpisodeBodySchema,
  toolCallsBodySchema,
  tokenizeBodySchema,
  detokenizeBodySchema,
  completionBodySchema,
} from "./rollout-bodies.js";
export type { CreateEpisodeBody, ToolCallsBody, CompletionBody } from "./rollout-bodies.js";
export { RolloutError } from "./rollout-answers.js";
export type { StepAnswer, ToolResultBody, EndReason } from "./rollout-answers.js";
export { DEFAULT_ROLLOUT_LIMITS } from "./rollout-limits.js";
export type { RolloutLimits } from "./rollout-limits.js";
export type { RolloutServiceStats } from "./rollout-stats.js";

export interface RolloutServiceOptions {
  loadTask(id: string): Promise<TaskDefinition | undefined>;
  /**
   * The tokenizer of a folder (undefined: the default Qwen3), e.g. `startTokenizerWorkers` (threads, so that
   * tokenising never holds the event loop); asked once per folder and closed by the service's `dispose`.
   * Omitted: the service renders no tokens (`render` and the token endpoints are a 400).
   */
  createTokenizer?(tokenizer: string | undefined): Promise<RolloutTokenizer>;
  /**
   * The tokenizer names a request may give (`render.tokenizer`, `tokenizer` of /v1/tokenize); any other is
   * refused before `createTokenizer` sees it, so a client cannot make the service read host folders. Omitted:
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

export interface RolloutService {
  readonly limits: RolloutLimits;
  readonly maxEpisodes: number;
  readonly stats: RolloutServiceStats;
  /** Bytes of history all live episodes retain (within `limits.maxTotalHistoryBytes`). */
  readonly historyBytes: number;
  /** Tokenizer jobs running and waiting, and tokenizer threads started. */
  readonly tokenizerLoad: TokenizerLoad;
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

/**
 * Episodes for RL trainers: the registry admits and ends them (rollout-registry), steps dispatch tool calls
 * (rollout-steps), the tokenizer set renders tokens (rollout-tokenizers); this wires them to one API.
 */
export function createRolloutService(options: RolloutServiceOptions): RolloutService {
  const limits: RolloutLimits = { ...DEFAULT_ROLLOUT_LIMITS, ...options.limits };
  const stats = createRolloutStats();
  const registry = createEpisodeRegistry({ maxEpisodes: options.maxEpisodes ?? 1024, limits, stats });
  const tokenizers = createTokenizerSet({
    create: options.createTokenizer?.bind(options),
    served: options.tokenizers ?? [],
  });
  const context: StepContext = { registry, limits, stats };

  const loadTask = async (id: string): Promise<TaskDefinition> => {
    const task = await options.loadTask(id).catch((error: unknown) => {
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
        `unknown task '${id}'; GET /v1/tasks lists them`,
        404,
        ERROR_CODES.TASK_NOT_FOUND,
      );
    return task;
  };

  /** The episode's driver, tools and first messages, as the harness opens them. */
  const openDriver = async (task: TaskDefinition, body: CreateEpisodeBody) => {
    const profile = interfaceProfile(body.interface ?? options.interface ?? "default");
    const terminal = body.terminal ?? options.terminal ?? profile.terminalByDefault;
    const timeoutMs = limits.executionTimeoutMs ?? profile.executionTimeoutMs.training;
    const opened = await openAgentEpisode({
      task,
      scale: body.scale,
      seed: body.seed ?? 0,
      mode: body.mode,
      executionTimeoutMs: timeoutMs,
      maxToolCalls: limits.maxToolCalls,
      terminal,
      interface: profile.name,
      ...(options.pool ? { pool: options.pool } : {}),
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      ...(options.kernelOptions ? { kernelOptions: options.kernelOptions } : {}),
    });
    return { ...opened, profile, terminal, timeoutMs };
  };

  /** Opens an episode in a place reserved before any await: concurrent creations never overshoot. */
  const create = async (body: CreateEpisodeBody): Promise<Record<string, unknown>> => {
    const reservation = registry.reserve();
    try {
      const task = await loadTask(body.task);
      // The tokenizer's first load (seconds, in its thread) overlaps the episode's opening (a kernel start).
      const tokenizer = body.render ? tokenizers.get(body.render.tokenizer) : undefined;
      tokenizer?.catch(() => undefined);
      const opened = await openDriver(task, body);
      const { driver, tools, messages } = opened;
      let renderer: EpisodeTokenRenderer | undefined;
      let promptTokenIds: number[] | undefined;
      try {
        if (tokenizer) renderer = episodeTokenRenderer(await tokenizer, body.render?.enable_thinking);
        promptTokenIds = await renderer?.promptTokenIds(messages, tools);
      } catch (error) {
        await driver.dispose().catch(() => undefined);
        throw error;
      }
      const now = Date.now();
      const live: LiveEpisode = {
        id: `ep-${randomUUID()}`,
        task,
        scale: body.scale,
        seed: body.seed ?? 0,
        mode: body.mode,
        driver,
        messages,
        historyBytes: 0,
        renderer,
        createdAt: now,
        lastActiveAt: now,
        queue: Promise.resolve(),
        endReason: undefined,
        reward: undefined,
        turns: 0,
      };
      reservation.register(live);
      return {
        episode_id: live.id,
        task: task.id,
        scale: body.scale,
        seed: live.seed,
        mode: body.mode,
        interface: opened.profile.name,
        terminal: opened.terminal,
        messages: messages.map((message) => ({ ...message })),
        tools,
        limits: {
          execution_timeout_s: opened.timeoutMs / 1000,
          max_tool_calls: limits.maxToolCalls,
          max_turns: limits.maxTurns,
          max_history_bytes: limits.maxHistoryBytes,
          episode_wall_clock_s: limits.episodeWallClockMs / 1000,
          idle_timeout_s: limits.idleTimeoutMs / 1000,
        },
        ...(promptTokenIds ? { prompt_token_ids: promptTokenIds } : {}),
      };
    } finally {
      reservation.cancel();
    }
  };

  return {
    limits,
    maxEpisodes: registry.maxEpisodes,
    stats,
    get historyBytes() {
      return registry.historyBytes;
    },
    get tokenizerLoad() {
      return tokenizers.load();
    },
    create,

    async toolCalls(id, body) {
      const episode = registry.lookup(id);
      return await registry.serialised(episode, () => stepToolCalls(context, episode, body));
    },

    async completion(id, body) {
      const episode = registry.lookup(id);
      return await registry.serialised(episode, () => stepCompletion(context, episode, body));
    },

    describe(id) {
      const episode = registry.lookup(id);
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

    async tokenize(text, tokenizer) {
      if (text.length > limits.maxTokenizeChars)
        throw new RolloutError(
          `text of ${text.length} characters is over the ${limits.maxTokenizeChars} this service tokenises at once (rollout serve --max-tokenize-chars); send it in parts`,
          413,
          ERROR_CODES.REQUEST_TOO_LARGE,
        );
      return await (await tokenizers.get(tokenizer)).encode(text);
    },
    detokenize: async (tokenIds, tokenizer) => (await tokenizers.get(tokenizer)).decode(tokenIds),

    async remove(id) {
      const episode = registry.lookup(id);
      await registry.serialised(episode, () => registry.release(episode, "deleted"));
    },

    reap: (now) => registry.reap(now),
    async dispose() {
      await registry.close();
      await tokenizers.close();
    },
  };
}
