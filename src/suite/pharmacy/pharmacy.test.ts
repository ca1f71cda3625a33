import Database from "better-sqlite3";
import { copyFileSync, readFileSync } from "node:fs";
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
import { pharmacyTasks } from "./index.js";
import { expectedQuarantine, quarantineRecalledLotsTask } from "./tasks/quarantine-recalled-lots.js";
import { pharmacyTools } from "./tools.js";
import { readCountSheets, readInvoice, readRecalls } from "./workspace-facts.js";

let bench: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(quarantineRecalledLotsTask, pharmacyTools);
  ({ instance, db } = bench);
});

afterAll(() => bench.close());

function one<Row>(sql: string, ...params: unknown[]): Row {
  return db.prepare(sql).get(...params) as Row;
}

describe("pharmacy generator", () => {
  it("is deterministic per seed and differs across seeds", () => {
    const contents = instanceContents(bench.instance);
    expect(instanceContents(bench.rebuild())).toEqual(contents);
    expect(instanceContents(bench.rebuild({ seed: 4 })).tables).not.toEqual(contents.tables);
  });

  it("writes policies, the P&T memo, par sheets, count sheets, recall notices and e-mail: 14 files at v0", () => {
    const paths = listWorkspaceFiles(instance.workspaceDir);
    expect(paths).toEqual(
      expect.arrayContaining([
        "policies/inventory-management.md",
        "policies/controlled-substances.md",
        "committee/formulary-memo-2025-06.md",
        "par/central-pharmacy.csv",
      ]),
    );
    expect(paths.filter((path) => path.startsWith("par/cabinets/"))).toHaveLength(3);
    expect(paths.filter((path) => path.startsWith("counts/"))).toHaveLength(3);
    expect(paths.filter((path) => path.startsWith("inbox/"))).toHaveLength(2);
    expect(paths.length).toBe(14);
  });

  it("renders recall notices and count sheets as text the readers parse back", () => {
    const view = openStateView(instance.dbPath, instance.workspaceDir);
    try {
      const recalls = readRecalls(view.view);
      expect(recalls.map((recall) => recall.recallClass).sort()).toEqual(["I", "II"]);
      // The e-mailed expansion adds a third lot to one notice.
      expect(recalls.map((recall) => recall.lotNumbers.length).sort()).toEqual([2, 3]);
      // The invoice bills at least the four planted received orders and one cancelled order.
      expect(readInvoice(view.view).lines.length).toBeGreaterThanOrEqual(5);
      const sheets = readCountSheets(view.view);
      expect(sheets).toHaveLength(3);
      expect(sheets.every((sheet) => sheet.date === REFERENCE_DATE && sheet.counts.size >= 3)).toBe(true);
      const text = readFileSync(
        join(instance.workspaceDir, "counts", `${sheets[0]!.cabinet}-${REFERENCE_DATE}-night.txt`),
        "utf8",
      );
      expect(text).toMatch(/^CONTROLLED SUBSTANCE SHIFT COUNT\nCabinet: LOC-\d{2} /);
    } finally {
      view.close();
    }
  });

  it("registers at least ten tasks, each exposing only known tools", () => {
    expect(pharmacyTasks.length).toBeGreaterThanOrEqual(10);
    const names = new Set(pharmacyTools.map((tool) => tool.name));
    for (const task of pharmacyTasks) for (const tool of task.tools) expect(names.has(tool)).toBe(true);
  });
});

describe("pharmacy tools", () => {
  it("paginates listings in the kit envelope and fails the second inventory page once with a 503", async () => {
    const total = one<{ n: number }>("SELECT COUNT(*) AS n FROM inventory").n;
    const first = await bench.value("list_inventory", { per_page: 10 });
    expect(Object.keys(first)).toEqual(["stock", "page", "per_page", "total", "has_more"]);
    expect(first.total).toBe(total);
    expect(first.has_more).toBe(true);
    expect(bench.errorText(await bench.call("list_inventory", { per_page: 10, page: 2 }))).toContain(
      "503 Service Unavailable",
    );
    const second = await bench.value("list_inventory", { per_page: 10, page: 2 });
    expect((second.stock as unknown[]).length).toBe(10);
  });

  it("teaches the id format and names the listing tool for unknown ids", async () => {
    expect(bench.errorText(await bench.call("get_lot", { lot_id: "42" }))).toContain(
      "lot_id must look like LOT-00123",
    );
    expect(bench.errorText(await bench.call("get_drug", { drug_id: "D-9999" }))).toContain(
      "drug D-9999 not found; use list_drugs",
    );
  });

  it("answers an unacknowledged cabinet lock with an error body, changes nothing, then quarantines", async () => {
    const row = one<{ stock_id: string }>(
      "SELECT stock_id FROM inventory WHERE status = 'available' AND CAST(substr(stock_id, 5) AS INTEGER) % 2 = 1 LIMIT 1",
    );
    const first = await bench.call("quarantine_stock", { stock_id: row.stock_id, reason: "RCL-test" });
    expect(first.isError).toBeFalsy();
    expect((first.structuredContent as Record<string, unknown>).status).toBe("error");
    expect(
      one<{ status: string }>("SELECT status FROM inventory WHERE stock_id = ?", row.stock_id).status,
    ).toBe("available");
    const second = await bench.value("quarantine_stock", { stock_id: row.stock_id, reason: "RCL-test" });
    expect(second.stock).toMatchObject({ status: "quarantined" });
    expect(
      bench.errorText(await bench.call("quarantine_stock", { stock_id: row.stock_id, reason: "RCL-test" })),
    ).toContain("already quarantined");
  });

  it("returns a whole stock row once and records the credit", async () => {
    const row = one<{ stock_id: string; quantity: number }>(
      "SELECT stock_id, quantity FROM inventory WHERE quantity > 0 ORDER BY stock_id DESC LIMIT 1",
    );
    const result = await bench.value("create_return", { stock_id: row.stock_id, reason: "expired" });
    expect(result.return).toMatchObject({
      quantity: row.quantity,
      reason: "expired",
      created_on: REFERENCE_DATE,
    });
    expect(result.stock).toMatchObject({ quantity: 0 });
    expect(
      bench.errorText(await bench.call("create_return", { stock_id: row.stock_id, reason: "expired" })),
    ).toContain("nothing to return");
  });

  it("fills the system quantity of a discrepancy from every lot in the cabinet", async () => {
    const pair = one<{ location_id: string; drug_id: string; total: number }>(
      `SELECT i.location_id, l.drug_id, SUM(i.quantity) AS total FROM inventory i JOIN lots l ON l.lot_id = i.lot_id
        JOIN drugs d ON d.drug_id = l.drug_id WHERE d.schedule IS NOT NULL AND i.location_id != 'LOC-01'
        GROUP BY i.location_id, l.drug_id LIMIT 1`,
    );
    const result = await bench.value("record_discrepancy", {
      location_id: pair.location_id,
      drug_id: pair.drug_id,
      count_date: REFERENCE_DATE,
      counted_quantity: pair.total - 2,
    });
    expect(result.discrepancy).toMatchObject({ system_quantity: pair.total, difference: -2 });
    const plain = one<{ drug_id: string }>("SELECT drug_id FROM drugs WHERE schedule IS NULL LIMIT 1");
    expect(
      bench.errorText(
        await bench.call("record_discrepancy", {
          location_id: pair.location_id,
          drug_id: plain.drug_id,
          count_date: REFERENCE_DATE,
          counted_quantity: 1,
        }),
      ),
    ).toContain("not a controlled substance");
  });

  it("answers the first page of a lot's dispense history with an error body", async () => {
    const lot = one<{ lot_id: string }>("SELECT lot_id FROM dispenses LIMIT 1");
    const first = await bench.call("list_dispenses", { lot_id: lot.lot_id });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).not.toHaveProperty("dispenses");
    expect(
      ((await bench.value("list_dispenses", { lot_id: lot.lot_id })).dispenses as unknown[]).length,
    ).toBeGreaterThan(0);
  });

  it("refuses refills for a pharmacy and substitutions of inactive orders", async () => {
    const drug = one<{ drug_id: string }>("SELECT drug_id FROM drugs LIMIT 1");
    expect(
      bench.errorText(
        await bench.call("request_refill", { location_id: "LOC-01", drug_id: drug.drug_id, quantity: 5 }),
      ),
    ).toContain("refills go to cabinets");
    const order = one<{ order_id: string }>(
      "SELECT order_id FROM medication_orders WHERE status = 'discontinued' LIMIT 1",
    );
    expect(
      bench.errorText(
        await bench.call("substitute_order", { order_id: order.order_id, drug_id: drug.drug_id, dose: 1 }),
      ),
    ).toContain("only active orders change");
  });
});

describe("quarantine-recalled-lots verifier", () => {
  it("rejects the untouched state and accepts exactly the expected quarantines", async () => {
    const cleanPath = join(bench.dir, "clean.sqlite");
    copyFileSync(instance.dbPath, cleanPath);
    const initial = openStateView(instance.dbPath, instance.workspaceDir);
    const untouched = openStateView(cleanPath, instance.workspaceDir);
    const context = { initial: initial.view, answer: "", scale: "v0", seed: 3 };
    try {
      const expected = expectedQuarantine(initial.view);
      expect(expected.length).toBeGreaterThan(0);
      const nothing = await quarantineRecalledLotsTask.verify({ ...context, final: untouched.view });
      expect(nothing.every((item) => item.passed)).toBe(false);
      const handle = new Database(cleanPath);
      const update = handle.prepare(
        "UPDATE inventory SET status = 'quarantined', quarantine_reason = 'recall' WHERE stock_id = ?",
      );
      for (const id of expected) update.run(id);
      handle.close();
      const done = openStateView(cleanPath, instance.workspaceDir);
      try {
        const checks = await quarantineRecalledLotsTask.verify({
          ...context,
          final: done.view,
          answer: `Quarantined ${expected.length} stock rows`,
        });
        expect(checks.filter((item) => !item.passed)).toEqual([]);
      } finally {
        done.close();
      }
    } finally {
      untouched.close();
      initial.close();
    }
  });
});
