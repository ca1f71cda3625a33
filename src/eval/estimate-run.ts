import type { HarnessMode, Scale } from "../envs/index.js";
import { ORACLE_FIGURES } from "./oracle-figures.js";

/** What a run will send to a model endpoint, estimated before it starts. */
export interface RunEstimate {
  episodes: number;
  /** Context tokens sent over all turns of all episodes, at the oracle's own rate (a model usually needs more). */
  promptTokens: number;
  completionTokens: number;
}

/**
 * Estimates a run from the oracle's per-episode figures (src/eval/oracle-figures.ts, generated from `npm start`):
 * a lower bound, since the oracle needs no exploration. Hybrid is counted at the PTC rate.
 */
export function estimateRun(plan: {
  taskCount: number;
  scales: readonly Scale[];
  harnesses: readonly HarnessMode[];
  samples: number;
}): RunEstimate {
  let promptTokens = 0;
  let completionTokens = 0;
  for (const harness of plan.harnesses)
    for (const scale of plan.scales) {
      const figures = ORACLE_FIGURES.perEpisode[harness === "dtc" ? "dtc" : "ptc"][scale];
      const episodes = plan.taskCount * plan.samples;
      promptTokens += figures.promptTokens * episodes;
      completionTokens += figures.completionTokens * episodes;
    }
  return {
    episodes: plan.taskCount * plan.scales.length * plan.harnesses.length * plan.samples,
    promptTokens,
    completionTokens,
  };
}

/** `1.2M`, `340k`, `950`. */
export function formatTokenCount(count: number): string {
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}B`;
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e3) return `${Math.round(count / 1e3)}k`;
  return String(count);
}
