import type { TaskDefinition } from "./define-task.js";
import { buildInstance } from "./instance.js";
import { PAPER_SCALE_MEANS, type Scale } from "./scale.js";

export interface ScaleStatsRow {
  scale: Scale;
  instances: number;
  meanDbKb: number;
  meanFiles: number;
  paperDbKb: number;
  paperFiles: number;
}

/** Per scale, the suite's mean database size and workspace file count beside the paper's. */
export function computeScaleStats(
  tasks: readonly TaskDefinition[],
  scales: readonly Scale[],
  seed: number,
  cacheDir?: string,
): ScaleStatsRow[] {
  return scales.map((scale) => {
    const stats = tasks.map((task) => buildInstance(task, scale, seed, cacheDir).stats);
    const mean = (values: number[]): number =>
      values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
      scale,
      instances: stats.length,
      meanDbKb: Math.round(mean(stats.map((item) => item.dbBytes / 1024)) * 10) / 10,
      meanFiles: Math.round(mean(stats.map((item) => item.fileCount)) * 10) / 10,
      paperDbKb: PAPER_SCALE_MEANS[scale].dbKb,
      paperFiles: PAPER_SCALE_MEANS[scale].files,
    };
  });
}
