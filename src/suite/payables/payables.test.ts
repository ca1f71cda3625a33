import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir, type TempDir } from "../../core/index.js";
import {
  buildInstance,
  createEpisode,
  instanceContents,
  openStateView,
  listWorkspaceFiles,
  type StateView,
} from "../../envs/index.js";
import type { ToolCallResult } from "../../runtime/index.js";
import { payablesTasks } from "./index.js";
import { agingBucket, normaliseInvoiceNumber } from "./rules.js";
import { applyVendorHoldsTask, heldVendorNames, HOLD_REASON } from "./tasks/apply-vendor-holds.js";
import { expectedMatchExceptions, threeWayMatchExceptionsTask } from "./tasks/three-way-match-exceptions.js";
import { reconcileRemittanceTask } from "./tasks/reconcile-remittance.js";
import { earlyPaymentDiscountsTask, expectedDiscounts } from "./tasks/early-payment-discounts.js";
import { contractTerms } from "./task-support.js";
import { applyPriceAmendmentsTask } from "./tasks/apply-price-amendments.js";

let cache: TempDir;
beforeAll(() => {
  cache = createTempDir("payables-test");
});
afterAll(() => {
  cache.dispose();
});

/** A read-only state view over a built instance (what a verifier sees as `initial`). */
function initialView(
  task = threeWayMatchExceptionsTask,
  seed = 0,
  scale: "v0" | "v2" = "v0",
): StateView & { close(): void } {
  const instance = buildInstance(task, scale, seed, cache.path);
  const opened = openStateView(instance.dbPath, instance.workspaceDir);
  return { ...opened.view, close: () => opened.close() };
}

function body(result: ToolCallResult): Record<string, unknown> {
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as Record<string, unknown>;
}

function text(result: ToolCallResult): string {
  return result.content.map((part) => ("text" in part ? part.text : "")).join("");
}

describe("payables generator", () => {
  it("builds the same ledger and documents for the same seed, and a different one for another seed", () => {
    const snapshot = (seed: number, dir: string) =>
      instanceContents(buildInstance(threeWayMatchExceptionsTask, "v0", seed, join(cache.path, dir)));
    expect(snapshot(3, "a")).toEqual(snapshot(3, "b"));
    expect(snapshot(4, "c").tables).not.toEqual(snapshot(3, "a").tables);
  });

  it("keeps the ledger consistent: totals add up, receipts never exceed orders, ids follow their formats", () => {
    const view = initialView();
    try {
      const badTotals = view.db
        .prepare(
          `SELECT i.invoice_id FROM invoices i WHERE abs(i.total - (SELECT SUM(amount) FROM invoice_lines l WHERE l.invoice_id = i.invoice_id)) > 0.001
              OR abs(i.subtotal + i.freight - i.total) > 0.001`,
        )
        .all();
      expect(badTotals).toEqual([]);
      const overReceived = view.db
        .prepare(
          `SELECT l.po_id, l.line_no FROM po_lines l
            WHERE (SELECT COALESCE(SUM(quantity_received), 0) FROM receipts r WHERE r.po_id = l.po_id AND r.line_no = l.line_no) > l.quantity`,
        )
        .all();
      expect(overReceived).toEqual([]);
      const ids = view.db.prepare("SELECT invoice_id FROM invoices").all() as Array<{ invoice_id: string }>;
      expect(ids.every((row) => /^AP-\d{5}$/.test(row.invoice_id))).toBe(true);
      // The vendor entered twice shares a tax id with its original record.
      const twice = view.db.prepare("SELECT tax_id FROM vendors GROUP BY tax_id HAVING COUNT(*) > 1").all();
      expect(twice.length).toBeGreaterThan(0);
    } finally {
      view.close();
    }
  });

  it("holds no vendor with a discount due this week or with a second record under its tax id", () => {
    for (const seed of [0, 7]) {
      const view = initialView(earlyPaymentDiscountsTask, seed);
      const held = heldVendorNames(view);
      const vendors = view.db.prepare("SELECT vendor_id, name, tax_id FROM vendors").all() as Array<{
        vendor_id: string;
        name: string;
        tax_id: string;
      }>;
      const heldVendors = vendors.filter((vendor) => held.has(vendor.name));
      const heldIds = new Set(heldVendors.map((vendor) => vendor.vendor_id));
      const discountVendors = [...expectedDiscounts({ initial: view }).keys()].map(
        (id) =>
          (
            view.db.prepare("SELECT vendor_id FROM invoices WHERE invoice_id = ?").get(id) as {
              vendor_id: string;
            }
          ).vendor_id,
      );
      const sharedTaxIds = heldVendors.filter(
        (vendor) => vendors.filter((other) => other.tax_id === vendor.tax_id).length > 1,
      );
      view.close();
      expect(heldVendors.length).toBe(held.size);
      expect(discountVendors.filter((id) => heldIds.has(id))).toEqual([]);
      expect(sharedTaxIds.map((vendor) => vendor.name)).toEqual([]);
    }
  });

  it("enters no contract vendor twice in the vendor master (the copy would not carry the contract terms)", () => {
    const view = initialView(earlyPaymentDiscountsTask, 7, "v2");
    const contracts = contractTerms(view);
    const twinned = view.db
      .prepare(
        `SELECT o.vendor_id FROM vendors t JOIN vendors o ON o.tax_id = t.tax_id AND o.vendor_id <> t.vendor_id
          WHERE t.name LIKE '% - Remit To'`,
      )
      .all() as Array<{ vendor_id: string }>;
    view.close();
    expect(twinned.length).toBe(1);
    expect(twinned.filter((row) => contracts.has(row.vendor_id))).toEqual([]);
  });

  it("doubles the rows and adds documents at the next scale", () => {
    const count = (scale: "v0" | "v1"): { vendors: number; files: number } => {
      const instance = buildInstance(threeWayMatchExceptionsTask, scale, 0, cache.path);
      const db = new Database(instance.dbPath, { readonly: true });
      try {
        const vendors = (db.prepare("SELECT COUNT(*) AS n FROM vendors").get() as { n: number }).n;
        return { vendors, files: listWorkspaceFiles(instance.workspaceDir).length };
      } finally {
        db.close();
      }
    };
    const v0 = count("v0");
    const v1 = count("v1");
    expect(v1.vendors).toBeGreaterThanOrEqual(2 * v0.vendors - 2);
    expect(v1.files).toBeGreaterThan(v0.files);
  });
});

describe("payables rules", () => {
  it("normalises vendor invoice numbers the way the policy describes", () => {
    expect(normaliseInvoiceNumber("inv-004471")).toBe("INV4471");
    expect(normaliseInvoiceNumber("INV 4471")).toBe("INV4471");
    expect(normaliseInvoiceNumber("25-0412")).toBe(normaliseInvoiceNumber("025-0412"));
    expect(normaliseInvoiceNumber("INV-4471")).not.toBe(normaliseInvoiceNumber("INV-4417"));
  });

  it("puts days past due into the policy's buckets at their edges", () => {
    expect([0, 1, 30, 31, 60, 61, 90, 91].map(agingBucket)).toEqual([
      "current",
      "1-30",
      "1-30",
      "31-60",
      "31-60",
      "61-90",
      "61-90",
      "over_90",
    ]);
  });
});

describe("payables tools", () => {
  it("pages listings with the standard envelope and teaches bad ids", async () => {
    await using episode = await createEpisode(threeWayMatchExceptionsTask, "v0", 0, { cacheDir: cache.path });
    const first = body(await episode.callTool("list_invoices", { per_page: 10 }));
    expect(Object.keys(first)).toEqual(["invoices", "page", "per_page", "total", "has_more"]);
    expect((first.invoices as unknown[]).length).toBe(10);
    expect(first.has_more).toBe(true);
    const malformed = await episode.callTool("get_invoice", { invoice_id: "INV-1" });
    expect(malformed.isError).toBe(true);
    expect(text(malformed)).toContain("invoice_id must look like AP-00123");
    const unknown = await episode.callTool("get_invoice", { invoice_id: "AP-99999" });
    expect(text(unknown)).toContain("invoice AP-99999 not found; use list_invoices");
  });

  it("fails some purchase order lookups transiently and answers the retry", async () => {
    await using episode = await createEpisode(threeWayMatchExceptionsTask, "v0", 0, { cacheDir: cache.path });
    const failing = await episode.callTool("get_purchase_order", { po_id: "PO-00007" });
    expect(failing.isError).toBe(true);
    expect(text(failing)).toContain("503 Service Unavailable");
    const retried = body(await episode.callTool("get_purchase_order", { po_id: "PO-00007" }));
    expect((retried.lines as unknown[]).length).toBeGreaterThan(0);
    const steady = await episode.callTool("get_purchase_order", { po_id: "PO-00002" });
    expect(steady.isError).toBeFalsy();
  });

  it("answers some pay-run queries with an empty page and an error status (no isError)", async () => {
    await using episode = await createEpisode(reconcileRemittanceTask, "v0", 0, { cacheDir: cache.path });
    // 2025-06-20 is day 20259, a multiple of 3: the replica times out twice, then answers.
    const attempts = [];
    for (let n = 0; n < 3; n += 1)
      attempts.push(await episode.callTool("list_payments", { paid_on: "2025-06-20" }));
    expect(attempts.map((result) => result.isError ?? false)).toEqual([false, false, false]);
    expect(body(attempts[0]!)).toMatchObject({ payments: [], status: "error", has_more: false });
    expect(body(attempts[2]!).status).toBeUndefined();
    expect((body(attempts[2]!).payments as unknown[]).length).toBeGreaterThan(0);
  });

  it("holds only unpaid invoices and reprices only open orders in whole cents", async () => {
    await using holds = await createEpisode(applyVendorHoldsTask, "v0", 0, { cacheDir: cache.path });
    const paid = (
      body(await holds.callTool("list_invoices", { status: "paid", per_page: 1 })).invoices as Array<{
        invoice_id: string;
      }>
    )[0]!;
    const rejected = await holds.callTool("place_invoice_hold", {
      invoice_id: paid.invoice_id,
      reason: "test",
    });
    expect(text(rejected)).toContain("only invoices pending approval or approved can be put on hold");
    await using prices = await createEpisode(applyPriceAmendmentsTask, "v0", 0, { cacheDir: cache.path });
    const closed = (
      body(await prices.callTool("list_purchase_orders", { status: "closed", per_page: 1 }))
        .purchase_orders as Array<{ po_id: string }>
    )[0]!;
    const notOpen = await prices.callTool("update_po_line_price", {
      po_id: closed.po_id,
      line_no: 1,
      unit_price: 10,
    });
    expect(text(notOpen)).toContain("only open orders can be repriced");
    const open = (
      body(await prices.callTool("list_purchase_orders", { status: "open", per_page: 1 }))
        .purchase_orders as Array<{ po_id: string }>
    )[0]!;
    const fractional = await prices.callTool("update_po_line_price", {
      po_id: open.po_id,
      line_no: 1,
      unit_price: 10.005,
    });
    expect(text(fractional)).toContain("whole cents");
  });
});

describe("payables verifiers", () => {
  it("accepts exactly the three-way match exceptions", async () => {
    const view = initialView();
    const expected = expectedMatchExceptions({ initial: view });
    view.close();
    expect(expected.length).toBeGreaterThan(1);
    for (const [answer, reward] of [
      [JSON.stringify(expected), 1],
      [JSON.stringify(expected.slice(1)), 0],
      ["no exceptions found", 0],
    ] as const) {
      await using episode = await createEpisode(threeWayMatchExceptionsTask, "v0", 0, {
        cacheDir: cache.path,
      });
      expect((await episode.finish(answer)).reward, answer).toBe(reward);
    }
  });

  it("rejects a hold job that misses invoices or touches a released vendor", async () => {
    const view = initialView(applyVendorHoldsTask);
    const held = heldVendorNames(view);
    const vendors = view.db.prepare("SELECT vendor_id, name FROM vendors").all() as Array<{
      vendor_id: string;
      name: string;
    }>;
    const expected = (
      view.db
        .prepare(
          "SELECT invoice_id, vendor_id FROM invoices WHERE status IN ('pending_approval', 'approved') ORDER BY invoice_id",
        )
        .all() as Array<{ invoice_id: string; vendor_id: string }>
    ).filter((row) => held.has(vendors.find((vendor) => vendor.vendor_id === row.vendor_id)!.name));
    view.close();
    expect(held.size).toBeGreaterThan(1);

    await using partial = await createEpisode(applyVendorHoldsTask, "v0", 0, { cacheDir: cache.path });
    await partial.callTool("place_invoice_hold", {
      invoice_id: expected[0]!.invoice_id,
      reason: HOLD_REASON,
    });
    const verdict = await partial.finish("1");
    expect(verdict.reward).toBe(0);
    expect(verdict.checks.find((item) => item.id === "invoices-changed")?.message).toContain(
      "did not change",
    );

    await using complete = await createEpisode(applyVendorHoldsTask, "v0", 0, { cacheDir: cache.path });
    for (const row of expected)
      await complete.callTool("place_invoice_hold", { invoice_id: row.invoice_id, reason: HOLD_REASON });
    expect((await complete.finish(String(expected.length))).reward).toBe(1);
  });

  it("registers eight tasks with distinct ids and at least two near-misses each", () => {
    expect(payablesTasks.length).toBeGreaterThanOrEqual(8);
    expect(new Set(payablesTasks.map((task) => task.id)).size).toBe(payablesTasks.length);
    for (const task of payablesTasks) expect(task.nearMisses.length, task.id).toBeGreaterThanOrEqual(2);
  });
});
