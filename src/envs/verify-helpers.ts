import type Database from "better-sqlite3";
import type { Check } from "./define-task.js";

export function check(id: string, passed: boolean, message: string): Check {
  return { id, passed, message };
}

export type Row = Record<string, unknown>;

export interface TableDiff {
  added: Row[];
  removed: Row[];
  changed: Array<{ key: string; before: Row; after: Row }>;
}

/** Row-level difference of one table between two states, keyed by a column (or `rowid`). */
export function diffTable(
  initial: Database.Database,
  final: Database.Database,
  table: string,
  keyColumn = "rowid",
): TableDiff {
  const select = `SELECT ${keyColumn === "rowid" ? "rowid AS rowid, *" : "*"} FROM "${table}"`;
  const index = (db: Database.Database): Map<string, Row> =>
    new Map((db.prepare(select).all() as Row[]).map((row) => [String(row[keyColumn]), row]));
  const before = index(initial);
  const after = index(final);
  const diff: TableDiff = { added: [], removed: [], changed: [] };
  for (const [key, row] of after) {
    const old = before.get(key);
    if (!old) diff.added.push(row);
    else if (JSON.stringify(old) !== JSON.stringify(row)) diff.changed.push({ key, before: old, after: row });
  }
  for (const [key, row] of before) if (!after.has(key)) diff.removed.push(row);
  return diff;
}

export function tableNames(db: Database.Database): string[] {
  return (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as Array<{ name: string }>
  ).map((row) => row.name);
}

/** Every row of a table in a canonical order (all columns), as JSON; works for WITHOUT ROWID tables too. */
export function tableContent(db: Database.Database, table: string): string {
  const columns = (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map(
    (column) => `"${column.name}"`,
  );
  const rows = db
    .prepare(`SELECT ${columns.join(", ")} FROM "${table}" ORDER BY ${columns.join(", ")}`)
    .raw()
    .all();
  return JSON.stringify(rows);
}

/** A check that every table not listed has exactly the same rows as before. */
export function checkOtherTablesUnchanged(
  initial: Database.Database,
  final: Database.Database,
  allowed: string[],
): Check {
  const touched: string[] = [];
  const initialTables = new Set(tableNames(initial));
  const finalTables = new Set(tableNames(final));
  for (const table of initialTables) {
    if (allowed.includes(table)) continue;
    if (!finalTables.has(table) || tableContent(initial, table) !== tableContent(final, table))
      touched.push(table);
  }
  for (const table of finalTables)
    if (!allowed.includes(table) && !initialTables.has(table)) touched.push(table);
  return check(
    "no-collateral-changes",
    touched.length === 0,
    touched.length === 0 ? "no other table changed" : `unexpected changes in: ${touched.join(", ")}`,
  );
}

/** Extracts the first number of an answer (commas and currency signs allowed); null if none. */
export function parseAnswerNumber(answer: string): number | null {
  const match = answer.replace(/,/g, "").match(/-?\d+(?:\.\d+)?/);
  return match ? Number(match[0]) : null;
}

/** Parses an answer as JSON, tolerating surrounding prose or a fenced code block; null if none. */
export function parseAnswerJson(answer: string): unknown {
  const fenced = answer.match(/```(?:json)?\s*([\s\S]*?)```/);
  const candidates = [fenced?.[1], answer, answer.slice(answer.search(/[[{]/))];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate.trim()) as unknown;
    } catch {
      // try the next form
    }
  }
  return null;
}

/** Compares two numbers with a tolerance suited to money (default 0.01). */
export function nearlyEqual(actual: number, expected: number, tolerance = 0.01): boolean {
  return Math.abs(actual - expected) <= tolerance;
}

/** Normalises identifier lists given as JSON arrays or comma/newline separated text. */
export function parseAnswerList(answer: string): string[] {
  const json = parseAnswerJson(answer);
  const items = Array.isArray(json) ? json.map(String) : answer.split(/[\n,;]+/);
  return items.map((item) => item.trim()).filter((item) => item.length > 0);
}

/**
 * Reads a JSON object answer of key -> number (numbers may be strings like "$1,234.50"); keys trimmed. Null
 * when the answer holds no such object.
 */
export function parseAnswerAmounts(answer: string): Map<string, number> | null {
  const value = parseAnswerJson(answer);
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const amounts = new Map<string, number>();
  for (const [key, amount] of Object.entries(value as Record<string, unknown>)) {
    const number = typeof amount === "number" ? amount : Number(String(amount).replace(/[$,\s]/g, ""));
    if (!Number.isFinite(number)) return null;
    amounts.set(key.trim(), number);
  }
  return amounts;
}

/**
 * One check: the answer is a JSON object with exactly the expected keys, each number within `tolerance`
 * (default half a cent; 0 for counts). The message names the first missing, wrong and unexpected keys.
 */
export function checkAnswerAmounts(
  id: string,
  answer: string,
  expected: ReadonlyMap<string, number>,
  tolerance = 0.006,
): Check {
  const actual = parseAnswerAmounts(answer);
  if (actual === null) return check(id, false, "the answer holds no JSON object of numbers");
  const problems: string[] = [];
  for (const [key, amount] of expected) {
    const got = actual.get(key);
    if (got === undefined) problems.push(`missing ${key}`);
    else if (!nearlyEqual(got, amount, tolerance)) problems.push(`${key}: expected ${amount}, got ${got}`);
  }
  for (const key of actual.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return check(
    id,
    problems.length === 0,
    problems.length === 0 ? "all match" : problems.slice(0, 5).join("; "),
  );
}
