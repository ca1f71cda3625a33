import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openToolBench, readXlsx, type StateView, type ToolBench } from "../../envs/index.js";
import { restaurantTasks } from "./index.js";
import { expectedBelowPar } from "./tasks/below-par.js";
import { countWorkbooks, deliveries } from "./tasks/facts.js";
import { expectedOverTarget } from "./tasks/menu-costing.js";
import { expectedOvercharges } from "./tasks/price-breaches.js";
import { expectedCredits } from "./tasks/short-credits.js";
import { expectedStale, staleOrdersTask } from "./tasks/stale-orders.js";
import { restaurantTools } from "./tools.js";

const SEEDS = [1, 4];
let bench: ToolBench;

beforeAll(() => (bench = openToolBench(staleOrdersTask, restaurantTools, { seed: SEEDS[0]! })));
afterAll(() => bench.close());

const view = (seed: number): StateView => bench.build({ seed }).view;

async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }> {
  return bench.reply(name, args);
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
    const delivered = bench.db
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
    using stale = openToolBench(staleOrdersTask, restaurantTools, { seed });
    const expected = expectedStale(view(seed));
    const cancel = (po_id: string) => stale.call("cancel_order", { po_id });
    for (const id of expected) await cancel(id);
    const final = stale.view();
    const passes = async (answer: string): Promise<boolean> => {
      const context = { initial: view(seed), final, answer, scale: "v0", seed };
      return (await staleOrdersTask.verify(context)).every((item) => item.passed);
    };
    expect(await passes(`Cancelled ${expected.length} stale orders`)).toBe(true);
    expect(await passes(`Cancelled ${expected.length + 1} stale orders`)).toBe(false);
    const spared = stale.db
      .prepare("SELECT po_id FROM purchase_orders WHERE status = 'open'")
      .pluck()
      .get() as string;
    await cancel(spared);
    expect(await passes(`Cancelled ${expected.length} stale orders`)).toBe(false);
  });
});
