import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import type { Trajectory } from "../harness/trajectory.js";
import { analyzeCodeBlocks, type CodeFeatures } from "./code-features.js";
import { HARNESSES, SCALES } from "./dimensions.js";
import { passAtK } from "./pass-at-k.js";
import type { MetricsRow } from "./results-file.js";

/** pass@1 is the mean success; pass@8 is what the paper reports (8 samples per task instance). */
export const DEFAULT_PASS_AT_K: readonly number[] = [1, 8];

export interface ComputeMetricsOptions {
  /** Values of k for pass@k (default 1 and 8); a row reports only those with k <= its episodes. */
  k?: readonly number[];
  signal?: AbortSignal;
  /** Deadline for parsing all code blocks with Python (default 30 s). */
  codeAnalysisTimeoutMs?: number;
}

/**
 * Aggregates episodes into one row per task x scale x harness, sorted by task, scale, then harness.
 *
 * Code-style shares (loops, conditionals, try, DTC-like) are over the code blocks of the row's episodes and
 * null when they wrote none, so that a DTC row does not read as "0% loops".
 */
export async function computeMetrics(
  trajectories: readonly Trajectory[],
  options: ComputeMetricsOptions = {},
): Promise<MetricsRow[]> {
  const ks = validateK(options.k ?? DEFAULT_PASS_AT_K);
  const codes = trajectories.flatMap((trajectory) => trajectory.codeBlocks.map((block) => block.code));
  const features = await analyzeCodeBlocks(codes, {
    signal: options.signal,
    timeoutMs: options.codeAnalysisTimeoutMs,
  });

  const groups = new Map<string, { episodes: Trajectory[]; features: CodeFeatures[] }>();
  let featureIndex = 0;
  for (const trajectory of trajectories) {
    const key = JSON.stringify([trajectory.task, trajectory.scale, trajectory.harness]);
    let group = groups.get(key);
    if (!group) {
      group = { episodes: [], features: [] };
      groups.set(key, group);
    }
    group.episodes.push(trajectory);
    for (let block = 0; block < trajectory.codeBlocks.length; block += 1) {
      const feature = features[featureIndex];
      featureIndex += 1;
      // Code written before a model error is left out with the rest of that episode.
      if (feature && !isModelError(trajectory)) group.features.push(feature);
    }
  }

  const rows = [...groups.values()].map((group) => metricsRow(group.episodes, group.features, ks));
  return rows.sort(
    (left, right) =>
      compareText(left.task, right.task) ||
      SCALES.indexOf(left.scale) - SCALES.indexOf(right.scale) ||
      HARNESSES.indexOf(left.harness) - HARNESSES.indexOf(right.harness),
  );
}

/** An episode whose model endpoint failed says nothing about the agent: an error, not a failure. */
export function isModelError(trajectory: Pick<Trajectory, "endReason">): boolean {
  return trajectory.endReason === "model_error";
}

function metricsRow(all: Trajectory[], features: CodeFeatures[], ks: number[]): MetricsRow {
  const first = all[0];
  if (!first) throw new Error("metricsRow needs at least one episode");
  const episodes = all.filter((episode) => !isModelError(episode));
  const count = episodes.length;
  const successes = episodes.filter((episode) => episode.reward === 1).length;
  const passAtKByK: Record<string, number> = {};
  for (const k of ks) if (k <= count) passAtKByK[String(k)] = passAtK(count, successes, k);
  return {
    task: first.task,
    scale: first.scale,
    harness: first.harness,
    episodes: all.length,
    modelErrors: all.length - count,
    successes,
    passRate: count === 0 ? null : successes / count,
    passAtK: passAtKByK,
    meanToolCalls: mean(episodes, (episode) => episode.toolCalls.length),
    meanDirectToolCalls: mean(
      episodes,
      (episode) => episode.toolCalls.filter((call) => call.via === "direct").length,
    ),
    meanToolOutputTokens: mean(episodes, (episode) => episode.toolOutputTokens),
    contextLimitShare: mean(episodes, (episode) => (episode.endReason === "context_limit" ? 1 : 0)),
    runtimeErrorsPerEpisode: mean(episodes, (episode) => episode.runtimeErrors),
    meanTurns: mean(episodes, (episode) => episode.turns.length),
    codeBlockCount: features.length,
    loopShare: share(features, (feature) => feature.hasLoop),
    conditionalShare: share(features, (feature) => feature.hasConditional),
    tryShare: share(features, (feature) => feature.hasTryExcept),
    dtcLikeShare: share(features, (feature) => feature.dtcLike),
  };
}

function validateK(ks: readonly number[]): number[] {
  for (const k of ks) {
    if (!Number.isInteger(k) || k < 1) {
      throw new ProgAgentError(`pass@k needs positive integers for k; got ${String(k)}`, {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "user",
        details: { k: ks.map(String) },
      });
    }
  }
  return [...new Set(ks)].sort((left, right) => left - right);
}

function mean<T>(items: readonly T[], value: (item: T) => number): number | null {
  let total = 0;
  for (const item of items) total += value(item);
  return items.length === 0 ? null : total / items.length;
}

function share<T>(items: readonly T[], predicate: (item: T) => boolean): number | null {
  return items.length === 0 ? null : items.filter(predicate).length / items.length;
}

// Locale-independent, so that the row order is the same on every machine.
function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
