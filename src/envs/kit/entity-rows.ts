import type Database from "better-sqlite3";
import type { IdFormat } from "./ids.js";
import type { Row } from "../verify-helpers.js";
import { getRow } from "./listing.js";

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
