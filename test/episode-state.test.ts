import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openEpisodeState } from "../src/envs/episode-state.js";
import { buildInstance, openStateView } from "../src/envs/instance.js";
import { tinyTask } from "./fixtures/tiny-domain.js";

const cacheRoot = mkdtempSync(join(tmpdir(), "progagent-episode-state-test-"));
afterAll(() => rmSync(cacheRoot, { recursive: true, force: true }));

const digest = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");
const activeOf = (db: { prepare(sql: string): { get(): unknown } }): number =>
  (db.prepare("SELECT active FROM items WHERE id = 3").get() as { active: number }).active;

describe("an episode's state", () => {
  const instance = buildInstance(tinyTask, "v0", 0, cacheRoot);
  const before = digest(instance.dbPath);

  for (const [storage, limit] of [
    ["memory", undefined],
    ["file", 0],
  ] as const) {
    it(`is a private copy (${storage}): writes reach neither the instance nor another episode, and the verifier reads them`, async () => {
      const first = openEpisodeState(instance, limit);
      const second = openEpisodeState(instance, limit);
      try {
        expect(first.storage).toBe(storage);
        first.db.prepare("UPDATE items SET active = 0 WHERE id = 3").run();
        expect(activeOf(first.db)).toBe(0);
        expect(activeOf(second.db)).toBe(1);
        const final = first.finalState();
        expect(typeof final === "string").toBe(storage === "file");
        const view = openStateView(final, instance.workspaceDir);
        try {
          expect(activeOf(view.view.db)).toBe(0);
          // The verifier's view is read-only.
          expect(() => view.view.db.prepare("UPDATE items SET active = 1").run()).toThrow(/readonly/);
        } finally {
          view.close();
        }
        if (typeof final === "string") {
          expect(dirname(final).startsWith(dirname(instance.dbPath))).toBe(false);
          await first.close();
          expect(existsSync(dirname(final))).toBe(false);
        }
      } finally {
        await first.close().catch(() => undefined);
        await second.close();
      }
      expect(digest(instance.dbPath)).toBe(before);
    });
  }
});
