import { z } from "zod";
import { HARNESS_MODES, SCALES } from "../envs/index.js";

/**
 * What the host and the sandboxed draft worker say to each other. Host -> worker: newline-delimited JSON on
 * the worker's stdin. Worker -> host: newline-delimited JSON on descriptor 3 (the draft's own stdout and
 * stderr are only logs). Everything the worker sends is parsed here: the worker shares its process with
 * synthesised code.
 */

export const WORKER_PROTOCOL_VERSION = 1;

const scaleListSchema = z.array(z.enum(SCALES)).min(1);

/** A random key per run: the worker reads it before any draft code runs and puts it on its report. */
const nonceSchema = z.string().min(16).max(128);

export const validateRequestSchema = z.object({
  kind: z.literal("validate"),
  nonce: nonceSchema,
  /** The draft's task module, relative to the draft folder. */
  module: z.string(),
  scales: scaleListSchema,
  seeds: z.array(z.number().int().nonnegative()).min(1),
  /** Per oracle / near-miss cell. */
  cellTimeoutMs: z.number().int().positive(),
  /** The built-in domain the draft must build on unchanged. */
  domain: z.string(),
  minNearMisses: z.number().int().nonnegative(),
  minOracleCallsV0: z.number().int().nonnegative(),
});
export type ValidateRequest = z.infer<typeof validateRequestSchema>;

export const calibrateRequestSchema = z.object({
  kind: z.literal("calibrate"),
  nonce: nonceSchema,
  module: z.string(),
  domain: z.string(),
  model: z.string(),
  scales: scaleListSchema,
  samples: z.number().int().positive(),
  seed: z.number().int().nonnegative(),
  harness: z.enum(HARNESS_MODES),
  maxTurns: z.number().int().positive(),
  maxTokensPerTurn: z.number().int().positive(),
  temperature: z.number().optional(),
});
export type CalibrateRequest = z.infer<typeof calibrateRequestSchema>;

export const workerRequestSchema = z.discriminatedUnion("kind", [
  validateRequestSchema,
  calibrateRequestSchema,
]);
export type WorkerRequest = z.infer<typeof workerRequestSchema>;

export const gateResultSchema = z.object({
  id: z.string().max(200),
  passed: z.boolean(),
  detail: z.string().max(20_000),
});
export type GateResult = z.infer<typeof gateResultSchema>;

export const validationRowSummarySchema = z.object({
  scale: z.enum(SCALES),
  seed: z.number(),
  nullReward: z.number(),
  oracleReward: z.number(),
  dtcReplayReward: z.number(),
  nearMissRewards: z.record(z.string().max(200), z.number()),
  oracleToolCalls: z.number(),
  problems: z.array(z.string().max(20_000)).max(100),
});
export type ValidationRowSummary = z.infer<typeof validationRowSummarySchema>;

export const draftTaskSummarySchema = z.object({
  id: z.string().max(200),
  summary: z.string().max(5_000),
  instruction: z.string().max(100_000),
  tools: z.array(z.string().max(200)).max(200),
  nearMisses: z.array(z.object({ id: z.string().max(200), description: z.string().max(5_000) })).max(100),
});
export type DraftTaskSummary = z.infer<typeof draftTaskSummarySchema>;

export const validationReportSchema = z.object({
  kind: z.literal("validation"),
  ok: z.boolean(),
  task: draftTaskSummarySchema.nullable(),
  gates: z.array(gateResultSchema).max(100),
  rows: z.array(validationRowSummarySchema).max(64),
  durationMs: z.number(),
});
export type ValidationReport = z.infer<typeof validationReportSchema>;

export const calibrationReportSchema = z.object({
  kind: z.literal("calibration"),
  /** Pass rate per scale over the samples whose model call did not fail; null when none finished. */
  passRates: z.partialRecord(z.enum(SCALES), z.number().min(0).max(1).nullable()),
  episodes: z.number().int().nonnegative(),
  modelErrors: z.number().int().nonnegative(),
  error: z.string().max(20_000).optional(),
});
export type CalibrationReport = z.infer<typeof calibrationReportSchema>;

const completionUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  reasoningTokens: z.number().optional(),
});

/** Worker -> host. */
export const workerMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("report"),
    nonce: z.string().max(128),
    report: z.union([validationReportSchema, calibrationReportSchema]),
  }),
  z.object({
    type: z.literal("model-request"),
    id: z.number().int(),
    /** The completion request (messages, tools, maxTokens, temperature), passed on to the host's client. */
    request: z.object({
      messages: z.array(z.record(z.string(), z.unknown())).max(10_000),
      tools: z.array(z.record(z.string(), z.unknown())).max(1_000),
      maxTokens: z.number().int().positive(),
      temperature: z.number().optional(),
    }),
  }),
]);
export type WorkerMessage = z.infer<typeof workerMessageSchema>;

/** Host -> worker, after the request: the answers to model requests. */
export const hostMessageSchema = z.union([
  workerRequestSchema,
  z.object({
    type: z.literal("model-response"),
    id: z.number().int(),
    message: z.record(z.string(), z.unknown()).optional(),
    usage: completionUsageSchema.optional(),
    finishReason: z.string().optional(),
    error: z.string().optional(),
  }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;
