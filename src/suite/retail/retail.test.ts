import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGenerateContext, listWorkspaceFiles } from "../../envs/index.js";
import { bindTool } from "../../runtime/index.js";
import type { ToolCallResult } from "../../runtime/index.js";
import { PATHS, computeRecallCancellations, readNotices, recallScope } from "./expectations.js";
import { retailDomain } from "./index.js";
import { decideReturn } from "./policy.js";

const directories: string[] = [];

function buildInstance(seed: number): { db: Database.Database; workspaceDir: string } {
  const workspaceDir = mkdtempSync(join(tmpdir(), "retail-test-"));
  directories.push(workspaceDir);
  const db = new Database(":memory:");
  db.exec(retailDomain.schemaSql);
  const context = createGenerateContext({
    db,
    workspaceDir,
    scale: "v0",
    seed: seed,
    stream: retailDomain.id,
  });
  db.transaction(() => retailDomain.generate(context))();
  return { db, workspaceDir };
}

function fingerprint(instance: { db: Database.Database; workspaceDir: string }): string {
  const hash = createHash("sha256");
  for (const table of ["customers", "products", "orders", "order_lines", "payments", "returns", "refunds"])
    hash.update(JSON.stringify(instance.db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()));
  for (const file of listWorkspaceFiles(instance.workspaceDir))
    hash.update(file).update(readFileSync(join(instance.workspaceDir, file)));
  return hash.digest("hex");
}

let instance: { db: Database.Database; workspaceDir: string };

async function call(name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
  const tool = retailDomain.tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return bindTool(tool, instance).call(args, { signal: AbortSignal.timeout(10_000), timeoutMs: 10_000 });
}

async function callOk(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

beforeAll(() => {
  instance = buildInstance(11);
});

afterAll(() => {
  instance.db.close();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe("retail generator", () => {
  it("is deterministic for a seed and differs across seeds", () => {
    const again = buildInstance(11);
    const other = buildInstance(12);
    expect(fingerprint(again)).toBe(fingerprint(instance));
    expect(fingerprint(other)).not.toBe(fingerprint(instance));
    again.db.close();
    other.db.close();
  });

  it("writes the fixed documents plus the scaled batches", () => {
    const files = listWorkspaceFiles(instance.workspaceDir);
    for (const path of [
      PATHS.returnsPolicy,
      PATHS.promotionsPolicy,
      PATHS.recallProcedure,
      PATHS.closeMemo,
      PATHS.watchList,
    ])
      expect(files).toContain(path);
    expect(files.length).toBeGreaterThanOrEqual(12);
    expect(files.length).toBeLessThanOrEqual(15);
  });

  it("keeps order totals consistent with their lines", () => {
    const mismatched = instance.db
      .prepare(
        `SELECT o.id FROM orders o JOIN order_lines l ON l.order_id = o.id GROUP BY o.id
         HAVING abs(SUM(l.line_total) - (o.subtotal - o.discount_total)) > 0.011`,
      )
      .all();
    expect(mismatched).toEqual([]);
  });

  it("leaves open orders holding recalled SKUs", () => {
    const view = {
      readFile: (path: string) => readFileSync(join(instance.workspaceDir, path), "utf8"),
      listFiles: () => listWorkspaceFiles(instance.workspaceDir),
    };
    expect(computeRecallCancellations(instance.db, recallScope(readNotices(view))).length).toBeGreaterThan(0);
  });
});

describe("retail tools", () => {
  it("paginates list_orders with a stable envelope", async () => {
    const first = await callOk("list_orders", { per_page: 50 });
    const total = first.total as number;
    expect((first.orders as unknown[]).length).toBe(Math.min(50, total));
    expect(first.has_more).toBe(total > 50);
    const last = await callOk("list_orders", { per_page: 50, page: Math.ceil(total / 50) });
    expect(last.has_more).toBe(false);
    const rejected = await call("list_orders", { per_page: 51 });
    expect(rejected.isError).toBe(true);
  });

  it("filters orders by SKU and date range", async () => {
    const sku = (instance.db.prepare("SELECT sku FROM order_lines LIMIT 1").get() as { sku: string }).sku;
    const result = await callOk("list_orders", { sku, per_page: 50 });
    for (const summary of result.orders as Array<{ id: number }>) {
      const order = await callOk("get_order", { order_id: summary.id });
      expect((order.lines as Array<{ sku: string }>).some((line) => line.sku === sku)).toBe(true);
    }
    const day = await callOk("list_orders", {
      placed_from: "2025-06-01",
      placed_to: "2025-06-01",
      per_page: 50,
    });
    for (const summary of day.orders as Array<{ placed_at: string }>)
      expect(summary.placed_at.slice(0, 10)).toBe("2025-06-01");
  });

  it("reports unknown ids as tool errors", async () => {
    const result = await call("get_order", { order_id: 1 });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("not found");
  });

  it("cancels only unshipped orders and voids their authorization", async () => {
    const delivered = instance.db
      .prepare("SELECT id FROM orders WHERE status = 'delivered' LIMIT 1")
      .get() as { id: number };
    const refused = await call("cancel_order", { order_id: delivered.id, reason: "customer_request" });
    expect(refused.isError).toBe(true);
    const pending = instance.db.prepare("SELECT id FROM orders WHERE status = 'pending' LIMIT 1").get() as {
      id: number;
    };
    const result = await callOk("cancel_order", { order_id: pending.id, reason: "customer_request" });
    expect(result).toMatchObject({ status: "cancelled", payment_status: "voided" });
    const again = await call("cancel_order", { order_id: pending.id, reason: "customer_request" });
    expect(again.isError).toBe(true);
  });

  it("approves a return with a restocking fee on its merchandise value, once", async () => {
    const pending = instance.db
      .prepare(
        `SELECT r.id, r.quantity, l.line_total, l.quantity AS line_quantity FROM returns r
           JOIN order_lines l ON l.id = r.order_line_id WHERE r.status = 'requested' LIMIT 1`,
      )
      .get() as { id: number; quantity: number; line_total: number; line_quantity: number };
    const result = await callOk("approve_return", { return_id: pending.id, restocking_fee_percent: 15 });
    const value = Math.round((pending.line_total / pending.line_quantity) * pending.quantity * 100) / 100;
    expect(result.merchandise_value).toBeCloseTo(value, 2);
    expect(result.restocking_fee).toBeCloseTo(Math.round(value * 15) / 100, 2);
    const again = await call("reject_return", { return_id: pending.id, reason: "too late" });
    expect(again.isError).toBe(true);
  });
});

describe("retail policy", () => {
  const base = {
    category: "Home & Kitchen",
    reason: "changed_mind",
    itemCondition: "unopened",
    daysSinceDelivery: 30,
    merchandiseValue: 50,
    customerWatchListed: false,
  };

  it("counts the last day of the window as on time", () => {
    expect(decideReturn(base).status).toBe("approved");
    expect(decideReturn({ ...base, daysSinceDelivery: 31 }).status).toBe("rejected");
  });

  it("applies category windows, the defect window and the fee", () => {
    expect(decideReturn({ ...base, category: "Electronics", daysSinceDelivery: 16 }).status).toBe("rejected");
    expect(
      decideReturn({ ...base, category: "Electronics", daysSinceDelivery: 40, reason: "defective" }).status,
    ).toBe("approved");
    expect(decideReturn({ ...base, category: "Apparel", daysSinceDelivery: 44 }).status).toBe("approved");
    const opened = decideReturn({
      ...base,
      category: "Electronics",
      daysSinceDelivery: 5,
      itemCondition: "opened",
    });
    expect(opened).toMatchObject({ status: "approved", restockingFeePercent: 15 });
  });

  it("screens fraud first and escalates above the approval limit", () => {
    expect(decideReturn({ ...base, category: "Gift Cards", customerWatchListed: true }).status).toBe(
      "escalated",
    );
    expect(decideReturn({ ...base, merchandiseValue: 400 }).status).toBe("approved");
    expect(decideReturn({ ...base, merchandiseValue: 400.01 }).status).toBe("escalated");
  });
});
