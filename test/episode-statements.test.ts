import Database from "better-sqlite3";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirRoots } from "../src/core/index.js";
import { createEpisode } from "../src/envs/index.js";
import { tinyTask } from "./fixtures/tiny-domain.js";

describe("an episode's database", () => {
  it("prepares each SQL text of its tools once across calls, and finalises the statements with the episode", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "progagent-statement-cache-"));
    // eslint-disable-next-line @typescript-eslint/unbound-method -- restored below, always called with .call(this)
    const prototypePrepare = Database.prototype.prepare;
    const prepared: Array<{ sql: string; statement: Database.Statement }> = [];
    // Installed before the episode opens its handle, so it sees every statement the episode prepares.
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      const statement = prototypePrepare.call(this, sql) as Database.Statement;
      prepared.push({ sql, statement });
      return statement;
    } as typeof prototypePrepare;
    try {
      const episode = await createEpisode(tinyTask, "v0", 0, { cacheDir });
      const pages: unknown[] = [];
      try {
        for (let page = 1; page <= 3; page += 1) {
          const result = await episode.callTool("list_items", { page, per_page: 5 });
          expect(result.isError).toBeUndefined();
          pages.push(
            (result.structuredContent as { items: Array<{ id: number }> }).items.map((item) => item.id),
          );
        }
      } finally {
        await episode.dispose();
      }
      expect(pages).toEqual([
        [1, 2, 3, 4, 5],
        [6, 7, 8, 9, 10],
        [11, 12, 13, 14, 15],
      ]);
      const counts = prepared.filter((entry) => entry.sql === "SELECT COUNT(*) AS n FROM items");
      expect(counts).toHaveLength(1);
      expect(() => counts[0]!.statement.get()).toThrow(/not open/);
    } finally {
      Database.prototype.prepare = prototypePrepare;
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe("disposing an episode", () => {
  it("removes its workspace copy before dispose resolves and keeps its database off the disk", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "progagent-statement-cache-"));
    const ownDirs = (): string[] =>
      tempDirRoots().flatMap((root) =>
        readdirSync(root).filter((name) => name.startsWith(`progagent-${process.pid}-`)),
      );
    try {
      const before = ownDirs();
      const episode = await createEpisode(tinyTask, "v0", 0, { cacheDir });
      expect(existsSync(join(episode.workspaceDir, "memo.md"))).toBe(true);
      // The workspace is the episode's only directory: its database is a private in-memory copy.
      expect(ownDirs().length).toBe(before.length + 1);
      await episode.dispose();
      expect(existsSync(episode.workspaceDir)).toBe(false);
      expect(ownDirs()).toEqual(before);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
