import { mkdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { ERROR_CODES, ProgAgentError, removeTreeSync } from "../core/index.js";
import { SCALES, type HarnessMode, type Scale } from "../envs/index.js";
import type { ModelClient } from "../harness/index.js";
import { loadSuite } from "../suite/index.js";
import { runAuditor } from "./auditor.js";
import { judgeCalibration, type PassBand } from "./calibration.js";
import { runConstructor, type DraftValidation } from "./constructor.js";
import { createDomainContext } from "./domain-context.js";
import { openDraftFolder } from "./draft-folder.js";
import { runDraftSandbox } from "./draft-sandbox.js";
import { proposeIntents, type Intent } from "./intents.js";
import {
  SYNTH_REPORT_JSON,
  SYNTH_REPORT_MARKDOWN,
  readSynthReport,
  writeSynthReport,
  type CandidateRecord,
  type SynthConfig,
  type SynthReport,
} from "./synth-report.js";
import { writeSuiteIndex, writeSuiteModule } from "./suite-writer.js";
import { addUsage, emptyUsage } from "./tool-session.js";
import type { CalibrationReport, ValidationReport } from "./worker-protocol.js";

export interface SynthesisOptions {
  domain: string;
  outDir: string;
  candidates: number;
  maxRounds: number;
  /** The constructor (and intents) model. */
  model: { spec: string; baseUrl: string | null; client: ModelClient };
  auditor: { spec: string; baseUrl: string | null; client: ModelClient };
  calibration?: {
    spec: string;
    baseUrl: string | null;
    client: ModelClient;
    samples: number;
    band: PassBand;
    harness: HarnessMode;
    maxTurns?: number;
  };
  suiteName?: string;
  /** Scales and seeds of the gates (default all four scales, seeds 0 and 1). */
  scales?: Scale[];
  seeds?: number[];
  maxConstructorTurns?: number;
  /** Per draft validation or calibration run in the sandbox. */
  sandboxTimeoutMs?: number;
  forceNew?: boolean;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export interface SynthesisOutcome {
  report: SynthReport;
  accepted: string[];
  reportPath: string;
  markdownPath: string;
}

const MIN_NEAR_MISSES = 2;
const MIN_ORACLE_CALLS_V0 = 10;

function configOf(options: SynthesisOptions, suiteName: string): SynthConfig {
  return {
    domain: options.domain,
    model: options.model.spec,
    baseUrl: options.model.baseUrl,
    auditorModel: options.auditor.spec,
    auditorBaseUrl: options.auditor.baseUrl,
    calibrateModel: options.calibration?.spec ?? null,
    calibrateBaseUrl: options.calibration?.baseUrl ?? null,
    candidates: options.candidates,
    maxRounds: options.maxRounds,
    samples: options.calibration?.samples ?? 0,
    band: options.calibration ? [options.calibration.band.low, options.calibration.band.high] : [0, 1],
    harness: options.calibration?.harness ?? "ptc",
    suiteName,
  };
}

function differences(recorded: SynthConfig, current: SynthConfig): string[] {
  return (Object.keys(current) as Array<keyof SynthConfig>)
    .filter((key) => JSON.stringify(recorded[key]) !== JSON.stringify(current[key]))
    .map((key) => `${key}: ${JSON.stringify(recorded[key])} -> ${JSON.stringify(current[key])}`);
}

function suiteNameFor(outDir: string): string {
  const name = basename(resolve(outDir))
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[^a-z]+/, "");
  return (name || "synthesised").slice(0, 64);
}

function newCandidate(domain: string, intent: Intent): CandidateRecord {
  return {
    id: `${domain}.${intent.slug}`,
    slug: intent.slug,
    request: intent.request,
    status: "pending",
    stage: "construct",
    reason: "",
    rounds: [],
    constructorTurns: 0,
    gates: [],
    oracleToolCalls: {},
    audit: null,
    calibration: null,
    tokens: { construct: emptyUsage(), audit: emptyUsage(), calibrate: emptyUsage() },
    module: null,
  };
}

/**
 * The task factory: intents -> constructor (sandboxed validation, repairs) -> auditor -> difficulty filter ->
 * the accepted tasks as modules of a suite folder, with a JSON and Markdown report written after every stage.
 * Re-running with the same `outDir` resumes: decided candidates are kept, an unfinished one starts over.
 */
export async function runSynthesis(options: SynthesisOptions): Promise<SynthesisOutcome> {
  const outDir = resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const suiteName = options.suiteName ?? suiteNameFor(outDir);
  const config = configOf(options, suiteName);
  const scales = options.scales ?? [...SCALES];
  const seeds = options.seeds ?? [0, 1];
  const progress = options.onProgress ?? (() => undefined);
  if (options.forceNew) {
    for (const name of [SYNTH_REPORT_JSON, SYNTH_REPORT_MARKDOWN, "index.ts", "tasks", ".synth"])
      removeTreeSync(join(outDir, name));
  }
  let report = readSynthReport(outDir);
  if (report) {
    const changed = differences(report.config, config);
    if (changed.length > 0)
      throw new ProgAgentError(
        `${outDir} holds a synthesis run with a different configuration (${changed.join("; ")}): resume with the same options, choose another --out, or start over with --force-new`,
        { code: ERROR_CODES.RUN_CONFIG_MISMATCH, category: "user", details: { outDir, changed } },
      );
  }
  const domainTasks = await loadSuite(`${options.domain}.*`);
  const context = createDomainContext(domainTasks);
  const now = new Date().toISOString();
  report ??= {
    schemaVersion: 1,
    config,
    startedAt: now,
    updatedAt: now,
    intents: { proposed: 0, dropped: [], tokens: emptyUsage() },
    candidates: [],
  };
  const current = report;
  const save = (): void => writeSynthReport(outDir, current);

  // Intents: only as many as still missing (a resume keeps those it has).
  if (current.candidates.length < options.candidates) {
    const existing = [
      ...current.candidates.map((candidate) => ({ slug: candidate.slug, request: candidate.request })),
      ...domainTasks.map((task) => ({
        slug: task.id.slice(options.domain.length + 1),
        request: task.instruction,
      })),
    ];
    progress(`proposing ${options.candidates - current.candidates.length} intents`);
    const proposed = await proposeIntents({
      client: options.model.client,
      context,
      count: options.candidates - current.candidates.length,
      usage: current.intents.tokens,
      existing,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    current.intents.proposed += proposed.intents.length + proposed.dropped.length;
    current.intents.dropped.push(...proposed.dropped);
    for (const intent of proposed.intents) current.candidates.push(newCandidate(options.domain, intent));
    save();
    if (current.candidates.length < options.candidates)
      progress(`only ${current.candidates.length} distinct intents after the model's proposals`);
  }

  const sandboxTimeoutMs = options.sandboxTimeoutMs ?? 30 * 60_000;
  for (const candidate of current.candidates) {
    if (candidate.status !== "pending") continue;
    options.signal?.throwIfAborted();
    const draft = openDraftFolder(join(outDir, ".synth", "drafts", candidate.slug));
    // An unfinished candidate starts over: its draft and its spending so far stay in the record of tokens.
    draft.reset();
    const tokens = candidate.tokens;
    Object.assign(candidate, newCandidate(options.domain, candidate), { tokens });
    progress(`${candidate.id}: constructing`);
    const validate = async (): Promise<DraftValidation> => {
      const startedAt = Date.now();
      const result = await runDraftSandbox({
        draftDir: draft.dir,
        timeoutMs: sandboxTimeoutMs,
        request: {
          kind: "validate",
          module: "task.ts",
          scales,
          seeds,
          cellTimeoutMs: 60_000,
          domain: options.domain,
          minNearMisses: MIN_NEAR_MISSES,
          minOracleCallsV0: MIN_ORACLE_CALLS_V0,
        },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      draft.sweep();
      const validation: DraftValidation = {
        report: result.report?.kind === "validation" ? result.report : null,
        log: result.log,
        durationMs: Date.now() - startedAt,
      };
      if (!validation.report) validation.error = result.error ?? "the sandbox sent no validation report";
      return validation;
    };
    const constructed = await runConstructor({
      client: options.model.client,
      context,
      intent: candidate,
      taskId: candidate.id,
      draft,
      validate,
      maxRounds: options.maxRounds,
      maxTurns: options.maxConstructorTurns ?? 60,
      minNearMisses: MIN_NEAR_MISSES,
      usage: candidate.tokens.construct,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    candidate.rounds = constructed.rounds;
    candidate.constructorTurns = constructed.turns;
    const lastReport: ValidationReport | null = constructed.lastReport;
    candidate.gates = lastReport?.gates ?? [];
    candidate.oracleToolCalls = Object.fromEntries(
      (lastReport?.rows ?? []).map((row) => [`${row.scale}/${row.seed}`, row.oracleToolCalls]),
    );
    if (!constructed.converged || !lastReport) {
      Object.assign(candidate, { status: "rejected", stage: "construct", reason: constructed.reason });
      save();
      progress(`${candidate.id}: rejected (${constructed.reason})`);
      continue;
    }
    const moduleText = draft.readModule()!;

    candidate.stage = "audit";
    progress(`${candidate.id}: auditing`);
    const audit = await runAuditor({
      client: options.auditor.client,
      moduleText,
      report: lastReport,
      usage: candidate.tokens.audit,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    candidate.audit = audit;
    if (audit.verdict !== "accept") {
      Object.assign(candidate, {
        status: "rejected",
        reason: `auditor rejected: ${[audit.note, ...audit.reasons].filter(Boolean).join("; ") || "no reason given"}`,
      });
      save();
      progress(`${candidate.id}: rejected by the auditor`);
      continue;
    }

    if (options.calibration) {
      candidate.stage = "calibrate";
      save();
      progress(`${candidate.id}: calibrating`);
      const calibration = options.calibration;
      const result = await runDraftSandbox({
        draftDir: draft.dir,
        timeoutMs: sandboxTimeoutMs,
        client: calibration.client,
        onModelCall: (response) => addUsage(candidate.tokens.calibrate, response),
        request: {
          kind: "calibrate",
          module: "task.ts",
          domain: options.domain,
          model: calibration.spec,
          scales,
          samples: calibration.samples,
          seed: seeds[0]!,
          harness: calibration.harness,
          maxTurns: calibration.maxTurns ?? 50,
          maxTokensPerTurn: 8_192,
        },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      draft.sweep();
      const calibrationReport: CalibrationReport | null =
        result.report?.kind === "calibration" ? result.report : null;
      if (!calibrationReport || calibrationReport.error) {
        const reason = `calibration failed: ${calibrationReport?.error ?? result.error ?? "no report"}`;
        Object.assign(candidate, { status: "rejected", reason });
        save();
        continue;
      }
      if (calibrationReport.modelErrors > 0) {
        // Errors of the world are not difficulty: leave the candidate pending so that a resume calibrates again.
        candidate.reason = `calibration had ${calibrationReport.modelErrors} model error(s); resume to run it again`;
        save();
        throw new ProgAgentError(`${candidate.id}: ${candidate.reason}`, {
          code: ERROR_CODES.MODEL_ERRORS,
          category: "upstream",
        });
      }
      const judged = judgeCalibration(candidate.id, calibrationReport.passRates, calibration.band, scales);
      candidate.calibration = {
        passRates: calibrationReport.passRates,
        kept: judged.kept,
        reason: judged.reason,
        episodes: calibrationReport.episodes,
        modelErrors: calibrationReport.modelErrors,
      };
      if (!judged.kept) {
        Object.assign(candidate, { status: "rejected", reason: `difficulty filter: ${judged.reason}` });
        save();
        progress(`${candidate.id}: filtered out by difficulty`);
        continue;
      }
    }

    candidate.stage = "write";
    candidate.module = writeSuiteModule(outDir, candidate.slug, moduleText);
    Object.assign(candidate, {
      status: "accepted",
      reason: options.calibration
        ? "passed every gate, the auditor and the difficulty filter"
        : "passed every gate and the auditor (no difficulty filter: no --calibrate-model)",
    });
    const modules = current.candidates
      .filter((item) => item.status === "accepted" && item.module)
      .map((item) => item.module!);
    writeSuiteIndex(outDir, suiteName, modules);
    save();
    progress(`${candidate.id}: accepted`);
  }
  save();
  return {
    report: current,
    accepted: current.candidates
      .filter((candidate) => candidate.status === "accepted")
      .map((candidate) => candidate.id),
    reportPath: join(outDir, SYNTH_REPORT_JSON),
    markdownPath: join(outDir, SYNTH_REPORT_MARKDOWN),
  };
}
