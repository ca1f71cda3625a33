import type Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  listWorkspaceFiles,
  openToolBench,
  type Instance,
  type ToolBench,
  instanceContents,
} from "../../envs/index.js";
import type { ToolCallResult } from "../../runtime/index.js";
import {
  INVENTORY_SOP_PATH,
  OPERATIONS_BULLETIN_PATH,
  REPLENISHMENT_POLICY_PATH,
  parseInventorySop,
  parseOperationsBulletin,
  parseReplenishmentPolicy,
} from "./documents.js";
import { logisticsTasks } from "./index.js";
import { logisticsTools } from "./tools.js";

const task = logisticsTasks[0]!;
let harness: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  harness = openToolBench(task, logisticsTools);
  ({ instance, db } = harness);
});

afterAll(() => harness.close());

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> =>
  harness.call(name, args);
const value = (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> =>
  harness.value(name, args);

const errorText = (result: ToolCallResult): string => harness.errorText(result);

describe("logistics tools", () => {
  it("paginates listings with a stable envelope", async () => {
    const total = (db.prepare("SELECT COUNT(*) AS count FROM products").get() as { count: number }).count;
    const first = await value("list_products", {});
    expect(first).toMatchObject({ page: 1, per_page: 20, total, has_more: true });
    expect(first.products).toHaveLength(20);
    const last = await value("list_products", { page: Math.ceil(total / 50), per_page: 50 });
    expect(last.has_more).toBe(false);
    expect(errorText(await call("list_products", { per_page: 51 }))).toContain("per_page");
  });

  it("sums only available lots into available stock", async () => {
    const row = db
      .prepare(
        `SELECT warehouse_id, sku,
           SUM(CASE WHEN status = 'available' THEN quantity ELSE 0 END) AS available,
           SUM(CASE WHEN status = 'quarantine' THEN quantity ELSE 0 END) AS held
         FROM inventory_lots GROUP BY warehouse_id, sku HAVING held > 0 LIMIT 1`,
      )
      .get() as { warehouse_id: string; sku: string; available: number; held: number };
    const levels = await value("list_stock_levels", {
      warehouse_id: row.warehouse_id,
      per_page: 50,
      page: 1,
    });
    let found: Record<string, unknown> | undefined;
    for (let page = 1; !found; page += 1) {
      const result = await value("list_stock_levels", { warehouse_id: row.warehouse_id, per_page: 50, page });
      found = (result.stock_levels as Array<Record<string, unknown>>).find((level) => level.sku === row.sku);
      if (!result.has_more) break;
    }
    expect(levels.total).toBeGreaterThan(0);
    expect(found).toMatchObject({ available_quantity: row.available, quarantined_quantity: row.held });
    expect(errorText(await call("list_stock_levels", { warehouse_id: "WH-XYZ" }))).toContain(
      "list_warehouses",
    );
  });

  it("reports unknown ids as tool failures", async () => {
    expect(errorText(await call("get_product", { sku: "SKU-00000" }))).toContain("not found");
    expect(errorText(await call("get_inventory_lot", { lot_id: "LOT-0" }))).toContain("not found");
  });

  it("creates draft purchase orders priced from the catalog", async () => {
    const product = db
      .prepare("SELECT sku, unit_cost FROM products WHERE status = 'active' LIMIT 1")
      .get() as {
      sku: string;
      unit_cost: number;
    };
    const before = (db.prepare("SELECT COUNT(*) AS count FROM purchase_orders").get() as { count: number })
      .count;
    const created = await value("create_purchase_order", {
      supplier_id: "SUP-109",
      warehouse_id: "WH-DAL",
      lines: [{ sku: product.sku, quantity: 24 }],
    });
    expect(created.purchase_order).toMatchObject({
      status: "draft",
      ordered_on: null,
      line_count: 1,
      lines: [{ sku: product.sku, quantity: 24, unit_cost: product.unit_cost }],
    });
    expect(
      (db.prepare("SELECT COUNT(*) AS count FROM purchase_orders").get() as { count: number }).count,
    ).toBe(before + 1);
    const duplicate = await call("create_purchase_order", {
      supplier_id: "SUP-109",
      warehouse_id: "WH-DAL",
      lines: [
        { sku: product.sku, quantity: 1 },
        { sku: product.sku, quantity: 2 },
      ],
    });
    expect(errorText(duplicate)).toContain("twice");
    const discontinued = db
      .prepare("SELECT sku FROM products WHERE status = 'discontinued' LIMIT 1")
      .get() as { sku: string } | undefined;
    if (discontinued) {
      const refused = await call("create_purchase_order", {
        supplier_id: "SUP-109",
        warehouse_id: "WH-DAL",
        lines: [{ sku: discontinued.sku, quantity: 6 }],
      });
      expect(errorText(refused)).toContain("discontinued");
    }
  });

  it("cancels only open purchase orders", async () => {
    const received = db.prepare("SELECT id FROM purchase_orders WHERE status = 'received' LIMIT 1").get() as {
      id: string;
    };
    expect(
      errorText(await call("cancel_purchase_order", { purchase_order_id: received.id, reason: "x" })),
    ).toContain("received");
    const open = db.prepare("SELECT id FROM purchase_orders WHERE status = 'submitted' LIMIT 1").get() as {
      id: string;
    };
    const cancelled = await value("cancel_purchase_order", {
      purchase_order_id: open.id,
      reason: "overstocked",
    });
    expect(cancelled.purchase_order).toMatchObject({ id: open.id, status: "cancelled" });
    expect(String((cancelled.purchase_order as { notes: string }).notes)).toContain("overstocked");
  });

  it("tenders pending shipments to active carriers only", async () => {
    const pending = db.prepare("SELECT id FROM shipments WHERE status = 'pending' LIMIT 1").get() as {
      id: string;
    };
    const inactive = db.prepare("SELECT id FROM carriers WHERE active = 0").get() as { id: string };
    expect(
      errorText(
        await call("assign_carrier", { shipment_id: pending.id, carrier_id: inactive.id, freight_cost: 10 }),
      ),
    ).toContain("inactive");
    const assigned = await value("assign_carrier", {
      shipment_id: pending.id,
      carrier_id: "CR-01",
      freight_cost: 123.456,
    });
    expect(assigned.shipment).toMatchObject({
      status: "assigned",
      carrier_id: "CR-01",
      freight_cost: 123.46,
    });
    expect(
      errorText(
        await call("assign_carrier", { shipment_id: pending.id, carrier_id: "CR-01", freight_cost: 1 }),
      ),
    ).toContain("only pending");
  });

  it("holds and releases lots, refusing a change to the status a lot already has", async () => {
    const lot = db.prepare("SELECT lot_id FROM inventory_lots WHERE status = 'available' LIMIT 1").get() as {
      lot_id: string;
    };
    const held = await value("set_lot_status", {
      lot_id: lot.lot_id,
      status: "quarantine",
      reason: "wet cases",
    });
    expect(held).toMatchObject({ lot: { lot_id: lot.lot_id, status: "quarantine" }, reason: "wet cases" });
    expect(
      errorText(await call("set_lot_status", { lot_id: lot.lot_id, status: "quarantine", reason: "again" })),
    ).toContain("already quarantine");
    const released = await value("set_lot_status", {
      lot_id: lot.lot_id,
      status: "available",
      reason: "clean",
    });
    expect(released.lot).toMatchObject({ status: "available" });
    expect(
      errorText(await call("set_lot_status", { lot_id: "LOT-1", status: "available", reason: "x" })),
    ).toContain("not found");
  });

  it("answers the first request for an archived received order with an error body, then the order", async () => {
    const orders = db.prepare("SELECT id, status FROM purchase_orders ORDER BY id").all() as Array<{
      id: string;
      status: string;
    }>;
    const archived = orders.find(
      (order) => order.status === "received" && Number(order.id.slice(3)) % 2 === 0,
    );
    const open = orders.find((order) => order.status === "draft" || order.status === "submitted");
    expect(archived && open).toBeTruthy();
    const first = await call("get_purchase_order", { purchase_order_id: archived!.id });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ status: "error" });
    expect(String((first.structuredContent as { error: string }).error)).toContain("retry");
    expect(await value("get_purchase_order", { purchase_order_id: archived!.id })).toHaveProperty(
      "purchase_order.id",
      archived!.id,
    );
    expect(await value("get_purchase_order", { purchase_order_id: open!.id })).toHaveProperty(
      "purchase_order.id",
      open!.id,
    );
  });

  it("fails the network-wide lot listing's third page once with a 503, never a filtered one", async () => {
    const warehouse = db
      .prepare("SELECT warehouse_id FROM inventory_lots GROUP BY warehouse_id ORDER BY COUNT(*) DESC LIMIT 1")
      .get() as { warehouse_id: string };
    expect(
      (await call("list_inventory_lots", { warehouse_id: warehouse.warehouse_id, page: 3, per_page: 10 }))
        .isError,
    ).toBeFalsy();
    expect(errorText(await call("list_inventory_lots", { page: 3, per_page: 50 }))).toContain("503");
    expect(await value("list_inventory_lots", { page: 3, per_page: 50 })).toMatchObject({ page: 3 });
  });
});

describe("logistics generator", () => {
  it("writes documents the verifiers can read back", () => {
    const read = (path: string): string => readFileSync(join(instance.workspaceDir, path), "utf8");
    const policy = parseReplenishmentPolicy(read(REPLENISHMENT_POLICY_PATH));
    expect(Object.keys(policy.categories)).toHaveLength(8);
    expect(Object.keys(policy.overrides)).toHaveLength(4);
    const bulletin = parseOperationsBulletin(read(OPERATIONS_BULLETIN_PATH));
    expect(bulletin.suspendedSupplierId).toMatch(/^SUP-\d+$/);
    expect(Object.keys(parseInventorySop(read(INVENTORY_SOP_PATH)).expiryWindowDays)).toHaveLength(5);
    expect(listWorkspaceFiles(instance.workspaceDir)).toHaveLength(13);
  });

  it("is deterministic per seed and differs across seeds", () => {
    const contents = instanceContents(harness.instance);
    expect(instanceContents(harness.rebuild())).toEqual(contents);
    expect(instanceContents(harness.rebuild({ seed: 4 })).tables).not.toEqual(contents.tables);
  });
});
