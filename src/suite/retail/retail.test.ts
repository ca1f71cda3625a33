import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callTool,
  createGenerateContext,
  listWorkspaceFiles,
  type GenerateContext,
} from "../../envs/index.js";
import type { ToolCallResult } from "../../runtime/index.js";
import { computeCancellations } from "./cancellation-requests.js";
import { computeCarrierSync, plantCarrierTracking, trackingLookupTimesOut } from "./carrier.js";
import { PATHS, computeRecallCancellations, readNotices, recallScope } from "./expectations.js";
import { retailDomain } from "./index.js";
import { computeTierChanges } from "./loyalty.js";
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

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> =>
  callTool(retailDomain.tools, instance, name, args);

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

describe("retail task tools", () => {
  function prepared(seed: number, prepare: (context: GenerateContext) => void) {
    const built = buildInstance(seed);
    const context = createGenerateContext({
      db: built.db,
      workspaceDir: built.workspaceDir,
      scale: "v0",
      seed,
      stream: "test-prepare",
    });
    built.db.transaction(() => prepare(context))();
    return {
      ...built,
      call: (name: string, args: Record<string, unknown>) => callTool(retailDomain.tools, built, name, args),
    };
  }

  it("get_carrier_tracking answers a timed-out lookup as an ordinary error body, then with the record", async () => {
    const carrier = prepared(11, plantCarrierTracking);
    const rows = carrier.db
      .prepare("SELECT order_id FROM carrier_tracking ORDER BY order_id")
      .all() as Array<{
      order_id: number;
    }>;
    const flaky = rows.find((row) => trackingLookupTimesOut(row.order_id))!;
    const steady = rows.find((row) => !trackingLookupTimesOut(row.order_id))!;
    const first = await carrier.call("get_carrier_tracking", { order_id: flaky.order_id });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ status: "error" });
    expect(first.structuredContent).not.toHaveProperty("events");
    const retried = await carrier.call("get_carrier_tracking", { order_id: flaky.order_id });
    expect(retried.structuredContent).toHaveProperty("events");
    const direct = await carrier.call("get_carrier_tracking", { order_id: steady.order_id });
    expect(direct.structuredContent).toHaveProperty("events");
    carrier.db.close();
  });

  it("mark_order_delivered records the delivery of a shipped order, once", async () => {
    const carrier = prepared(11, plantCarrierTracking);
    const { delivered } = computeCarrierSync(carrier.db);
    const [orderId, at] = [...delivered][0]!;
    const result = await carrier.call("mark_order_delivered", { order_id: orderId, delivered_at: at });
    expect(result.structuredContent).toEqual({ order_id: orderId, status: "delivered", delivered_at: at });
    expect(carrier.db.prepare("SELECT delivered_at FROM orders WHERE id = ?").get(orderId)).toEqual({
      delivered_at: at,
    });
    const again = await carrier.call("mark_order_delivered", { order_id: orderId, delivered_at: at });
    expect(again.isError).toBe(true);
    const badTime = await carrier.call("mark_order_delivered", {
      order_id: orderId,
      delivered_at: "2025-06-01",
    });
    expect(badTime.isError).toBe(true);
    carrier.db.close();
  });

  it("list_sales_lines answers 503 on page 2 once; the same call then succeeds", async () => {
    const args = { placed_from: "2025-05-01", placed_to: "2025-06-29", page: 2, per_page: 10 };
    const failed = await call("list_sales_lines", args);
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain("503");
    const retried = await callOk("list_sales_lines", args);
    expect((retried.lines as unknown[]).length).toBe(10);
    expect((await callOk("list_sales_lines", { ...args, page: 1 })).page).toBe(1);
  });

  it("update_loyalty_tier sets one customer's tier", async () => {
    const customer = instance.db
      .prepare("SELECT id, loyalty_tier FROM customers WHERE loyalty_tier = 'standard' LIMIT 1")
      .get() as {
      id: number;
    };
    const result = await callOk("update_loyalty_tier", { customer_id: customer.id, tier: "gold" });
    expect(result).toEqual({ customer_id: customer.id, previous_tier: "standard", loyalty_tier: "gold" });
    expect((await call("update_loyalty_tier", { customer_id: 1, tier: "gold" })).isError).toBe(true);
  });
});

describe("retail task rules", () => {
  it("downgrades one tier per review and leaves the store's own accounts alone", () => {
    const rules = { periodStart: "2025-04-01", periodEnd: "2025-06-29", silverUsd: 1e9, goldUsd: 2e9 };
    const tiers = new Map(
      (
        instance.db.prepare("SELECT id, email, loyalty_tier FROM customers").all() as Array<{
          id: number;
          email: string;
          loyalty_tier: string;
        }>
      ).map((row) => [row.id, row]),
    );
    const changes = computeTierChanges(instance.db, rules);
    expect(changes.size).toBeGreaterThan(0);
    for (const [id, tier] of changes) {
      const before = tiers.get(id)!;
      expect(before.email.endsWith("@larkspurco.com")).toBe(false);
      expect(tier).toBe(before.loyalty_tier === "gold" ? "silver" : "standard");
    }
    expect(computeTierChanges(instance.db, rules, { directDowngrade: true })).not.toEqual(changes);
  });

  it("cancels on the account holder's address in any case, not on another address, and lets a withdrawal win", () => {
    const order = instance.db
      .prepare(
        "SELECT o.id, c.email FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'processing' LIMIT 1",
      )
      .get() as { id: number; email: string };
    const mail = (from: string, at: string, body: string) =>
      `From: A Customer <${from}>\nDate: ${at}\nSubject: order\n\n${body}\n`;
    const request = (from: string) => mail(from, "2025-06-30 08:00:00", `Please cancel order ${order.id}.`);
    expect(computeCancellations(instance.db, [request(order.email.toUpperCase())]).cancelled).toEqual([
      order.id,
    ]);
    expect(computeCancellations(instance.db, [request("someone@else.example")])).toEqual({
      cancelled: [],
      notCancelled: [order.id],
    });
    const withdrawal = mail(
      order.email,
      "2025-06-30 09:00:00",
      `Please ignore my earlier message and keep order ${order.id}.`,
    );
    expect(computeCancellations(instance.db, [withdrawal, request(order.email)]).cancelled).toEqual([]);
  });
});
