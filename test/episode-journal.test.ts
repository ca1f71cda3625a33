import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createEpisode, defineDomain, defineTask, type ToolContext } from "../src/envs/index.js";
import { ToolFailure, defineTool } from "../src/runtime/index.js";
import { tinyDomain, tinyTask } from "./fixtures/tiny-domain.js";

/** Deactivates several items in one transaction; an unknown id fails the whole call. */
const bulkDeactivate = defineTool({
  name: "bulk_deactivate",
  description: "Deactivate several items at once (all or none).",
  kind: "write",
  inputSchema: z.object({ item_ids: z.array(z.number().int()).describe("Item ids") }),
  handler: ({ item_ids }, context: ToolContext) => {
    const update = context.db.prepare("UPDATE items SET active = 0 WHERE id = ?");
    context.db.transaction(() => {
      for (const id of item_ids)
        if (update.run(id).changes === 0) throw new ToolFailure(`item ${id} not found`);
    })();
    return { deactivated: item_ids };
  },
});

const domain = defineDomain({ ...tinyDomain, id: "tiny_tx", tools: [...tinyDomain.tools, bulkDeactivate] });
const task = defineTask({
  ...tinyTask,
  id: "tiny_tx.deactivate",
  domain,
  tools: [...tinyTask.tools, "bulk_deactivate"],
});

const activeOf = async (
  episode: Awaited<ReturnType<typeof createEpisode>>,
  ids: number[],
): Promise<Array<boolean>> => {
  const result = await episode.callTool("list_items", { page: 1, per_page: 20 });
  const items = (result.structuredContent as { items: Array<{ id: number; active: number }> }).items;
  return ids.map((id) => items.find((item) => item.id === id)?.active === 1);
};

describe("an episode's private database (no durability, in-memory journal)", () => {
  it("rolls back a tool's failed transaction, and the verifier sees every committed write", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "progagent-episode-journal-"));
    try {
      const episode = await createEpisode(task, "v0", 0, { cacheDir });
      try {
        const failed = await episode.callTool("bulk_deactivate", { item_ids: [3, 7, 999] });
        expect(failed.isError).toBe(true);
        expect(await activeOf(episode, [3, 7, 11])).toEqual([true, true, true]);
        const done = await episode.callTool("bulk_deactivate", { item_ids: [3, 7, 11] });
        expect(done.isError).toBeUndefined();
        expect(await activeOf(episode, [3, 7, 11])).toEqual([false, false, false]);
        const verdict = await episode.finish("0");
        expect(verdict.checks.find((check) => check.id === "deactivated")?.passed).toBe(true);
        expect(verdict.checks.find((check) => check.id === "only-active-flag")?.passed).toBe(true);
      } finally {
        await episode.dispose();
      }
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
