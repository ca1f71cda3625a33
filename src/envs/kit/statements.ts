import type Database from "better-sqlite3";

const statementCaches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * The prepared statement for `sql` on this database handle, prepared once and reused: one statement per SQL
 * text per handle (an episode's private database, a verifier's read-only view), released with the handle.
 *
 * Preparing costs about as much as running a small query, so tools that prepare on every call pay twice.
 * Cached statements are shared by every caller with the same SQL text: never switch one into `raw()`,
 * `pluck()` or `expand()` mode (prepare your own with `db.prepare` for that).
 *
 * @example
 * const row = cachedStatement(db, "SELECT * FROM customers WHERE id = ?").get(customerId);
 */
export function cachedStatement(db: Database.Database, sql: string): Database.Statement {
  let cache = statementCaches.get(db);
  if (!cache) {
    cache = new Map();
    statementCaches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
