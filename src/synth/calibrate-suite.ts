import { join } from "node:path";
import type { HarnessMode, Scale, Task } from "../envs/index.js";
import { runEvaluation, type EvaluationOptions } from "../eval/index.js";
import { readTrajectories } from "../harness/index.js";
import { calibrateTrajectories, type PassBand, type TaskCalibration } from "./calibration.js";
import { writeAtomically } from "./synth-report.js";

export const CALIBRATION_FILE = "calibration.json";

export interface CalibrateSuiteOptions {
  tasks: Task[];
  model: string;
  harness: HarnessMode;
  scales: Scale[];
  samples: number;
  band: PassBand;
  outDir: string;
  seed?: number;
  concurrency?: number;
  modelOptions?: EvaluationOptions["modelOptions"];
  limits?: EvaluationOptions["limits"];
  temperature?: number;
  forceNew?: boolean;
  signal?: AbortSignal;
  onProgress?: EvaluationOptions["onProgress"];
}

export interface CalibrateSuiteOutcome {
  rows: TaskCalibration[];
  kept: string[];
  modelErrors: Array<{ episodeId: string; error: string }>;
  /** Episodes recorded (this run and earlier ones in the same directory). */
  episodes: number;
  path: string;
}

/**
 * The difficulty filter over any suite: `samples` episodes of a reference model per task and scale through the
 * evaluation runner (so it resumes like `eval`), then a task is kept only when its pass rate is strictly inside
 * the band at every scale. Writes `<outDir>/calibration.json` (schemaVersion 1) atomically.
 */
export async function calibrateSuite(options: CalibrateSuiteOptions): Promise<CalibrateSuiteOutcome> {
  const outcome = await runEvaluation({
    tasks: options.tasks,
    harnesses: [options.harness],
    scales: options.scales,
    samples: options.samples,
    seed: options.seed ?? 0,
    model: options.model,
    outDir: options.outDir,
    concurrency: options.concurrency ?? 2,
    ...(options.modelOptions ? { modelOptions: options.modelOptions } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.forceNew ? { forceNew: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const trajectories = readTrajectories(outcome.trajectoriesPath);
  const rows = calibrateTrajectories(
    trajectories,
    options.tasks.map((task) => task.id),
    options.scales,
    options.band,
  );
  const path = join(options.outDir, CALIBRATION_FILE);
  writeAtomically(
    path,
    `${JSON.stringify(
      {
        schemaVersion: 1,
        model: options.model,
        harness: options.harness,
        scales: options.scales,
        samples: options.samples,
        band: [options.band.low, options.band.high],
        tasks: rows,
        kept: rows.filter((row) => row.kept).map((row) => row.task),
      },
      null,
      2,
    )}\n`,
  );
  return {
    rows,
    kept: rows.filter((row) => row.kept).map((row) => row.task),
    modelErrors: outcome.modelErrors,
    episodes: trajectories.length,
    path,
  };
}
