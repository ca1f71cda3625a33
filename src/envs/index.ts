export { SCALES, scaleSchema, SCALE_FACTORS, PAPER_SCALE_MEANS, parseScaleList } from "./scale.js";
export type { Scale } from "./scale.js";
export { defineDomain } from "./define-domain.js";
export type { DomainDefinition, DomainTool, GenerateContext, ToolContext } from "./define-domain.js";
export { defineTask } from "./define-task.js";
export type { TaskDefinition, VerifyContext, StateView, Check, Verdict, NearMiss } from "./define-task.js";
export {
  check,
  diffTable,
  tableNames,
  tableContent,
  checkOtherTablesUnchanged,
  parseAnswerNumber,
  parseAnswerJson,
  parseAnswerList,
  nearlyEqual,
} from "./verify-helpers.js";
export type { Row, TableDiff } from "./verify-helpers.js";
export {
  WORKSPACE_READ_TOOLS,
  WORKSPACE_WRITE_TOOL,
  resolveWorkspacePath,
  listWorkspaceFiles,
} from "./workspace-tools.js";
export {
  REFERENCE_DATE,
  buildInstance,
  createGenerateContext,
  instanceKey,
  defaultCacheDir,
  measureState,
  openStateView,
} from "./instance.js";
export type { Instance, InstanceStats, InstanceManifest } from "./instance.js";
export { CLAIM_DONE_TOOL_NAME, CLAIM_DONE_SPEC, claimDoneInputSchema, formatVerdict } from "./claim-done.js";
export { createEpisode, taskToolDefinitions } from "./episode.js";
export type { Episode, EpisodeOptions } from "./episode.js";
export { runCells } from "./run-cells.js";
export type { CellsRun, DirectCall } from "./run-cells.js";
export { validateTaskInstance } from "./validate.js";
export type { ValidationRow, ValidateOptions, ValidationEpisode } from "./validate.js";
export { computeScaleStats } from "./stats.js";
export type { ScaleStatsRow } from "./stats.js";
export { HARNESS_MODES, harnessModeSchema, episodeServedTools, episodeMcpSession } from "./episode-server.js";
export type { HarnessMode } from "./episode-server.js";
export { PYTHON_WORKSPACE_HELPERS } from "./python-helpers.js";
export {
  cachedStatement,
  MAX_PER_PAGE,
  DEFAULT_PER_PAGE,
  pageSchema,
  perPageSchema,
  pagingFields,
  isoDateSchema,
  when,
  listPage,
  pageEnvelope,
  paginateItems,
  getRow,
  allRows,
  requireRow,
  withBooleans,
  defineIdFormat,
  csvCell,
  toCsv,
  parseCsv,
  splitCsvLine,
  parseCsvRows,
  markdownTable,
  parseMarkdownTable,
  renderMarkdown,
  toJsonDocument,
  toDayNumber,
  fromDayNumber,
  addDays,
  daysBetween,
  weekdayIndex,
  weekdayName,
  mondayOf,
  rangesOverlap,
  nthWeekdayOfMonth,
  isWeekend,
  addBusinessDays,
  makeDate,
  dateRange,
  dateTime,
  longDate,
  previousMonth,
  roundCents,
  formatUsd,
  sumCents,
  weightedIndex,
  weightedPick,
  between,
  randomAmount,
  randomDate,
  slug,
  personName,
  sample,
  checkTableChanges,
  checkStateDiff,
  withTransientFailures,
  withSilentFailures,
} from "./kit/index.js";
export type {
  SqlCondition,
  PageEnvelope,
  ListPageOptions,
  IdFormat,
  IdFormatOptions,
  CsvValue,
  MarkdownBlock,
  PersonName,
  TableExpectation,
  FaultOptions,
  TransientFailureOptions,
  SilentFailureOptions,
} from "./kit/index.js";
