import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import { SCALES } from "../envs/index.js";
import { gateResultSchema } from "./worker-protocol.js";

export const SYNTH_REPORT_JSON = "synth-report.json";
export const SYNTH_REPORT_MARKDOWN = "synth-report.md";

const usageSchema = z.object({ calls: z.number(), promptTokens: z.number(), completionTokens: z.number() });

export const synthConfigSchema = z.object({
  domain: z.string(),
  model: z.string(),
  baseUrl: z.string().nullable(),
  auditorModel: z.string(),
  auditorBaseUrl: z.string().nullable(),
  calibrateModel: z.string().nullable(),
  calibrateBaseUrl: z.string().nullable(),
  candidates: z.number(),
  maxRounds: z.number(),
  samples: z.number(),
  band: z.tuple([z.number(), z.number()]),
  harness: z.string(),
  suiteName: z.string(),
});
export type SynthConfig = z.infer<typeof synthConfigSchema>;

export const candidateStatusSchema = z.enum(["pending", "rejected", "accepted"]);

export const candidateRecordSchema = z.object({
  id: z.string(),
  slug: z.string(),
  request: z.string(),
  status: candidateStatusSchema,
  /** The stage that decided (construct, audit, calibrate, write) or where it stands. */
  stage: z.string(),
  reason: z.string(),
  rounds: z.array(
    z.object({
      round: z.number(),
      ok: z.boolean(),
      failedGates: z.array(gateResultSchema),
      sandboxError: z.string().optional(),
      durationMs: z.number(),
    }),
  ),
  constructorTurns: z.number(),
  gates: z.array(gateResultSchema),
  oracleToolCalls: z.record(z.string(), z.number()),
  audit: z
    .object({
      verdict: z.enum(["accept", "reject"]),
      reasons: z.array(z.string()),
      checks: z.record(z.string(), z.boolean()),
      note: z.string().optional(),
    })
    .nullable(),
  calibration: z
    .object({
      passRates: z.partialRecord(z.enum(SCALES), z.number().nullable()),
      kept: z.boolean(),
      reason: z.string(),
      episodes: z.number(),
      modelErrors: z.number(),
    })
    .nullable(),
  tokens: z.object({ construct: usageSchema, audit: usageSchema, calibrate: usageSchema }),
  /** The module path in the suite folder, when accepted. */
  module: z.string().nullable(),
});
export type CandidateRecord = z.infer<typeof candidateRecordSchema>;

export const synthReportSchema = z.object({
  schemaVersion: z.literal(1),
  config: synthConfigSchema,
  startedAt: z.string(),
  updatedAt: z.string(),
  intents: z.object({
    proposed: z.number(),
    dropped: z.array(z.object({ slug: z.string(), reason: z.string() })),
    tokens: usageSchema,
  }),
  candidates: z.array(candidateRecordSchema),
});
export type SynthReport = z.infer<typeof synthReportSchema>;

export function readSynthReport(outDir: string): SynthReport | null {
  const path = join(outDir, SYNTH_REPORT_JSON);
  if (!existsSync(path)) return null;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ProgAgentError(
      `${path} is not valid JSON: ${(error as Error).message}; start over with --force-new`,
      {
        code: ERROR_CODES.FILE_FORMAT_INVALID,
        category: "user",
      },
    );
  }
  const parsed = synthReportSchema.safeParse(data);
  if (!parsed.success)
    throw new ProgAgentError(
      `${path} is not a synthesis report (schemaVersion 1): ${parsed.error.message.slice(0, 500)}`,
      {
        code: ERROR_CODES.FILE_FORMAT_INVALID,
        category: "user",
      },
    );
  return parsed.data;
}

export function writeAtomically(path: string, content: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
}

function total(report: SynthReport): { calls: number; promptTokens: number; completionTokens: number } {
  const sum = {
    calls: report.intents.tokens.calls,
    promptTokens: report.intents.tokens.promptTokens,
    completionTokens: report.intents.tokens.completionTokens,
  };
  for (const candidate of report.candidates)
    for (const stage of [candidate.tokens.construct, candidate.tokens.audit, candidate.tokens.calibrate]) {
      sum.calls += stage.calls;
      sum.promptTokens += stage.promptTokens;
      sum.completionTokens += stage.completionTokens;
    }
  return sum;
}

function stageTotals(
  report: SynthReport,
): Array<[string, { calls: number; promptTokens: number; completionTokens: number }]> {
  const stages = ["construct", "audit", "calibrate"] as const;
  const rows: Array<[string, { calls: number; promptTokens: number; completionTokens: number }]> = [
    ["intents", report.intents.tokens],
  ];
  for (const stage of stages) {
    const sum = { calls: 0, promptTokens: 0, completionTokens: 0 };
    for (const candidate of report.candidates) {
      sum.calls += candidate.tokens[stage].calls;
      sum.promptTokens += candidate.tokens[stage].promptTokens;
      sum.completionTokens += candidate.tokens[stage].completionTokens;
    }
    rows.push([stage, sum]);
  }
  return rows;
}

export function renderSynthMarkdown(report: SynthReport): string {
  const accepted = report.candidates.filter((candidate) => candidate.status === "accepted");
  const lines = [
    `# Synthesis report: ${report.config.domain}`,
    "",
    `Constructor ${report.config.model}, auditor ${report.config.auditorModel}, calibration ${report.config.calibrateModel ?? "(none)"}` +
      ` (${report.config.samples} samples, band (${report.config.band[0]}, ${report.config.band[1]}), ${report.config.harness}).`,
    `${report.candidates.length} candidates, ${accepted.length} accepted; ${report.intents.dropped.length} intents dropped as duplicates or malformed.`,
    "",
    "| candidate | status | stage | rounds | gates | auditor | pass rates v0/v1/v2/v3 | reason |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const candidate of report.candidates) {
    const gates = candidate.gates.length
      ? `${candidate.gates.filter((gate) => gate.passed).length}/${candidate.gates.length}`
      : "-";
    const rates = candidate.calibration
      ? SCALES.map((scale) => {
          const rate = candidate.calibration?.passRates[scale];
          return rate === null || rate === undefined ? "-" : rate.toFixed(2);
        }).join(" / ")
      : "-";
    const reason = candidate.reason.replace(/\|/g, "\\|").replace(/\n/g, " ").slice(0, 300);
    lines.push(
      `| ${candidate.id} | ${candidate.status} | ${candidate.stage} | ${candidate.rounds.length} | ${gates} | ${candidate.audit?.verdict ?? "-"} | ${rates} | ${reason} |`,
    );
  }
  lines.push(
    "",
    "## Model calls and tokens per stage",
    "",
    "| stage | calls | prompt tokens | completion tokens |",
    "| --- | --- | --- | --- |",
  );
  for (const [stage, usage] of stageTotals(report))
    lines.push(`| ${stage} | ${usage.calls} | ${usage.promptTokens} | ${usage.completionTokens} |`);
  const sum = total(report);
  lines.push(`| total | ${sum.calls} | ${sum.promptTokens} | ${sum.completionTokens} |`, "");
  for (const candidate of report.candidates) {
    lines.push(`## ${candidate.id} (${candidate.status})`, "", candidate.request, "");
    for (const round of candidate.rounds)
      lines.push(
        `- round ${round.round}: ${round.ok ? "passed" : `failed ${round.sandboxError ?? round.failedGates.map((gate) => gate.id).join(", ")}`}`,
      );
    if (candidate.audit)
      lines.push(
        `- auditor: ${candidate.audit.verdict}${candidate.audit.note ? ` (${candidate.audit.note})` : ""}: ${candidate.audit.reasons.join("; ")}`,
      );
    if (candidate.calibration) lines.push(`- calibration: ${candidate.calibration.reason}`);
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

/** Writes synth-report.json and synth-report.md, each atomically (a reader never sees half a file). */
export function writeSynthReport(outDir: string, report: SynthReport): void {
  report.updatedAt = new Date().toISOString();
  writeAtomically(join(outDir, SYNTH_REPORT_JSON), `${JSON.stringify(report, null, 2)}\n`);
  writeAtomically(join(outDir, SYNTH_REPORT_MARKDOWN), renderSynthMarkdown(report));
}

export function totalUsage(report: SynthReport): {
  calls: number;
  promptTokens: number;
  completionTokens: number;
} {
  return total(report);
}
