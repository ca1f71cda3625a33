import type Database from "better-sqlite3";
import type { IdFormat } from "./ids.js";
import type { Row } from "../verify-helpers.js";
import { getRow } from "./listing.js";
import { cachedStatement } from "./statements.js";

/**
 * The row of `table` whose `format.field` column equals `id` (the columns in `select`, default all), or the
 * format's not-found failure (`invoice AP-09999 not found; use list_invoices to find invoice ids`). For
 * write tools that check a row's state before they change it, and return it after:
 * `if (requireEntity(db, "invoices", invoiceId, id, "status").status !== "open") throw new ToolFailure(...)`.
 */
export function requireEntity<Result = Row>(
  db: Database.Database,
  table: string,
  format: IdFormat,
  id: string,
  select = "*",
): Result {
  const row = getRow<Result>(db, `SELECT ${select} FROM ${table} WHERE ${format.field} = ?`, id);
  if (row === undefined) throw format.notFound(id);
  return row;
}

/**
 * Sets `set`'s columns (in its key order) on the row of `table` whose `format.field` column equals `id`, and
 * returns the whole row as it is after the change. The caller has checked that the row exists (`requireEntity`).
 * For write tools that change a row and return it: `return { hold: updateEntity(db, "holds", holdId, id, {
 * released_on: REFERENCE_DATE }) }`.
 */
export function updateEntity(
  db: Database.Database,
  table: string,
  format: IdFormat,
  id: string,
  set: Readonly<Row>,
): Row {
  const columns = Object.keys(set);
  if (columns.length === 0) throw new Error(`updateEntity(${table}): nothing to set`);
  const assignments = columns.map((column) => `${column} = ?`).join(", ");
  const sql = `UPDATE ${table} SET ${assignments} WHERE ${format.field} = ?`;
  cachedStatement(db, sql).run(...Object.values(set), id);
  return requireEntity(db, table, format, id);
}
