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

export function createRolloutStats(): RolloutServiceStats {
  return {
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
}

export function observeStepLatency(stats: RolloutServiceStats, seconds: number): void {
  const histogram = stats.stepLatency;
  histogram.sum += seconds;
  histogram.count += 1;
  const index = histogram.buckets.findIndex((bound) => seconds <= bound);
  if (index >= 0) histogram.counts[index] = (histogram.counts[index] ?? 0) + 1;
}

export function countFinished(stats: RolloutServiceStats, reason: string, reward: number): void {
  stats.finished += 1;
  stats.rewardSum += reward;
  stats.rewardCount += 1;
  stats.rewardsByValue.set(String(reward), (stats.rewardsByValue.get(String(reward)) ?? 0) + 1);
  stats.endReasons.set(reason, (stats.endReasons.get(reason) ?? 0) + 1);
}
