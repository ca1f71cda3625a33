import type { EpisodeSummary, SummaryColumn } from "../episode-summary.js";

/**
 * The episode list's model, without the page: rows from the API's columns, the columns and their filters,
 * sorting, and the counts of a filtered list. Pure functions, so they are tested without a browser.
 */

export type ListRow = Pick<EpisodeSummary, SummaryColumn> & { key: string; verdict: string };

export type ColumnKind = "text" | "choice" | "number";

export interface ListColumn {
  id: keyof ListRow;
  label: string;
  kind: ColumnKind;
  /** A number shown as tokens, milliseconds... */
  unit?: "tokens" | "ms";
}

export const LIST_COLUMNS: readonly ListColumn[] = [
  { id: "task", label: "task", kind: "text" },
  { id: "domain", label: "domain", kind: "choice" },
  { id: "harness", label: "harness", kind: "choice" },
  { id: "scale", label: "scale", kind: "choice" },
  { id: "seed", label: "seed", kind: "number" },
  { id: "sample", label: "sample", kind: "number" },
  { id: "model", label: "model", kind: "choice" },
  { id: "verdict", label: "verdict", kind: "choice" },
  { id: "endReason", label: "end reason", kind: "choice" },
  { id: "turns", label: "turns", kind: "number" },
  { id: "toolCalls", label: "tool calls", kind: "number" },
  { id: "codeBlocks", label: "code blocks", kind: "number" },
  { id: "runtimeErrors", label: "runtime errors", kind: "number" },
  { id: "toolOutputTokens", label: "tool-output tokens", kind: "number", unit: "tokens" },
  { id: "contextTokens", label: "context tokens", kind: "number", unit: "tokens" },
  { id: "wallTimeMs", label: "wall time", kind: "number", unit: "ms" },
  { id: "step", label: "step", kind: "number" },
  { id: "source", label: "source", kind: "choice" },
];

/** `pass` (reward 1), `fail` (0), `model error` (the endpoint failed: not the agent's), `-` (no verdict). */
export function verdictOf(reward: number | null, endReason: string): string {
  if (endReason === "model_error") return "model error";
  if (reward === null) return "-";
  return reward >= 1 ? "pass" : "fail";
}

/** The CSS class of a verdict. */
export function verdictClass(verdict: string): string {
  return verdict === "pass" || verdict === "fail"
    ? verdict
    : verdict === "model error"
      ? "model-error"
      : "none";
}

/** Rows from the API's column arrays. */
export function rowsFromColumns(columns: Record<string, unknown[]>, count: number): ListRow[] {
  // Column by column into objects made up front: 10,000 rows in a few milliseconds.
  const rows = Array.from({ length: count }, (): Record<string, unknown> => ({}));
  for (const [name, values] of Object.entries(columns))
    for (let index = 0; index < count; index += 1) rows[index]![name] = values[index];
  for (const row of rows) {
    const typed = row as unknown as ListRow;
    typed.key = `${typed.source}.${typed.line}`;
    typed.verdict = verdictOf(typed.reward, typed.endReason);
  }
  return rows as unknown as ListRow[];
}

export type Predicate = (value: unknown) => boolean;

/**
 * A number filter: `>10`, `>=10`, `<5`, `<=5`, `=3` or `3`, `!=0`, `3..8`; several separated by spaces must
 * all hold. A row without the number never matches. Null when the text is not a filter.
 */
export function numberPredicate(text: string): Predicate | null {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  const tests: Array<(value: number) => boolean> = [];
  for (const part of parts) {
    const range = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)$/.exec(part);
    if (range) {
      const [low, high] = [Number(range[1]), Number(range[2])];
      tests.push((value) => value >= low && value <= high);
      continue;
    }
    const match = /^(>=|<=|!=|>|<|=)?(-?\d+(?:\.\d+)?)(k)?$/i.exec(part);
    if (!match) return null;
    const bound = Number(match[2]) * (match[3] ? 1000 : 1);
    const operator = match[1] ?? "=";
    tests.push(
      {
        ">": (value: number) => value > bound,
        ">=": (value: number) => value >= bound,
        "<": (value: number) => value < bound,
        "<=": (value: number) => value <= bound,
        "!=": (value: number) => value !== bound,
        "=": (value: number) => value === bound,
      }[operator]!,
    );
  }
  if (tests.length === 0) return null;
  return (value) => typeof value === "number" && tests.every((test) => test(value));
}

function globPattern(glob: string): RegExp {
  const alternatives = glob.split(",").map((part) =>
    part
      .trim()
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, "."),
  );
  return new RegExp(`^(?:${alternatives.join("|")})$`, "i");
}

/**
 * A text filter: `=value` exact, a glob with `*`, `?` or a comma list (`retail.*,hr.*`), else a part of the
 * value, ignoring case; `!` in front negates.
 */
export function textPredicate(text: string): Predicate | null {
  let body = text.trim();
  if (body.length === 0) return null;
  const negate = body.startsWith("!");
  if (negate) body = body.slice(1);
  let test: (value: string) => boolean;
  if (body.startsWith("=")) {
    const exact = body.slice(1).toLowerCase();
    test = (value) => value.toLowerCase() === exact;
  } else if (/[*?,]/.test(body)) {
    const pattern = globPattern(body);
    test = (value) => pattern.test(value);
  } else {
    const part = body.toLowerCase();
    test = (value) => value.toLowerCase().includes(part);
  }
  return (value) => {
    const matched = value !== null && value !== undefined && test(String(value));
    return negate ? !matched : matched;
  };
}

export function predicateFor(column: ListColumn, text: string): Predicate | null {
  return column.kind === "number" ? numberPredicate(text) : textPredicate(text);
}

/** The list's state, as the address keeps it: filters by column, the search text, the sort, the page. */
export interface ListState {
  filters: Partial<Record<keyof ListRow, string>>;
  search: string;
  /** A column id, `-` in front for descending. */
  sort: string;
  page: number;
}

export function stateFromQuery(query: URLSearchParams): ListState {
  const filters: ListState["filters"] = {};
  for (const column of LIST_COLUMNS) {
    const value = query.get(`f.${column.id}`);
    if (value) filters[column.id] = value;
  }
  return {
    filters,
    search: query.get("q") ?? "",
    sort: query.get("sort") ?? "",
    page: Math.max(1, Number.parseInt(query.get("page") ?? "1", 10) || 1),
  };
}

export function queryFromState(state: ListState): URLSearchParams {
  const query = new URLSearchParams();
  for (const column of LIST_COLUMNS) {
    const value = state.filters[column.id];
    if (value) query.set(`f.${column.id}`, value);
  }
  if (state.search) query.set("q", state.search);
  if (state.sort) query.set("sort", state.sort);
  if (state.page > 1) query.set("page", String(state.page));
  return query;
}

/** The rows the filters keep (and, when a search ran, those it found), sorted. */
export function applyState(
  rows: readonly ListRow[],
  state: ListState,
  searchHits: ReadonlySet<string> | null,
): { rows: ListRow[]; invalid: Array<keyof ListRow> } {
  const invalid: Array<keyof ListRow> = [];
  const tests: Array<[keyof ListRow, Predicate]> = [];
  for (const column of LIST_COLUMNS) {
    const text = state.filters[column.id];
    if (!text) continue;
    const predicate = predicateFor(column, text);
    if (predicate) tests.push([column.id, predicate]);
    else invalid.push(column.id);
  }
  const kept = rows.filter(
    (row) =>
      (searchHits === null || searchHits.has(row.key)) && tests.every(([column, test]) => test(row[column])),
  );
  const descending = state.sort.startsWith("-");
  const sortColumn = (descending ? state.sort.slice(1) : state.sort) as keyof ListRow;
  if (sortColumn && LIST_COLUMNS.some((column) => column.id === sortColumn)) {
    const direction = descending ? -1 : 1;
    kept.sort((left, right) => direction * compareValues(left[sortColumn], right[sortColumn]));
  }
  return { rows: kept, invalid };
}

/** Numbers before text, missing values last in either direction of the caller's sort... in ascending order. */
function compareValues(left: unknown, right: unknown): number {
  if (left === right) return 0;
  if (left === null || left === undefined) return 1;
  if (right === null || right === undefined) return -1;
  if (typeof left === "number" && typeof right === "number") return left - right;
  return String(left).localeCompare(String(right), undefined, { numeric: true });
}

export interface ListCounts {
  episodes: number;
  /** Episodes with a verdict that did not end with a model error. */
  scored: number;
  passed: number;
  byHarness: Array<{ harness: string; scored: number; passed: number; episodes: number }>;
}

/** The counts and pass rates of a (filtered) list. */
export function countRows(rows: readonly ListRow[]): ListCounts {
  const byHarness = new Map<string, { harness: string; scored: number; passed: number; episodes: number }>();
  let scored = 0;
  let passed = 0;
  for (const row of rows) {
    const entry = byHarness.get(row.harness) ?? { harness: row.harness, scored: 0, passed: 0, episodes: 0 };
    byHarness.set(row.harness, entry);
    entry.episodes += 1;
    if (row.verdict !== "pass" && row.verdict !== "fail") continue;
    scored += 1;
    entry.scored += 1;
    if (row.verdict === "pass") {
      passed += 1;
      entry.passed += 1;
    }
  }
  return { episodes: rows.length, scored, passed, byHarness: [...byHarness.values()] };
}
