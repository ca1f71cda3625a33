import Database from "better-sqlite3";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  REFERENCE_DATE,
  listWorkspaceFiles,
  openStateView,
  type Instance,
  openToolBench,
  type ToolBench,
  instanceContents,
} from "../../envs/index.js";
import { propertyTasks } from "./index.js";
import { expectedLateFees, juneLateFeesTask } from "./tasks/june-late-fees.js";
import { propertyTools } from "./tools.js";

let bench: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(juneLateFeesTask, propertyTools);
  ({ instance, db } = bench);
});

afterAll(() => bench.close());

describe("property generator", () => {
  it("is deterministic per seed and differs across seeds", () => {
    const contents = instanceContents(bench.instance);
    expect(instanceContents(bench.rebuild())).toEqual(contents);
    expect(instanceContents(bench.rebuild({ seed: 4 })).tables).not.toEqual(contents.tables);
  });

  it("writes the policies, memo, rate card, bank export and about 13 files at v0", () => {
    const paths = listWorkspaceFiles(instance.workspaceDir);
    expect(paths).toEqual(
      expect.arrayContaining([
        "policies/late-fees.md",
        "policies/maintenance-sla.md",
        "memos/2025-renewal-caps.md",
        "vendors/rate-card.csv",
        "bank/operating-account-2025-ytd.csv",
      ]),
    );
    expect(paths.length).toBe(13);
  });

  it("registers at least eight tasks, each exposing only known tools", () => {
    expect(propertyTasks.length).toBeGreaterThanOrEqual(8);
    const names = new Set(propertyTools.map((tool) => tool.name));
    for (const task of propertyTasks) for (const tool of task.tools) expect(names.has(tool)).toBe(true);
  });
});

describe("property tools", () => {
  it("paginates listings in the kit envelope", async () => {
    const total = (db.prepare("SELECT COUNT(*) AS n FROM units").get() as { n: number }).n;
    const first = await bench.value("list_units", { per_page: 10 });
    expect(Object.keys(first)).toEqual(["units", "page", "per_page", "total", "has_more"]);
    expect(first.total).toBe(total);
    expect(first.has_more).toBe(true);
    const last = await bench.value("list_units", { per_page: 10, page: Math.ceil(total / 10) });
    expect(last.has_more).toBe(false);
  });

  it("teaches the id format and names the listing tool for unknown ids", async () => {
    expect(bench.errorText(await bench.call("get_lease", { lease_id: "42" }))).toContain(
      "lease_id must look like L-00123",
    );
    expect(bench.errorText(await bench.call("get_lease", { lease_id: "L-99999" }))).toContain(
      "lease L-99999 not found; use list_leases",
    );
  });

  it("fails the first bulk payment listing with a 503 and succeeds when repeated", async () => {
    const args = { entry_type: "payment", date_from: "2025-03-01" };
    expect(bench.errorText(await bench.call("list_ledger_entries", args))).toContain(
      "503 Service Unavailable",
    );
    const retried = await bench.value("list_ledger_entries", args);
    expect(Number(retried.total)).toBeGreaterThan(0);
    // A per-lease listing is not the heavy query and never fails.
    const lease = db.prepare("SELECT lease_id FROM leases WHERE status = 'active' LIMIT 1").get() as {
      lease_id: string;
    };
    expect(
      (await bench.call("list_ledger_entries", { lease_id: lease.lease_id, entry_type: "payment" })).isError,
    ).toBeFalsy();
  });

  it("answers the first get_inspection with an error body that is not an MCP error", async () => {
    const row = db.prepare("SELECT inspection_id FROM inspections LIMIT 1").get() as {
      inspection_id: string;
    };
    const first = await bench.call("get_inspection", { inspection_id: row.inspection_id });
    expect(first.isError).toBeFalsy();
    expect((first.structuredContent as Record<string, unknown>).status).toBe("error");
    const second = await bench.value("get_inspection", { inspection_id: row.inspection_id });
    expect(Array.isArray(second.items)).toBe(true);
  });

  it("posts one late fee per lease and period, on active leases only", async () => {
    const lease = db
      .prepare(
        "SELECT lease_id FROM leases WHERE status = 'active' AND lease_id NOT IN (SELECT lease_id FROM ledger_entries WHERE entry_type = 'late_fee' AND period = '2025-05') LIMIT 1",
      )
      .get() as { lease_id: string };
    const posted = await bench.value("post_late_fee", {
      lease_id: lease.lease_id,
      period: "2025-05",
      amount: 61.25,
    });
    expect(posted.entry).toMatchObject({ entry_type: "late_fee", amount: 61.25, entry_date: REFERENCE_DATE });
    expect(
      bench.errorText(
        await bench.call("post_late_fee", { lease_id: lease.lease_id, period: "2025-05", amount: 61.25 }),
      ),
    ).toContain("already has a late fee for 2025-05");
    const ended = db.prepare("SELECT lease_id FROM leases WHERE status = 'ended' LIMIT 1").get() as {
      lease_id: string;
    };
    expect(
      bench.errorText(
        await bench.call("post_late_fee", { lease_id: ended.lease_id, period: "2025-06", amount: 50 }),
      ),
    ).toContain("active leases only");
  });

  it("refuses to reassign finished work orders", async () => {
    const done = db
      .prepare("SELECT work_order_id FROM work_orders WHERE status = 'completed' LIMIT 1")
      .get() as {
      work_order_id: string;
    };
    expect(
      bench.errorText(
        await bench.call("assign_work_order", { work_order_id: done.work_order_id, vendor_id: "V-001" }),
      ),
    ).toContain("only unfinished work orders");
  });
});

describe("june-late-fees verifier", () => {
  it("rejects the untouched state and accepts exactly the expected fees", async () => {
    const cleanPath = join(bench.dir, "clean.sqlite");
    copyFileSync(instance.dbPath, cleanPath);
    const initial = openStateView(instance.dbPath, instance.workspaceDir);
    const untouched = openStateView(cleanPath, instance.workspaceDir);
    const context = { initial: initial.view, answer: "", scale: "v0", seed: 3 };
    try {
      const fees = expectedLateFees(initial.view);
      expect(fees.size).toBeGreaterThan(0);
      const nothing = await juneLateFeesTask.verify({ ...context, final: untouched.view });
      expect(nothing.every((item) => item.passed)).toBe(false);

      const handle = new Database(cleanPath);
      const insert = handle.prepare(
        "INSERT INTO ledger_entries (lease_id, entry_date, period, entry_type, amount, reference, memo) VALUES (?, ?, '2025-06', 'late_fee', ?, NULL, 'Late fee')",
      );
      for (const [lease, amount] of fees) insert.run(lease, REFERENCE_DATE, amount);
      handle.close();
      const total = [...fees.values()].reduce((sum, amount) => sum + amount, 0);
      const done = openStateView(cleanPath, instance.workspaceDir);
      try {
        const checks = await juneLateFeesTask.verify({
          ...context,
          final: done.view,
          answer: `${fees.size} fees, $${total.toFixed(2)}`,
        });
        expect(checks.filter((item) => !item.passed)).toEqual([]);
        // A reply that names the period first still counts the number before "fees".
        const dated = await juneLateFeesTask.verify({
          ...context,
          final: done.view,
          answer: `June 2025: posted ${fees.size} fees, $${total.toFixed(2)}`,
        });
        expect(dated.filter((item) => !item.passed)).toEqual([]);
      } finally {
        done.close();
      }
    } finally {
      untouched.close();
      initial.close();
    }
  });
});
