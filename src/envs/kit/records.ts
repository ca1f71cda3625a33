import type Database from "better-sqlite3";
import { cachedStatement } from "./statements.js";
import { toCsv, type CsvValue } from "./documents.js";

/** The snake_case column a camelCase field names (`unitCost` -> `unit_cost`, `weightKg` -> `weight_kg`). */
export function columnName(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Inserts records built as objects by a generator, in order: each field is the column of its snake_case
 * name, booleans are stored as 1/0 (SQLite cannot bind them). One cached statement per set of columns.
 */
export function insertRecords(db: Database.Database, table: string, records: readonly object[]): void {
  for (const record of records) {
    const entries = Object.entries(record);
    const columns = entries.map(([field]) => columnName(field));
    const sql = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
    cachedStatement(db, sql).run(
      ...entries.map(([, value]) => (typeof value === "boolean" ? (value ? 1 : 0) : value)),
    );
  }
}

/** The camelCase property name of a snake_case column: `order_line_id` -> `orderLineId`, `card_last4` -> `cardLast4`. */
export function camelCaseName(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/**
 * Inserts a generator's in-memory drafts into one table, one row per draft, in the drafts' order, with one
 * cached statement. `columns` lists the table's columns (`"id, order_id, line_number"`); each column takes the
 * draft's camelCase property of the same name (`id`, `orderId`, `lineNumber`) unless `values(draft)` gives it
 * (a renamed or computed column). Booleans are stored as 1/0; a column with no value throws, naming it.
 *
 * @example
 * insertDrafts(db, "order_lines", "id, order_id, line_number, sku, quantity, line_total", lines);
 * insertDrafts(db, "returns", "id, order_id, order_line_id, status", returns, (item) => ({ order_line_id: item.lineId }));
 */
export function insertDrafts<Draft extends object>(
  db: Database.Database,
  table: string,
  columns: string,
  drafts: Iterable<Draft>,
  values?: (draft: Draft) => Readonly<Record<string, unknown>>,
): void {
  const names = columnNames(columns);
  const statement = cachedStatement(
    db,
    `INSERT INTO ${table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
  );
  for (const draft of drafts) {
    const given = values?.(draft) ?? {};
    const row = names.map((name) => {
      const value = columnValue(draft, name, given, `insertDrafts ${table}`);
      return typeof value === "boolean" ? (value ? 1 : 0) : value;
    });
    statement.run(...row);
  }
}

function columnNames(columns: string): string[] {
  return columns.split(",").map((column) => column.trim());
}

function columnValue(
  draft: object,
  name: string,
  given: Readonly<Record<string, unknown>>,
  who: string,
): unknown {
  const value = name in given ? given[name] : (draft as Record<string, unknown>)[camelCaseName(name)];
  if (value === undefined) throw new Error(`${who}: no value for column ${name}`);
  return value;
}

/**
 * A CSV document (`toCsv`) of drafts, one line per draft: the header row is `columns`, and each cell is the
 * draft's camelCase property of the column's name unless `values(draft)` gives it (null is the empty cell).
 *
 * @example
 * draftsToCsv("order_id, placed_at, total", orders, (order) => ({ order_id: order.id, total: order.total.toFixed(2) }));
 */
export function draftsToCsv<Draft extends object>(
  columns: string,
  drafts: readonly Draft[],
  values?: (draft: Draft) => Readonly<Record<string, CsvValue>>,
): string {
  const names = columnNames(columns);
  return toCsv(
    names,
    drafts.map((draft) => {
      const given = values?.(draft) ?? {};
      return names.map((name) => columnValue(draft, name, given, "draftsToCsv") as CsvValue);
    }),
  );
}
