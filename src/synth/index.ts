export { runSynthesis } from "./run-synthesis.js";
export type { SynthesisOptions, SynthesisOutcome } from "./run-synthesis.js";
export { calibrateSuite, CALIBRATION_FILE } from "./calibrate-suite.js";
export type { CalibrateSuiteOptions, CalibrateSuiteOutcome } from "./calibrate-suite.js";
export { parseBand, judgeCalibration, calibrateTrajectories, passRatesOf } from "./calibration.js";
export type { PassBand, TaskCalibration } from "./calibration.js";
export { createClientForSpec } from "./model-spec.js";
export type { ModelEndpoint } from "./model-spec.js";
export { runDraftSandbox, buildDraftSandboxCommand, SANDBOX_DRAFT_DIR } from "./draft-sandbox.js";
export type { DraftSandboxOptions, DraftSandboxResult } from "./draft-sandbox.js";
export { GATE_IDS } from "./draft-gates.js";
export { dedupeIntents, tokenSetSimilarity, NEAR_DUPLICATE_SIMILARITY } from "./intents.js";
export type { Intent } from "./intents.js";
export {
  readSynthReport,
  renderSynthMarkdown,
  totalUsage,
  SYNTH_REPORT_JSON,
  SYNTH_REPORT_MARKDOWN,
} from "./synth-report.js";
export type { SynthReport, CandidateRecord } from "./synth-report.js";
