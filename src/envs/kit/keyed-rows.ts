import type Database from "better-sqlite3";
import type { Row } from "../verify-helpers.js";
import { getRow } from "./listing.js";
import { cachedStatement } from "./statements.js";

/**
 * `insertRow` for a table keyed by a column of its own, such as a `WITHOUT ROWID` table (which `insertRow` cannot
 * read back): inserts the row (columns from the object's keys, in order) with a cached statement and returns it
 * as stored, found by `keyColumn`.
 *
 * @example
 * const booking = insertKeyedRow(db, "bookings", "booking_id", { ...old, booking_id: "BK-000124", status: "confirmed" });
 */
export function insertKeyedRow(
  db: Database.Database,
  table: string,
  keyColumn: string,
  row: Readonly<Row>,
): Row {
  const columns = Object.keys(row);
  const sql = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  cachedStatement(db, sql).run(...Object.values(row));
  return getRow(db, `SELECT * FROM ${table} WHERE ${keyColumn} = ?`, row[keyColumn])!;
}
