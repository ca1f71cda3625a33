import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, allRows, openToolBench, type ToolBench } from "../../envs/index.js";
import { coopTasks } from "./index.js";
import { readScaleLogs } from "./logs.js";
import { readBinDays } from "./monitoring.js";
import { applyTicketsTask, expectedApplications } from "./tasks/apply-tickets.js";
import { expectedShortfalls } from "./tasks/contract-shortfalls.js";
import { expectedReconciliation } from "./tasks/scale-reconciliation.js";
import { coopTools, flakyContract } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(applyTicketsTask, coopTools, { seed: 0 })));
afterAll(() => bench.close());

/** The initial state of seed `seed`'s instance. */
const view = (seed: number) => bench.build({ seed }).view;

/** A new episode of seed 0 (a fresh private copy of its database) and a caller for the domain's tools on it. */
function episode() {
  bench.reset();
  return { call: (tool: string, args: Record<string, unknown>) => bench.reply(tool, args) };
}

describe("coop generator", () => {
  it.each([0, 3, 7])("plants the cases the near-misses turn on at seed %i", (seed) => {
    const state = view(seed);
    const { tickets, voided } = readScaleLogs(state);
    expect(voided.size).toBeGreaterThan(1);
    const reconciliation = expectedReconciliation(state);
    for (const list of Object.values(reconciliation)) expect(list.length).toBeGreaterThan(0);
    expect([...tickets.values()].some((t) => t.elevator_id === "ELV-02")).toBe(true);
    const log = state.readFile(state.listFiles().find((p) => p.startsWith("logs/ELV-02/"))!)!;
    expect(log).toMatch(/units KG\n/);
    expect(log).toMatch(/ L\d REISSUE tkt \d+ \(was \d+\)/);
    // Contracts: splits, fills, deferred contracts reached only after priced ones, shortfalls and near-fills.
    const { added, filled } = expectedApplications(state);
    expect(filled.length).toBeGreaterThan(0);
    expect(new Set(added.map((a) => a.ticket_id)).size).toBeLessThan(added.length);
    expect(expectedShortfalls(state).size).toBeGreaterThan(0);
    const nearFills = allRows(
      state.db,
      "SELECT c.contract_id FROM contracts c WHERE status = 'open' AND delivery_end < '2025-06-30' AND (SELECT SUM(bushels) FROM applications a WHERE a.contract_id = c.contract_id) >= 0.98 * bushels",
    );
    expect(nearFills.length).toBeGreaterThan(0);
    // The review's boundary plants: an unkeyed reissue, a drift of exactly the tolerance, a ticket applied
    // on its contract's first delivery day, and loads on the fiscal year's first and last days.
    const reissues = state
      .listFiles()
      .filter((p) => p.startsWith("logs/"))
      .flatMap((p) => [...state.readFile(p)!.matchAll(/REISSUE tkt (\d+)/g)].map((m) => `T-${m[1]}`));
    expect(reconciliation.missing.some((id) => reissues.includes(id))).toBe(true);
    const keyedNet = new Map(
      allRows<{ ticket_id: string; net_lb: number }>(state.db, "SELECT ticket_id, net_lb FROM tickets").map(
        (t) => [t.ticket_id, t.net_lb],
      ),
    );
    expect([...tickets.values()].some((t) => Math.abs(keyedNet.get(t.ticket_id)! - t.net_lb) === 5)).toBe(
      true,
    );
    const starts = new Map(
      allRows<{ contract_id: string; delivery_start: string }>(state.db, "SELECT * FROM contracts").map(
        (c) => [c.contract_id, c.delivery_start],
      ),
    );
    expect(added.some((a) => starts.get(a.contract_id) === tickets.get(a.ticket_id)?.ticket_date)).toBe(true);
    const days = allRows<{ ticket_date: string }>(state.db, "SELECT DISTINCT ticket_date FROM tickets");
    for (const day of ["2024-06-30", "2024-07-01", "2025-06-30"])
      expect(days.map((d) => d.ticket_date)).toContain(day);
  });

  it("keeps every bin's rise clear of the aeration threshold", () => {
    for (const seed of [0, 7]) {
      const state = view(seed);
      for (const days of readBinDays(state).values()) {
        const last = [...days.keys()].sort().at(-1)!;
        const rise = days.get(last)! - days.get(addDays(last, -3))!;
        expect(Math.abs(rise - 5)).toBeGreaterThan(0.5);
        expect(Math.abs((rise * 4) / 3 - 5)).toBeGreaterThan(0.2);
      }
      const csv = state.listFiles().filter((p) => p.startsWith("monitoring/"));
      expect(csv.some((p) => state.readFile(p)!.includes("temp_c"))).toBe(true);
      expect(csv.some((p) => state.readFile(p)!.includes(",-999\n"))).toBe(true);
    }
  });

  it("registers eight tasks", () => {
    expect(coopTasks).toHaveLength(8);
  });
});

describe("coop tools", () => {
  it("fails the way the brief says once, then answers, and teaches on bad arguments", async () => {
    const { call } = episode();
    const third = await call("list_tickets", { page: 3, per_page: 50 });
    expect(third.error).toBe(true);
    expect(third.text).toContain("503");
    expect((await call("list_tickets", { page: 3, per_page: 50 })).error).toBe(false);
    const flaky = allRows<{ contract_id: string }>(view(0).db, "SELECT contract_id FROM contracts").find(
      (c) => flakyContract(c.contract_id),
    )!.contract_id;
    const first = await call("get_contract", { contract_id: flaky });
    expect(first.error).toBe(false);
    expect(first.text).toContain('"status":"error"');
    expect((await call("get_contract", { contract_id: flaky })).text).toContain('"applications"');
    expect((await call("get_ticket", { ticket_id: "T-12" })).text).toContain("must look like T-");
    expect((await call("get_contract", { contract_id: "C-99999" })).text).toContain("not found");
    const voidTicket = allRows<{ ticket_id: string; member_id: string }>(
      view(0).db,
      "SELECT ticket_id, member_id FROM tickets WHERE status = 'void'",
    )[0]!;
    const refused = await call("apply_ticket", { ticket_id: voidTicket.ticket_id, contract_id: flaky });
    expect(refused.text).toMatch(/is void|not open/);
  });
});

describe("coop.apply-tickets", () => {
  it("rewards the delivery rules' applications after the 503s, and not one application more", async () => {
    const state = view(0);
    const { added } = expectedApplications(state);
    const { call } = episode();
    for (const a of added) {
      const args = { ticket_id: a.ticket_id, contract_id: a.contract_id };
      const first = await call("apply_ticket", args);
      if (first.error) expect(first.text).toContain("503");
      if (first.error) expect((await call("apply_ticket", args)).error).toBe(false);
    }
    const final = bench.view();
    const passes = async (answer: string) =>
      (await applyTicketsTask.verify({ initial: state, final, answer, scale: "v0", seed: 0 })).every(
        (item) => item.passed,
      );
    const count = new Set(added.map((a) => a.ticket_id)).size;
    expect(await passes(`Applied ${count} tickets`)).toBe(true);
    expect(await passes(`Applied ${count + 1} tickets`)).toBe(false);
  });
});
