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
export { cachedStatement } from "./kit/statements.js";
export {
  MAX_PER_PAGE,
  DEFAULT_PER_PAGE,
  pageSchema,
  perPageSchema,
  pagingFields,
  isoDateSchema,
  when,
  listPage,
  defineListTool,
  pageEnvelope,
  paginateItems,
  getRow,
  allRows,
  requireRow,
  withBooleans,
} from "./kit/listing.js";
export type { SqlCondition, PageEnvelope, ListPageOptions, ListToolDefinition } from "./kit/listing.js";
export { defineIdFormat } from "./kit/ids.js";
export type { IdFormat, IdFormatOptions } from "./kit/ids.js";
export {
  csvCell,
  toCsv,
  parseCsv,
  splitCsvLine,
  parseCsvRows,
  markdownTable,
  parseMarkdownTable,
  renderMarkdown,
  toJsonDocument,
} from "./kit/documents.js";
export type { CsvValue, MarkdownBlock } from "./kit/documents.js";
export {
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
} from "./kit/dates.js";
export { roundCents, formatUsd, sumCents } from "./kit/money.js";
export {
  weightedIndex,
  weightedPick,
  between,
  randomAmount,
  randomDate,
  slug,
  personName,
  sample,
} from "./kit/seeded-data.js";
export type { PersonName } from "./kit/seeded-data.js";
export { checkTableChanges, checkStateDiff } from "./kit/state-diff.js";
export type { TableExpectation } from "./kit/state-diff.js";
export { withTransientFailures, withSilentFailures } from "./kit/tool-faults.js";
export type { FaultOptions, TransientFailureOptions, SilentFailureOptions } from "./kit/tool-faults.js";
