import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { cacheStatements } from "./statement-cache.js";

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function storeDb(): Database.Database {
  const db = new Database(":memory:");
  opened.push(db);
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
  const insert = db.prepare("INSERT INTO items (id, name) VALUES (?, ?)");
  for (let id = 1; id <= 5; id += 1) insert.run(id, `item ${id}`);
  return cacheStatements(db);
}

describe("cacheStatements", () => {
  it("hands out the same prepared statement for the same SQL text, and a different one per text and handle", () => {
    const db = storeDb();
    const other = storeDb();
    const sql = "SELECT name FROM items WHERE id = ?";
    const statement = db.prepare(sql);
    expect(db.prepare(sql)).toBe(statement);
    expect(db.prepare("SELECT id FROM items WHERE id = ?")).not.toBe(statement);
    expect(other.prepare(sql)).not.toBe(statement);
    expect(db.prepare(sql).get(2)).toEqual({ name: "item 2" });
  });

  it("never changes the mode of a shared statement: pluck, raw and bind apply to a fresh one", () => {
    const db = storeDb();
    const sql = "SELECT id, name FROM items WHERE id = ?";
    expect(db.prepare(sql).pluck().get(3)).toBe(3);
    expect(db.prepare(sql).raw().get(3)).toEqual([3, "item 3"]);
    expect(db.prepare(sql).bind(4).get()).toEqual({ id: 4, name: "item 4" });
    // The shared statement still returns objects and takes its parameter per call.
    expect(db.prepare(sql).get(3)).toEqual({ id: 3, name: "item 3" });
  });

  it("gives a nested prepare of a statement that is iterating its own fresh statement", () => {
    const db = storeDb();
    const sql = "SELECT id FROM items ORDER BY id";
    const seen: number[] = [];
    for (const row of db.prepare(sql).iterate() as Iterable<{ id: number }>) {
      seen.push(row.id, db.prepare(sql).all().length);
    }
    expect(seen).toEqual([1, 5, 2, 5, 3, 5, 4, 5, 5, 5]);
  });

  it("runs transactions and pragmas on the same handle", () => {
    const db = storeDb();
    const rename = db.transaction((id: number) => {
      db.prepare("UPDATE items SET name = ? WHERE id = ?").run("renamed", id);
    });
    rename(1);
    expect(db.prepare("SELECT name FROM items WHERE id = ?").get(1)).toEqual({ name: "renamed" });
    expect(db.pragma("user_version", { simple: true })).toBe(0);
  });

  it("finalises the cached statements when the handle closes", () => {
    const db = storeDb();
    const statement = db.prepare("SELECT name FROM items WHERE id = ?");
    db.close();
    expect(() => statement.get(1)).toThrow(/not open/);
  });
});
