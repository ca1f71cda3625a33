import type Database from "better-sqlite3";

/** Statement methods that switch a statement's mode or bind it for good: never applied to a shared statement. */
const MODE_METHODS = ["raw", "pluck", "expand", "safeIntegers", "bind"] as const;

/**
 * Makes `db.prepare(sql)` return one cached statement per SQL text on this handle (an episode's private
 * database), so that tool handlers that prepare on every call pay for preparation once. Returns the same
 * handle. The statements are finalised when the handle is closed (better-sqlite3 finalises every statement
 * of a connection at `close()`), and the cache goes with the handle.
 *
 * A cached statement is shared by every caller with the same SQL text, so it never changes mode: calling
 * `raw()`, `pluck()`, `expand()`, `safeIntegers()` or `bind()` on it applies to a freshly prepared statement
 * and returns that one, which is what a caller of an uncached `prepare` would get. A statement busy in an
 * `iterate()` is not handed out again: a nested `prepare` of the same SQL gets a fresh statement.
 */
export function cacheStatements(db: Database.Database): Database.Database {
  const prepareFresh = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  const shared = (sql: string): Database.Statement => {
    const statement = prepareFresh(sql);
    for (const method of MODE_METHODS) {
      Object.defineProperty(statement, method, {
        value: (...args: unknown[]) =>
          (prepareFresh(sql)[method] as (...values: unknown[]) => Database.Statement)(...args),
        configurable: true,
      });
    }
    return statement;
  };
  const prepare = (sql: string): Database.Statement => {
    const cached = cache.get(sql);
    if (cached) return cached.busy ? prepareFresh(sql) : cached;
    const statement = shared(sql);
    cache.set(sql, statement);
    return statement;
  };
  Object.defineProperty(db, "prepare", { value: prepare, configurable: true, writable: true });
  return db;
}
