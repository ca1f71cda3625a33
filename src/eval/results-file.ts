import { z } from "zod";
import { trajectorySchema } from "../harness/trajectory.js";

// Taken from the trajectory format so that a new harness or scale needs one edit.
const harnessSchema = trajectorySchema.shape.harness;
const scaleSchema = trajectorySchema.shape.scale;
/** A share of code blocks, or null when the episodes wrote no code. */
const codeShareSchema = z.number().min(0).max(1).nullable();

/** The metrics of one task at one scale under one harness, over all its episodes. */
export const metricsRowSchema = z.object({
  task: z.string(),
  scale: scaleSchema,
  harness: harnessSchema,
  episodes: z.number().int().positive(),
  /** Episodes with reward 1. */
  successes: z.number().int().nonnegative(),
  passRate: z.number().min(0).max(1),
  /** Unbiased pass@k by k ("1", "8"); only for k <= episodes. */
  passAtK: z.record(z.string(), z.number().min(0).max(1)),
  /** Every tool call, whether made directly or from code. */
  meanToolCalls: z.number(),
  meanDirectToolCalls: z.number(),
  meanToolOutputTokens: z.number(),
  contextLimitShare: z.number().min(0).max(1),
  runtimeErrorsPerEpisode: z.number(),
  meanTurns: z.number(),
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
  schemaVersion: z.literal(1),
  runId: z.string(),
  model: z.string(),
  createdAt: z.string(),
  rows: z.array(metricsRowSchema),
  summary: z.array(summaryRowSchema),
});
export type ResultsFile = z.infer<typeof resultsFileSchema>;
