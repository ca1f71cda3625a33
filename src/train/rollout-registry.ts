import { ERROR_CODES } from "../core/index.js";
import type { EpisodeDriver, HarnessMode, Scale, TaskDefinition } from "../envs/index.js";
import type { ChatMessage } from "../harness/index.js";
import { RolloutError, type EndReason } from "./rollout-answers.js";
import type { RolloutLimits } from "./rollout-limits.js";
import type { EpisodeTokenRenderer } from "./rollout-renderer.js";
import { countFinished, observeStepLatency, type RolloutServiceStats } from "./rollout-stats.js";

export interface LiveEpisode {
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

/** A place held for one creation until it registers its episode or gives the place back. */
export interface EpisodeReservation {
  register(episode: LiveEpisode): void;
  cancel(): void;
}

/** The live episodes of a rollout service: admission within `maxEpisodes`, lookup, ending, reaping. */
export interface EpisodeRegistry {
  readonly maxEpisodes: number;
  /** Throws 503 once closed, 429 when live plus reserved episodes reach `maxEpisodes`. */
  reserve(): EpisodeReservation;
  lookup(id: string): LiveEpisode;
  /** Records why and with what reward an episode ended (the first reason wins); it stays registered. */
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
  let reserved = 0;
  let closed = false;

  const finish = (episode: LiveEpisode, reason: EndReason, reward: number): void => {
    if (episode.endReason !== undefined) return;
    episode.endReason = reason;
    episode.reward = reward;
    countFinished(stats, reason, reward);
  };

  const release = async (episode: LiveEpisode, reason: EndReason): Promise<void> => {
    if (!episodes.delete(episode.id)) return;
    stats.live = episodes.size;
    finish(episode, reason, episode.reward ?? 0);
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
    reserve() {
      if (closed) throw new RolloutError("the service is shutting down", 503, ERROR_CODES.SERVICE_CLOSED, 1);
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
