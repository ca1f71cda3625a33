export { cachedStatement } from "./statements.js";
export {
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
} from "./listing.js";
export type { SqlCondition, PageEnvelope, ListPageOptions } from "./listing.js";
export { defineIdFormat } from "./ids.js";
export type { IdFormat, IdFormatOptions } from "./ids.js";
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
} from "./documents.js";
export type { CsvValue, MarkdownBlock } from "./documents.js";
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
} from "./dates.js";
export { roundCents, formatUsd, sumCents } from "./money.js";
export {
  weightedIndex,
  weightedPick,
  between,
  randomAmount,
  randomDate,
  slug,
  personName,
  sample,
} from "./seeded-data.js";
export type { PersonName } from "./seeded-data.js";
export { checkTableChanges, checkStateDiff } from "./state-diff.js";
export type { TableExpectation } from "./state-diff.js";
export { withTransientFailures, withSilentFailures } from "./tool-faults.js";
export type { FaultOptions, TransientFailureOptions, SilentFailureOptions } from "./tool-faults.js";
