import { z } from "zod";
import { trajectorySchema } from "../harness/trajectory.js";

// Taken from the trajectory format so that a new harness or scale needs one edit.
const harnessSchema = trajectorySchema.shape.harness;
const scaleSchema = trajectorySchema.shape.scale;
/** A share of code blocks, or null when the episodes wrote no code. */
const codeShareSchema = z.number().min(0).max(1).nullable();
/** A per-episode mean over the scored episodes, or null when every episode ended with a model error. */
const scoredMeanSchema = z.number().nullable();

/** The metrics of one task at one scale under one harness, over all its episodes. */
export const metricsRowSchema = z.object({
  task: z.string(),
  scale: scaleSchema,
  harness: harnessSchema,
  /** Every episode run, including those that ended with a model error. */
  episodes: z.number().int().positive(),
  /**
   * Episodes that ended because the model endpoint failed (endReason `model_error`): errors of the world,
   * not of the agent. They are excluded from the pass rate, pass@k and every mean below.
   */
  modelErrors: z.number().int().nonnegative(),
  /** Episodes with reward 1. */
  successes: z.number().int().nonnegative(),
  /** successes / (episodes - modelErrors); null when every episode ended with a model error. */
  passRate: z.number().min(0).max(1).nullable(),
  /** Unbiased pass@k by k ("1", "8") over the scored episodes; only for k <= scored episodes. */
  passAtK: z.record(z.string(), z.number().min(0).max(1)),
  /** Every tool call, whether made directly or from code. */
  meanToolCalls: scoredMeanSchema,
  meanDirectToolCalls: scoredMeanSchema,
  meanToolOutputTokens: scoredMeanSchema,
  contextLimitShare: z.number().min(0).max(1).nullable(),
  runtimeErrorsPerEpisode: scoredMeanSchema,
  meanTurns: scoredMeanSchema,
  codeBlockCount: z.number().int().nonnegative(),
  loopShare: codeShareSchema,
  conditionalShare: codeShareSchema,
  tryShare: codeShareSchema,
  dtcLikeShare: codeShareSchema,
});
export type MetricsRow = z.infer<typeof metricsRowSchema>;

/** One harness at one scale, over all tasks (means weighted by episodes; code shares by code blocks). */
export const summaryRowSchema = metricsRowSchema.omit({ task: true }).extend({
  tasks: z.number().int().positive(),
});
export type SummaryRow = z.infer<typeof summaryRowSchema>;

/** `results.json`: the metrics of one run, for dashboards, comparisons and trainers. */
export const resultsFileSchema = z.object({
  schemaVersion: z.literal(2),
  runId: z.string(),
  model: z.string(),
  createdAt: z.string(),
  rows: z.array(metricsRowSchema),
  summary: z.array(summaryRowSchema),
});
export type ResultsFile = z.infer<typeof resultsFileSchema>;
