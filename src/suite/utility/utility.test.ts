import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openToolBench, type ToolBench } from "../../envs/index.js";
import { utilityTasks } from "./index.js";
import { readNotes } from "./notes.js";
import { readOutages } from "./scada.js";
import { expectedFollowUps } from "./tasks/critical-care-calls.js";
import { expectedDispatches, dispatchEmergenciesTask } from "./tasks/dispatch-emergencies.js";
import { expectedVisits } from "./tasks/estimate-visits.js";
import { expectedFieldReads } from "./tasks/field-reads.js";
import { utilityTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(dispatchEmergenciesTask, utilityTools, { seed: 0 })));
afterAll(() => bench.close());

/** The initial state of seed `seed`'s instance. */
const view = (seed: number) => bench.build({ seed }).view;

/** A new episode of seed 0 (a fresh private copy of its database) and a caller for the domain's tools on it. */
function episode() {
  bench.reset();
  return { call: (tool: string, args: Record<string, unknown>) => bench.reply(tool, args) };
}

describe("utility generator", () => {
  it.each([0, 3, 7])("plants the cases the near-misses turn on at seed %i", (seed) => {
    const state = view(seed);
    const outages = readOutages(state);
    expect(outages.some((o) => o.minutes === 5)).toBe(true); // exactly at the momentary threshold
    expect(
      outages.some(
        (o) =>
          o.end - o.start > 0 &&
          new Date(o.start * 1000).getUTCDate() !== new Date(o.end * 1000).getUTCDate(),
      ),
    ).toBe(true);
    expect(expectedFollowUps(state).length).toBeGreaterThan(0);
    expect(expectedVisits(state).length).toBeGreaterThan(0);
    const notes = readNotes(state);
    expect(notes.some((n) => n.done)).toBe(true);
    expect(notes.some((n) => !n.done)).toBe(true);
    expect(expectedFieldReads(state).length).toBeLessThan(notes.filter((n) => n.reading !== null).length);
    const dump = state.readFile(state.listFiles().find((p) => p.startsWith("handheld/"))!);
    expect(dump).toMatch(
      /^HH-SYNC EXPORT {2}crew CRW-\d\d .* date \d\d\/\d\d\/2025\ntimes local CDT \(UTC-5\)/,
    );
  });

  it("registers nine tasks", () => {
    expect(utilityTasks).toHaveLength(9);
  });
});

describe("utility tools", () => {
  it("answers a slow second page with an empty partial body once, and refuses bad writes", async () => {
    const { call } = episode();
    const second = await call("list_work_orders", { page: 2, per_page: 50 });
    expect(second.error).toBe(false);
    expect(second.text).toContain('"status":"partial"');
    expect((await call("list_work_orders", { page: 2, per_page: 50 })).text).not.toContain("partial");
    const stock = await call("get_truck_stock", { crew_id: "CRW-02" });
    expect(stock.text).toContain("sync pending");
    expect((await call("get_truck_stock", { crew_id: "CRW-02" })).text).toContain('"quantity"');
    expect((await call("get_work_order", { work_order_id: "WO-1" })).text).toContain("must look like WO-");
    expect((await call("get_work_order", { work_order_id: "WO-99999" })).text).toContain("not found");
    const open = (await call("list_work_orders", { status: "open", per_page: 1 })).body as {
      work_orders: Array<{ work_order_id: string }>;
    };
    const refused = await call("complete_work_order", {
      work_order_id: open.work_orders[0]!.work_order_id,
      completed_at: "2025-06-29T10:00:00Z",
    });
    expect(refused.text).toContain("only dispatched orders are completed");
  });
});

describe("utility.dispatch-emergencies", () => {
  it("rewards the policy's dispatches after the 503s, and not one crew too many", async () => {
    const state = view(0);
    const expected = expectedDispatches(state);
    const { call } = episode();
    for (const [id, crew] of expected) {
      const first = await call("dispatch_work_order", { work_order_id: id, crew_id: crew });
      if (first.error) expect(first.text).toContain("503");
      if (first.error)
        expect((await call("dispatch_work_order", { work_order_id: id, crew_id: crew })).error).toBe(false);
    }
    const final = bench.view();
    const passes = async (answer: string) =>
      (
        await dispatchEmergenciesTask.verify({
          initial: state,
          final,
          answer,
          scale: "v0",
          seed: 0,
        })
      ).every((item) => item.passed);
    expect(await passes(`Dispatched ${expected.size} work orders`)).toBe(true);
    expect(await passes(`Dispatched ${expected.size + 1} work orders`)).toBe(false);
  });
});
