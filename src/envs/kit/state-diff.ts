import type Database from "better-sqlite3";
import type { Check, VerifyContext } from "../define-task.js";
import { checkAnswerCount } from "./answer-checks.js";
import { check, checkOtherTablesUnchanged, diffTable, type Row } from "../verify-helpers.js";

/** What a write task must have done to one table, compared row by row between the initial and final state. */
export interface TableExpectation {
  table: string;
  /** The column that identifies a row (default `rowid`). */
  key?: string;
  /**
   * Rows that must change, by key: the columns given must hold exactly these values afterwards and every
   * other column must keep its value. A row not listed here must not change.
   */
  changed?: ReadonlyMap<string | number, Row> | Readonly<Record<string, Row>>;
  /**
   * Rows that must be added: each expectation (the values of some columns) must match exactly one added row,
   * and no other row may be added.
   */
  added?: readonly Row[];
  /** Keys of rows that must be deleted; no other row may be deleted. */
  removed?: ReadonlyArray<string | number>;
  /**
   * Columns that may change on the expected rows without being listed (e.g. an `updated_at` stamped by the
   * tool). Columns of rows not expected to change are always compared.
   */
  ignoreColumns?: readonly string[];
}

function same(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "number" && typeof expected === "number") return Math.abs(actual - expected) < 1e-9;
  if (typeof expected === "boolean") return actual === (expected ? 1 : 0) || actual === expected;
  return actual === expected;
}

function describe(value: unknown): string {
  return value === null ? "null" : typeof value === "string" ? `'${value}'` : String(value);
}

/** A check that passes when there are no problems; its message is `success` or the problems, `; `-joined. */
function problemCheck(id: string, problems: Array<string | false>, success: string): Check {
  const found = problems.filter((problem): problem is string => problem !== false && problem !== "");
  return check(id, found.length === 0, found.length === 0 ? success : found.join("; "));
}

function entriesOf(map: TableExpectation["changed"]): Array<[string, Row]> {
  if (!map) return [];
  if (map instanceof Map)
    return [...(map as ReadonlyMap<string | number, Row>)].map(([key, row]) => [String(key), row]);
  return Object.entries(map as Readonly<Record<string, Row>>);
}

/**
 * Checks that one table changed exactly as expected and in no other way. Returns one check per kind of
 * change (`<table>-changed`, `<table>-added`, `<table>-removed`), each naming the first problems it found
 * (a wrong value with expected and actual, a missing change, a row changed that should not be).
 */
export function checkTableChanges(
  initial: Database.Database,
  final: Database.Database,
  expectation: TableExpectation,
): Check[] {
  const { table } = expectation;
  const diff = diffTable(initial, final, table, expectation.key ?? "rowid");
  const ignored = new Set(expectation.ignoreColumns ?? []);
  const checks: Check[] = [];

  const expectedChanges = new Map(entriesOf(expectation.changed));
  const problems: string[] = [];
  const changedKeys = new Map(diff.changed.map((change) => [change.key, change]));
  for (const [key, values] of expectedChanges) {
    const change = changedKeys.get(key);
    if (!change) {
      problems.push(`${table} ${key} did not change`);
      continue;
    }
    for (const [column, value] of Object.entries(values))
      if (!same(change.after[column], value))
        problems.push(
          `${table} ${key}.${column} is ${describe(change.after[column])}, expected ${describe(value)}`,
        );
    for (const column of Object.keys(change.after))
      if (!(column in values) && !ignored.has(column) && !same(change.after[column], change.before[column]))
        problems.push(
          `${table} ${key}.${column} changed (${describe(change.before[column])} -> ${describe(change.after[column])}) but should not`,
        );
  }
  const unexpected = diff.changed
    .filter((change) => !expectedChanges.has(change.key))
    .map((change) => change.key);
  if (unexpected.length > 0)
    problems.push(`${table} rows changed that should not be: ${unexpected.slice(0, 10).join(", ")}`);
  checks.push(
    check(
      `${table}-changed`,
      problems.length === 0,
      problems.length === 0
        ? `${expectedChanges.size} ${table} row(s) changed as expected, no other row changed`
        : problems.slice(0, 8).join("; "),
    ),
  );

  const expectedAdded = expectation.added ?? [];
  const remaining = [...diff.added];
  const missing: string[] = [];
  for (const values of expectedAdded) {
    const index = remaining.findIndex((row) =>
      Object.entries(values).every(([column, value]) => same(row[column], value)),
    );
    if (index < 0) missing.push(JSON.stringify(values));
    else remaining.splice(index, 1);
  }
  checks.push(
    problemCheck(
      `${table}-added`,
      [
        missing.length > 0 && `missing ${table} rows: ${missing.slice(0, 5).join(", ")}`,
        remaining.length > 0 &&
          `unexpected ${table} rows: ${remaining
            .slice(0, 5)
            .map((row) => JSON.stringify(row))
            .join(", ")}`,
      ],
      `${expectedAdded.length} ${table} row(s) added as expected`,
    ),
  );

  const keyColumn = expectation.key ?? "rowid";
  const expectedRemoved = new Set((expectation.removed ?? []).map(String));
  const removedKeys = new Set(diff.removed.map((row) => String(row[keyColumn])));
  const notRemoved = [...expectedRemoved].filter((key) => !removedKeys.has(key));
  const wronglyRemoved = [...removedKeys].filter((key) => !expectedRemoved.has(key));
  checks.push(
    problemCheck(
      `${table}-removed`,
      [
        notRemoved.length > 0 && `${table} rows not removed: ${notRemoved.slice(0, 10).join(", ")}`,
        wronglyRemoved.length > 0 &&
          `${table} rows removed that should stay: ${wronglyRemoved.slice(0, 10).join(", ")}`,
      ],
      `${expectedRemoved.size} ${table} row(s) removed as expected`,
    ),
  );
  return checks;
}

/**
 * The whole state difference of a write task: every listed table changed exactly as its expectation says,
 * and every other table is unchanged (`no-collateral-changes`, from `checkOtherTablesUnchanged`).
 *
 * @example
 * verify: ({ initial, final }) => checkStateDiff(initial.db, final.db, [
 *   { table: "tickets", key: "id", changed: new Map([[42, { status: "resolved" }]]), ignoreColumns: ["updated_at"] },
 *   { table: "ticket_events", key: "id", added: [{ ticket_id: 42, event_type: "status_changed" }] },
 * ])
 */
export function checkStateDiff(
  initial: Database.Database,
  final: Database.Database,
  expectations: readonly TableExpectation[],
): Check[] {
  return [
    ...expectations.flatMap((expectation) => checkTableChanges(initial, final, expectation)),
    checkOtherTablesUnchanged(
      initial,
      final,
      expectations.map((expectation) => expectation.table),
    ),
  ];
}

/**
 * The checks of a write task: exactly the expected changes to `tables` and nothing else (`checkStateDiff`), then
 * the reply's count of them (`checkAnswerCount`).
 */
export function checkCountedWrites(
  { initial, final, answer }: Pick<VerifyContext, "initial" | "final" | "answer">,
  count: number,
  tables: readonly TableExpectation[],
): Check[] {
  return [...checkStateDiff(initial.db, final.db, tables), checkAnswerCount(answer, count)];
}
