import type Database from "better-sqlite3";
import { cachedStatement } from "./statements.js";

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
