import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import { SCALES, type Scale } from "../envs/index.js";
import type { Trajectory } from "../harness/index.js";

/** A pass-rate band: a task is kept when its pass rate is strictly between `low` and `high` at every scale. */
export interface PassBand {
  low: number;
  high: number;
}

export interface TaskCalibration {
  task: string;
  /** Per scale: passes over finished samples (model errors left out); null when no sample finished. */
  passRates: Partial<Record<Scale, number | null>>;
  samples: Partial<Record<Scale, number>>;
  modelErrors: number;
  kept: boolean;
  reason: string;
}

const bandError = (message: string): ProgAgentError =>
  new ProgAgentError(message, { code: ERROR_CODES.INVALID_ARGUMENT, category: "user" });

/** Parses `0,0.8` (two numbers in [0, 1], the first below the second); a user error naming what was expected otherwise. */
export function parseBand(text: string): PassBand {
  const parts = text.split(",").map((part) => part.trim());
  const numbers = parts.map(Number);
  if (parts.length !== 2 || numbers.some((value) => !Number.isFinite(value) || value < 0 || value > 1))
    throw bandError(`--band expects two pass rates in [0, 1] such as 0,0.8; got '${text}'`);
  const [low, high] = numbers as [number, number];
  if (low >= high) throw bandError(`--band '${text}': the lower bound must be below the upper bound`);
  return { low, high };
}

/** Pass rate per scale of one task's episodes (model errors are errors of the world, not failures). */
export function passRatesOf(
  trajectories: readonly Trajectory[],
  scales: readonly Scale[],
): {
  passRates: Partial<Record<Scale, number | null>>;
  samples: Partial<Record<Scale, number>>;
  modelErrors: number;
} {
  const passRates: Partial<Record<Scale, number | null>> = {};
  const samples: Partial<Record<Scale, number>> = {};
  let modelErrors = 0;
  for (const scale of scales) {
    const episodes = trajectories.filter((trajectory) => trajectory.scale === scale);
    const finished = episodes.filter((trajectory) => trajectory.endReason !== "model_error");
    modelErrors += episodes.length - finished.length;
    samples[scale] = finished.length;
    passRates[scale] =
      finished.length === 0
        ? null
        : finished.filter((trajectory) => trajectory.reward === 1).length / finished.length;
  }
  return { passRates, samples, modelErrors };
}

/** Keeps a task only when every scale has a pass rate strictly inside the band. */
export function judgeCalibration(
  task: string,
  passRates: Partial<Record<Scale, number | null>>,
  band: PassBand,
  scales: readonly Scale[] = SCALES,
): { kept: boolean; reason: string } {
  const outside: string[] = [];
  for (const scale of scales) {
    const rate = passRates[scale];
    if (rate === null || rate === undefined) outside.push(`${scale}: no finished sample`);
    else if (!(rate > band.low && rate < band.high))
      outside.push(`${scale}: pass rate ${rate.toFixed(2)} outside (${band.low}, ${band.high})`);
  }
  return outside.length === 0
    ? { kept: true, reason: `inside (${band.low}, ${band.high}) at ${scales.join(", ")}` }
    : { kept: false, reason: `${task}: ${outside.join("; ")}` };
}

/** Per task: pass rates per scale and the band's verdict. */
export function calibrateTrajectories(
  trajectories: readonly Trajectory[],
  taskIds: readonly string[],
  scales: readonly Scale[],
  band: PassBand,
): TaskCalibration[] {
  return taskIds.map((task) => {
    const own = trajectories.filter((trajectory) => trajectory.task === task);
    const rates = passRatesOf(own, scales);
    return { task, ...rates, ...judgeCalibration(task, rates.passRates, band, scales) };
  });
}
