export { analyzeCodeBlocks, CODE_ANALYSIS_FAILED } from "./code-features.js";
export type { CodeFeatures } from "./code-features.js";
export { passAtK } from "./pass-at-k.js";
export type { ComputeMetricsOptions } from "./metrics.js";
export { summarizeByHarnessAndScale } from "./summarize-by-harness-and-scale.js";
export { metricsRowSchema, summaryRowSchema, resultsFileSchema } from "./results-file.js";
export type { MetricsRow, SummaryRow, ResultsFile } from "./results-file.js";
export { buildReportContent, buildSummaryTable } from "./report-content.js";
export type { ReportInput, ReportContent, ReportTable } from "./report-content.js";
export { renderMarkdownReport } from "./report-markdown.js";
export { renderHtmlReport } from "./report-html.js";
export { formatSummaryTable } from "./format-summary-table.js";
export { writeReports } from "./write-reports.js";
export type { WriteReportsOptions, WrittenReports } from "./write-reports.js";
export { PAPER_REFERENCE } from "./paper-reference.js";
export { harnessLabel } from "./dimensions.js";
export { computeMetrics, DEFAULT_PASS_AT_K, isModelError } from "./metrics.js";
export {
  runEvaluation,
  clientFactoryFor,
  noOracleError,
  modelBaseUrl,
  finishedEpisodes,
  RETRIED_FILE,
} from "./run-evaluation.js";
export {
  RUN_CONFIG_FILE,
  runConfigSchema,
  buildRunConfig,
  describeRunConfigDifferences,
  readRunConfig,
} from "./run-config.js";
export type { RunConfig, RunConfigInput } from "./run-config.js";
export type {
  ClientFactory,
  ClientSource,
  ModelSpecOptions,
  EvaluationPlan,
  EvaluationOptions,
  EvaluationOutcome,
} from "./run-evaluation.js";
export { estimateRun, formatTokenCount } from "./estimate-run.js";
export type { RunEstimate } from "./estimate-run.js";
export { RUN_COST_FILE, readRunCost, writeRunCost } from "./run-cost.js";
export { BENCHMARK_REFERENCES, benchmarkReferenceFor } from "./paper-reference.js";
export type { BenchmarkReference } from "./paper-reference.js";
export type { RunCost } from "./report-content.js";
