export { SCALES, scaleSchema, SCALE_FACTORS, PAPER_SCALE_MEANS, parseScaleList } from "./scale.js";
export type { Scale } from "./scale.js";
export { defineDomain, fingerprintFolder } from "./define-domain.js";
export type { DomainDefinition, DomainTool, GenerateContext, ToolContext } from "./define-domain.js";
export { defineTask } from "./define-task.js";
export { defineSuite } from "./define-suite.js";
export type { SuiteDefinition } from "./define-suite.js";
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
  parseAnswerAmounts,
  checkAnswerAmounts,
  nearlyEqual,
} from "./verify-helpers.js";
export type { Row, TableDiff } from "./verify-helpers.js";
export { WORKSPACE_READ_TOOLS, WORKSPACE_WRITE_TOOL, listWorkspaceFiles } from "./workspace-tools.js";
export { WorkspaceFsError, parseWorkspacePath } from "./workspace-path.js";
export type { WorkspaceRefusal, WorkspaceFileEntry } from "./workspace-path.js";
export {
  readWorkspaceText,
  listWorkspaceEntries,
  searchWorkspaceFiles,
  writeWorkspaceText,
} from "./workspace-fs.js";
export type { WorkspaceFsOptions, SearchResult } from "./workspace-fs.js";
export type { SearchMatch } from "./line-matcher.js";
export {
  readWorkspaceTextSync,
  listWorkspaceEntriesSync,
  writeWorkspaceTextSync,
} from "./workspace-fs-sync.js";
export {
  REFERENCE_DATE,
  buildInstance,
  createGenerateContext,
  instanceKey,
  setTaskSourceFingerprint,
  defaultCacheDir,
  measureState,
  openStateView,
} from "./instance.js";
export type { Instance, InstanceStats, InstanceManifest } from "./instance.js";
export {
  CLAIM_DONE_TOOL_NAME,
  CLAIM_DONE_SPEC,
  claimDoneInputSchema,
  claimDoneActionInputSchema,
  claimDoneAnswer,
  formatVerdict,
} from "./claim-done.js";
export {
  TERMINAL_TOOL_NAME,
  TERMINAL_PROGRAMS,
  TERMINAL_ALLOWED,
  terminalInputSchema,
  parseTerminalCommand,
  checkWorkspacePath,
  refusedTerminalMessage,
} from "./terminal.js";
export type { ParsedTerminalCommand } from "./terminal.js";
export { INTERFACE_PROFILES, interfaceProfileNameSchema, interfaceProfile } from "./interface-profile.js";
export type { InterfaceProfile, InterfaceProfileName } from "./interface-profile.js";
export { createEpisode, taskToolDefinitions } from "./episode.js";
export type { Episode, EpisodeOptions } from "./episode.js";
export { assembleEpisode, startEpisodeWorkspace } from "./assemble-episode.js";
export type { EpisodeInstance, EpisodeParts } from "./assemble-episode.js";
export { defineExternalTask, isExternalTask } from "./define-external-task.js";
export type {
  ExternalDomain,
  ExternalInstance,
  ExternalOpenRequest,
  ExternalPrepareRequest,
  ExternalSession,
  ExternalTaskDefinition,
  ReferenceVariant,
  ReplacedCodeTool,
  Task,
} from "./define-external-task.js";
export { externalTaskSkippedError, prepareExternalInstance } from "./external-episode.js";
export { runCells } from "./run-cells.js";
export type { CellsRun, DirectCall } from "./run-cells.js";
export { validateTaskInstance, validateExternalInstance, validateInstance } from "./validate.js";
export type { ValidationRow, ExternalValidationRow, ValidateOptions, ValidationEpisode } from "./validate.js";
export { computeScaleStats } from "./stats.js";
export type { ScaleStatsRow } from "./stats.js";
export {
  HARNESS_MODES,
  harnessModeSchema,
  createEpisodeDriver,
  modeToolSpecs,
  refusedDirectCallMessage,
} from "./episode-driver.js";
export type {
  HarnessMode,
  EpisodeDriver,
  EpisodeDriverOptions,
  EpisodeDriverStats,
  DriverCallKind,
  DriverCallOutcome,
  DriverCallOptions,
} from "./episode-driver.js";
export {
  EPISODE_PROMPT_NAME,
  createEpisodeMcpServer,
  episodeInstructions,
  episodeMcpSession,
} from "./episode-server.js";
export { PYTHON_WORKSPACE_HELPERS, pythonClientHelpers, type PythonClientOptions } from "./python-helpers.js";
export { cachedStatement } from "./kit/statements.js";
export {
  MAX_PER_PAGE,
  DEFAULT_PER_PAGE,
  pageSchema,
  perPageSchema,
  pagingFields,
  isoDateSchema,
  optionalText,
  optionalInt,
  optionalChoice,
  optionalDate,
  when,
  listPage,
  defineListTool,
  defineGetTool,
  pageEnvelope,
  paginateItems,
  getRow,
  allRows,
  requireRow,
  withBooleans,
  insertRow,
} from "./kit/listing.js";
export type {
  SqlCondition,
  PageEnvelope,
  ListPageOptions,
  ListToolDefinition,
  FilterConditions,
  GetToolDefinition,
} from "./kit/listing.js";
export { defineIdFormat, prefixedId } from "./kit/ids.js";
export { requireEntity, updateEntity } from "./kit/entity-rows.js";
export { defineStatusTool } from "./kit/status-tools.js";
export { parseSiteUrl, queryListing } from "./kit/web-listing.js";
export type { ParsedUrl, ListingFilters, ListingQuery, ListingPage } from "./kit/web-listing.js";
export type { StatusToolDefinition } from "./kit/status-tools.js";
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
  renderEmail,
  PYTHON_MARKDOWN_HELPERS,
  requireFile,
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
  monthEndAfter,
  MONTH_NAMES,
  earlierDate,
  laterDate,
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
export { checkTableChanges, checkStateDiff, checkCountedWrites } from "./kit/state-diff.js";
export type { TableExpectation } from "./kit/state-diff.js";
export { withTransientFailures, withSilentFailures } from "./kit/tool-faults.js";
export { writeXlsx, readXlsx, columnLetter, zipEntries, unzipEntries } from "./kit/xlsx.js";
export { readWorkbookTool } from "./kit/workbook-tool.js";
export { CORRECT, flagNearMisses, variantNearMisses } from "./kit/near-misses.js";
export type { NearMissRow } from "./kit/near-misses.js";
export { variantTaskDefiner, type Flags, type VariantMisses, type VariantTask } from "./kit/variant-tasks.js";
export type { XlsxSheet, XlsxValue } from "./kit/xlsx.js";
export {
  PYTHON_SNAPSHOT_HELPERS,
  renderSnapshot,
  snapshotNode,
  snapshotLink,
  snapshotText,
  snapshotTable,
  snapshotFields,
} from "./kit/snapshot.js";
export type { SnapshotNode } from "./kit/snapshot.js";
export {
  attributionLine,
  clientDate,
  forwardBlock,
  FORWARD_MARKER,
  ownText,
  renderMessage,
  SIGNATURE_LINE,
  threadMessagesTable,
} from "./kit/mail-thread.js";
export type { ThreadMessage } from "./kit/mail-thread.js";
export { PYTHON_HTML_HELPERS, escapeHtml, htmlElement, htmlFields, htmlLink, htmlTable } from "./kit/html.js";
export {
  pythonFileLister,
  pythonPager,
  pythonRetryingCall,
  type PythonFileListerOptions,
  type PythonPagerOptions,
  type PythonRetryingCallOptions,
} from "./kit/python-pager.js";
export {
  PYTHON_OCR_HELPERS,
  OCR_AMOUNT_PATTERN,
  amountText,
  cell,
  hyphenate,
  numberCell,
  ocrAmount,
  ocrAmountsIn,
  ocrConfuse,
  parseOcrAmount,
  renderPages,
  scanStamp,
  strayLine,
} from "./kit/ocr.js";
export type { OcrAmountNoise } from "./kit/ocr.js";
export {
  checkProblems,
  checkAnswerTotal,
  checkAnswerCount,
  checkAnswerIdLists,
  checkAnswerIds,
  checkAnswerTally,
} from "./kit/answer-checks.js";
export { checkNone, compareAnswerAmounts, keysChangedBeyond } from "./kit/check-lists.js";
export type { AnswerAmountsDiff } from "./kit/check-lists.js";
export type { FaultOptions, TransientFailureOptions, SilentFailureOptions } from "./kit/tool-faults.js";
export { camelCaseName, columnName, draftsToCsv, insertDrafts, insertRecords } from "./kit/records.js";

export { answerObjectEntries, answerListItems } from "./kit/answer-fields.js";
export { insertKeyedRow } from "./kit/keyed-rows.js";
export { groupBy, sumBy } from "./kit/collections.js";
export { writeEmailsBySent } from "./kit/email-folder.js";
export type { FolderEmail } from "./kit/email-folder.js";
export { callTool, instanceContents, openToolBench } from "./kit/tool-bench.js";
export type { InstanceContents, ToolBench, ToolReply } from "./kit/tool-bench.js";
