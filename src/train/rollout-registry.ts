import { ERROR_CODES } from "../core/index.js";
import type { EpisodeDriver, HarnessMode, Scale, TaskDefinition } from "../envs/index.js";
import type { ChatMessage } from "../harness/index.js";
import { RolloutError, type EndReason } from "./rollout-answers.js";
import type { RolloutLimits } from "./rollout-limits.js";
import { createHistoryBudget, messageBytes } from "./rollout-history.js";
import type { EpisodeTokenRenderer } from "./rollout-renderer.js";
import { countFinished, observeStepLatency, type RolloutServiceStats } from "./rollout-stats.js";

export interface LiveEpisode {
  id: string;
  task: TaskDefinition;
  scale: Scale;
  seed: number;
  mode: HarnessMode;
  driver: EpisodeDriver;
  /** The conversation retained, within the history limits; emptied when the episode ends. */
  messages: ChatMessage[];
  /** UTF-8 bytes `messages` hold. */
  historyBytes: number;
  renderer: EpisodeTokenRenderer | undefined;
  createdAt: number;
  lastActiveAt: number;
  /** Serialises requests of one episode: a trainer may retry, a step must never interleave with another. */
  queue: Promise<unknown>;
  endReason: EndReason | undefined;
  reward: number | undefined;
  turns: number;
}

/** A place held for one creation until it registers its episode or gives the place back. */
export interface EpisodeReservation {
  register(episode: LiveEpisode): void;
  cancel(): void;
}

/** The live episodes of a rollout service: admission within `maxEpisodes`, lookup, ending, reaping. */
export interface EpisodeRegistry {
  readonly maxEpisodes: number;
  /** Bytes of history all live episodes retain. */
  readonly historyBytes: number;
  /**
   * Throws 503 once closed or while the history budget is full, 429 when live plus reserved episodes reach
   * `maxEpisodes`.
   */
  reserve(): EpisodeReservation;
  lookup(id: string): LiveEpisode;
  /**
   * Appends a message to the episode's history within the limits; a message that would pass one ends the
   * episode (reward 0, the limit's reason) and is not kept. False when not kept.
   */
  retain(episode: LiveEpisode, message: ChatMessage): boolean;
  /**
   * Records why and with what reward an episode ended (the first reason wins) and lets its history go; it stays
   * registered, answering every step with its end.
   */
  finish(episode: LiveEpisode, reason: EndReason, reward: number): void;
  /** Unregisters the episode and disposes its driver. */
  release(episode: LiveEpisode, reason: EndReason): Promise<void>;
  /** Runs `step` after every earlier request of the episode, measured in the step-latency histogram. */
  serialised<T>(episode: LiveEpisode, step: () => Promise<T>): Promise<T>;
  /** Ends idle and over-time episodes; runs on a timer. */
  reap(now?: number): Promise<number>;
  /** Refuses further creations and releases every episode. */
  close(): Promise<void>;
}

export function createEpisodeRegistry(options: {
  maxEpisodes: number;
  limits: RolloutLimits;
  stats: RolloutServiceStats;
}): EpisodeRegistry {
  const { maxEpisodes, limits, stats } = options;
  const episodes = new Map<string, LiveEpisode>();
  const history = createHistoryBudget(limits);
  let reserved = 0;
  let closed = false;

  const forgetHistory = (episode: LiveEpisode): void => {
    history.giveBack(episode.historyBytes);
    episode.historyBytes = 0;
    episode.messages = [];
  };

  const finish = (episode: LiveEpisode, reason: EndReason, reward: number): void => {
    if (episode.endReason !== undefined) return;
    episode.endReason = reason;
    episode.reward = reward;
    countFinished(stats, reason, reward);
    forgetHistory(episode);
  };

  const retain = (episode: LiveEpisode, message: ChatMessage): boolean => {
    if (episode.endReason !== undefined) return false;
    const bytes = messageBytes(message);
    const refused = history.take(episode.historyBytes, bytes);
    if (refused !== undefined) {
      finish(episode, refused, 0);
      return false;
    }
    episode.historyBytes += bytes;
    episode.messages.push(message);
    return true;
  };

  const release = async (episode: LiveEpisode, reason: EndReason): Promise<void> => {
    if (!episodes.delete(episode.id)) return;
    stats.live = episodes.size;
    finish(episode, reason, episode.reward ?? 0);
    forgetHistory(episode);
    await episode.driver.dispose().catch(() => undefined);
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
    maxEpisodes,
    get historyBytes() {
      return history.totalBytes;
    },
    reserve() {
      if (closed) throw new RolloutError("the service is shutting down", 503, ERROR_CODES.SERVICE_CLOSED, 1);
      if (history.totalBytes >= limits.maxTotalHistoryBytes)
        throw new RolloutError(
          `the live episodes hold the service's whole history budget (${limits.maxTotalHistoryBytes} bytes, rollout serve --max-total-history-bytes); retry after episodes end`,
          503,
          ERROR_CODES.SERVICE_FULL,
          1,
        );
      if (episodes.size + reserved >= maxEpisodes) {
        stats.rejected += 1;
        throw new RolloutError(
          `the service holds its maximum of ${maxEpisodes} live episodes; retry later or end finished episodes with DELETE`,
          429,
          ERROR_CODES.SERVICE_FULL,
          1,
        );
      }
      reserved += 1;
      let held = true;
      const giveBack = (): void => {
        if (!held) return;
        held = false;
        reserved -= 1;
      };
      return {
        register(episode) {
          giveBack();
          // The first messages (system prompt, task) are admitted whole: they are the task's, not the model's.
          episode.historyBytes = episode.messages.reduce((sum, message) => sum + messageBytes(message), 0);
          history.hold(episode.historyBytes);
          episodes.set(episode.id, episode);
          stats.created += 1;
          stats.live = episodes.size;
        },
        cancel: giveBack,
      };
    },
    lookup(id) {
      const episode = episodes.get(id);
      if (!episode)
        throw new RolloutError(
          `no live episode '${id}' (it ended, was reaped after ${limits.idleTimeoutMs / 1000} s idle, or never existed)`,
          404,
          ERROR_CODES.EPISODE_NOT_FOUND,
        );
      return episode;
    },
    retain,
    finish,
    release,
    async serialised<T>(episode: LiveEpisode, step: () => Promise<T>): Promise<T> {
      const run = episode.queue.then(async () => {
        const started = performance.now();
        episode.lastActiveAt = Date.now();
        try {
          return await step();
        } finally {
          episode.lastActiveAt = Date.now();
          observeStepLatency(stats, (performance.now() - started) / 1000);
        }
      });
      episode.queue = run.catch(() => undefined);
      return await run;
    },
    reap,
    async close() {
      closed = true;
      clearInterval(reaper);
      await Promise.all([...episodes.values()].map((episode) => release(episode, "service_shutdown")));
    },
  };
}
