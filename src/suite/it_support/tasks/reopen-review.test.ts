import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir, type TempDir } from "../../../core/index.js";
import { buildInstance, openStateView, type StateView } from "../../../envs/index.js";
import { expectedReopenCounts, reopenReviewTask } from "./reopen-review.js";

let cache: TempDir;
let state: { view: StateView; close(): void };

beforeAll(() => {
  cache = createTempDir("reopen-review-test");
  const instance = buildInstance(reopenReviewTask, "v0", 0, cache.path);
  state = openStateView(instance.dbPath, instance.workspaceDir);
});

afterAll(() => {
  state.close();
  cache.dispose();
});

async function passes(answer: Record<string, unknown>): Promise<boolean> {
  const checks = await reopenReviewTask.verify({
    initial: state.view,
    final: state.view,
    answer: JSON.stringify(answer),
    scale: "v0",
    seed: 0,
  });
  return checks.every((item) => item.passed);
}

describe("it_support.reopen-review verifier", () => {
  it("accepts a team listed with zero counts but not one given counts it did not have", async () => {
    const expected = Object.fromEntries(expectedReopenCounts(state.view.db));
    expect(await passes(expected)).toBe(true);
    expect(await passes({ ...expected, "No Such Team": { resolved: 0, reopened: 0 } })).toBe(true);
    expect(await passes({ ...expected, "No Such Team": { resolved: 2, reopened: 0 } })).toBe(false);
  });

  it("plants no status change after the data snapshot", () => {
    const { db } = state.view;
    const snapshot = (
      db.prepare("SELECT value FROM service_desk_settings WHERE key = 'snapshot_at'").get() as {
        value: string;
      }
    ).value;
    const later = db
      .prepare("SELECT COUNT(*) AS n FROM ticket_events WHERE created_at >= ?")
      .get(snapshot) as {
      n: number;
    };
    expect(later.n).toBe(0);
  });
});
