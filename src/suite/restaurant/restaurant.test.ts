import Database from "better-sqlite3";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir, type TempDir } from "../../core/index.js";
import { buildInstance, openStateView, readXlsx } from "../../envs/index.js";
import type { Instance, StateView } from "../../envs/index.js";
import { bindTool } from "../../runtime/index.js";
import { restaurantTasks } from "./index.js";
import { expectedBelowPar } from "./tasks/below-par.js";
import { countWorkbooks, deliveries } from "./tasks/facts.js";
import { expectedOverTarget } from "./tasks/menu-costing.js";
import { expectedOvercharges } from "./tasks/price-breaches.js";
import { expectedCredits } from "./tasks/short-credits.js";
import { expectedStale, staleOrdersTask } from "./tasks/stale-orders.js";
import { restaurantTools } from "./tools.js";

const SEEDS = [1, 4];
let cache: TempDir;
const instances = new Map<number, { instance: Instance; state: { view: StateView; close(): void } }>();
let db: Database.Database;
const opened: Database.Database[] = [];

function episode(instance: Instance, name: string): string {
  const path = join(cache.path, `${name}.sqlite`);
  copyFileSync(instance.dbPath, path);
  db = new Database(path);
  opened.push(db);
  return path;
}

beforeAll(() => {
  cache = createTempDir("restaurant-test");
  for (const seed of SEEDS) {
    const instance = buildInstance(staleOrdersTask, "v0", seed, cache.path);
    instances.set(seed, { instance, state: openStateView(instance.dbPath, instance.workspaceDir) });
  }
});

afterAll(() => {
  for (const handle of opened) handle.close();
  for (const { state } of instances.values()) state.close();
  cache.dispose();
});

const view = (seed: number): StateView => instances.get(seed)!.state.view;

async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }> {
  const tool = restaurantTools.find((candidate) => candidate.name === name)!;
  const instance = instances.get(SEEDS[0]!)!.instance;
  const result = await bindTool(tool, { db, workspaceDir: instance.workspaceDir }).call(args, {
    signal: AbortSignal.timeout(5_000),
    timeoutMs: 5_000,
  });
  return {
    error: result.isError === true,
    text: result.content.map((part) => ("text" in part ? part.text : "")).join(""),
  };
}

describe("restaurant generator", () => {
  it.each(SEEDS)(
    "writes two count workbooks per location with several sheets, mixed units and dashes (seed %i)",
    (seed) => {
      const folders = countWorkbooks(view(seed));
      expect(folders.size).toBe(3);
      for (const paths of folders.values()) {
        expect(paths.map((p) => p.split("/").pop())).toEqual(["2025-W25.xlsx", "2025-W26.xlsx"]);
        const sheets = readXlsx(readFileSync(join(view(seed).workspaceDir, paths[1]!)));
        expect(sheets.length).toBeGreaterThan(2);
        expect(String(sheets[0]!.rows[0]![0])).toMatch(/\(LOC-\d\d\)$/);
        const units = new Set(
          sheets.flatMap((s) => s.rows.filter((r) => /^ITM-/.test(String(r[0]))).map((r) => r[2])),
        );
        expect([...units]).toEqual(expect.arrayContaining(["cs", "CS", "kg", "ea"]));
      }
    },
  );

  it.each(SEEDS)("plants the cases the near-misses turn on (seed %i)", (seed) => {
    const state = view(seed);
    expect([...expectedBelowPar(state).values()].every((items) => items.length > 0)).toBe(true);
    const lines = deliveries(state);
    expect(lines.some((d) => d.item_id !== d.ordered_item && d.delivered_on >= "2025-06-01")).toBe(true);
    expect(lines.some((d) => d.cases < d.ordered_cases && d.delivered_on < "2025-06-16")).toBe(true);
    expect(expectedOvercharges(state).size).toBeGreaterThan(0);
    const credits = expectedCredits(state);
    expect(credits.length).toBeGreaterThan(0);
    const credited = state.db.prepare("SELECT COUNT(*) AS n FROM credit_requests").get() as { n: number };
    expect(credited.n).toBeGreaterThan(0);
    expect(expectedOverTarget(state).has("RCP-003")).toBe(true);
    expect(expectedStale(state).length).toBeGreaterThan(2);
  });

  it("registers ten tasks", () => {
    expect(restaurantTasks).toHaveLength(10);
  });
});

describe("restaurant tools", () => {
  beforeAll(() => {
    episode(instances.get(SEEDS[0]!)!.instance, "tools");
  });

  it("fails a par listing page once with a 503 and a recipe lookup once with an error body", async () => {
    const page = { location_id: "LOC-02", page: 2, per_page: 50 };
    const first = await call("list_par_levels", page);
    expect(first.error).toBe(true);
    expect(first.text).toContain("503 Service Unavailable");
    expect(JSON.parse((await call("list_par_levels", page)).text).page).toBe(2);
    const recipe = await call("get_recipe", { recipe_id: "RCP-003" });
    expect(recipe.error).toBe(false);
    expect(JSON.parse(recipe.text)).toMatchObject({ status: "error" });
    expect(
      JSON.parse((await call("get_recipe", { recipe_id: "RCP-003" })).text).lines.length,
    ).toBeGreaterThan(2);
  });

  it("refuses to cancel an order that is not open, and rejects malformed ids", async () => {
    const delivered = db
      .prepare("SELECT po_id FROM purchase_orders WHERE status = 'delivered'")
      .pluck()
      .get() as string;
    const refused = await call("cancel_order", { po_id: delivered });
    expect(refused.error).toBe(true);
    expect(refused.text).toContain("only open orders can be cancelled");
    expect(
      (await call("place_order", { location_id: "LOC-1", item_id: "ITM-0001", cases: 1 })).text,
    ).toContain("location_id must look like LOC-");
  });
});

describe("restaurant.stale-orders", () => {
  it("rewards exactly the policy's cancellations and the right count", async () => {
    const seed = SEEDS[1]!;
    const path = episode(instances.get(seed)!.instance, "stale");
    const expected = expectedStale(view(seed));
    const cancel = (po_id: string) =>
      bindTool(
        restaurantTools.find((t) => t.name === "cancel_order")!,
        { db, workspaceDir: "" },
      ).call({ po_id }, { signal: AbortSignal.timeout(5_000), timeoutMs: 5_000 });
    for (const id of expected) await cancel(id);
    const final = openStateView(path, instances.get(seed)!.instance.workspaceDir);
    try {
      const passes = async (answer: string): Promise<boolean> => {
        const context = { initial: view(seed), final: final.view, answer, scale: "v0", seed };
        return (await staleOrdersTask.verify(context)).every((item) => item.passed);
      };
      expect(await passes(`Cancelled ${expected.length} stale orders`)).toBe(true);
      expect(await passes(`Cancelled ${expected.length + 1} stale orders`)).toBe(false);
      const spared = db
        .prepare("SELECT po_id FROM purchase_orders WHERE status = 'open'")
        .pluck()
        .get() as string;
      await cancel(spared);
      expect(await passes(`Cancelled ${expected.length} stale orders`)).toBe(false);
    } finally {
      final.close();
    }
  });
});
