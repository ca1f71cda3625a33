import { z } from "zod";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import {
  cachedStatement,
  defineGetTool,
  defineStatusTool,
  defineListTool,
  getRow,
  isoDateSchema,
  pageEnvelope,
  requireEntity,
  requireRow,
  toDayNumber,
  updateEntity,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
  optionalText,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { VENDOR_CATEGORIES, invoiceId, poId, vendorId } from "./rules.js";

const INVOICE_STATUSES = ["pending_approval", "approved", "on_hold", "paid", "void"] as const;
const PO_STATUSES = ["open", "closed", "cancelled"] as const;

const listPaymentTerms = defineListTool({
  name: "list_payment_terms",
  description:
    "List the payment terms codes (discount percent, discount days, net days). Paginated: returns `terms`, `page`, `per_page`, `total`, `has_more`.",
  key: "terms",
  from: "payment_terms",
  orderBy: "terms_code",
});

const listVendors = defineListTool({
  name: "list_vendors",
  description:
    "List vendors from the vendor master (id, name, category, terms_code, status, remit_email). Paginated: returns `vendors`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    category: optionalChoice(VENDOR_CATEGORIES, "Only vendors in this category"),
    status: optionalChoice(["active", "inactive"], "Only vendors with this status"),
    name_contains: z
      .string()
      .min(1)
      .optional()
      .describe("Only vendors whose name contains this text (case-insensitive)"),
  },
  key: "vendors",
  from: "vendors",
  select: "vendor_id, name, category, terms_code, status, remit_email",
  where: ({ category, status, name_contains }) => [
    when(category, "category = ?"),
    when(status, "status = ?"),
    when(name_contains === undefined ? undefined : `%${name_contains.toLowerCase()}%`, "lower(name) LIKE ?"),
  ],
  orderBy: "vendor_id",
});

const getVendor = defineGetTool({
  name: "get_vendor",
  description: "Get one vendor from the vendor master, with its payment terms spelled out.",
  input: { vendor_id: vendorId.schema("The vendor") },
  key: "vendor",
  from: "vendors",
  notFound: vendorId,
  related: {
    terms: (db, _id, vendor) =>
      requireRow(
        db,
        "SELECT * FROM payment_terms WHERE terms_code = ?",
        [vendor.terms_code],
        "terms not found",
      ),
  },
});

const listPurchaseOrders = defineListTool({
  name: "list_purchase_orders",
  description:
    "List purchase order headers (po_id, vendor_id, ordered_on, buyer, warehouse, status). Paginated: returns `purchase_orders`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    vendor_id: vendorId.schema("Only orders to this vendor").optional(),
    status: optionalChoice(PO_STATUSES, "Only orders in this status"),
    ordered_from: optionalDate("Only orders placed on or after this date, YYYY-MM-DD"),
    ordered_to: optionalDate("Only orders placed on or before this date, YYYY-MM-DD"),
  },
  key: "purchase_orders",
  from: "purchase_orders",
  where: { vendor_id: "=", status: "=", ordered_from: "ordered_on >= ?", ordered_to: "ordered_on <= ?" },
  orderBy: "po_id",
});

const getPurchaseOrderTool = defineGetTool({
  name: "get_purchase_order",
  description:
    "Get one purchase order: the header, its `lines` (line_no, sku, description, quantity ordered, unit_price) and its goods `receipts` (receipt_id, line_no, received_on, quantity_received).",
  input: { po_id: poId.schema("The purchase order") },
  key: "purchase_order",
  from: "purchase_orders",
  notFound: poId,
  related: {
    lines:
      "SELECT line_no, sku, description, quantity, unit_price FROM po_lines WHERE po_id = ? ORDER BY line_no",
    receipts:
      "SELECT receipt_id, line_no, received_on, quantity_received FROM receipts WHERE po_id = ? ORDER BY receipt_id",
  },
});

/** The purchasing system's detail service drops some requests under load; a retry succeeds. */
const getPurchaseOrder = withTransientFailures(getPurchaseOrderTool, {
  when: (input) => Number(input.po_id.slice(3)) % 6 === 1,
});

const listPoLines = defineListTool({
  name: "list_po_lines",
  description:
    "List purchase order lines across orders (po_id, vendor_id, po_status, line_no, sku, description, quantity, unit_price). Receipts are not included; see get_purchase_order or list_receipts. Paginated: returns `po_lines`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    vendor_id: vendorId.schema("Only lines of orders to this vendor").optional(),
    sku: optionalText("Only lines for this SKU"),
    po_status: optionalChoice(PO_STATUSES, "Only lines of orders in this status"),
  },
  key: "po_lines",
  from: "po_lines l JOIN purchase_orders o ON o.po_id = l.po_id",
  select:
    "l.po_id, o.vendor_id, o.status AS po_status, l.line_no, l.sku, l.description, l.quantity, l.unit_price",
  where: { vendor_id: "o.vendor_id = ?", sku: "l.sku = ?", po_status: "o.status = ?" },
  orderBy: "l.po_id, l.line_no",
});

const listReceipts = defineListTool({
  name: "list_receipts",
  description:
    "List goods receipts (receipt_id, po_id, line_no, received_on, quantity_received). Paginated: returns `receipts`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    po_id: poId.schema("Only receipts against this purchase order").optional(),
    received_from: optionalDate("Only receipts on or after this date, YYYY-MM-DD"),
    received_to: optionalDate("Only receipts on or before this date, YYYY-MM-DD"),
  },
  key: "receipts",
  from: "receipts",
  where: { po_id: "=", received_from: "received_on >= ?", received_to: "received_on <= ?" },
  orderBy: "receipt_id",
});

const listInvoices = defineListTool({
  name: "list_invoices",
  description:
    "List vendor invoices (invoice_id, vendor_id, vendor_invoice_no, po_id, invoice_date, entered_on, terms_code, subtotal, freight, total, status, hold_reason). Paginated: returns `invoices`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    vendor_id: vendorId.schema("Only invoices from this vendor").optional(),
    status: optionalChoice(INVOICE_STATUSES, "Only invoices in this status"),
    po_id: poId.schema("Only invoices billing this purchase order").optional(),
    invoice_date_from: isoDateSchema
      .optional()
      .describe("Only invoices dated on or after this date, YYYY-MM-DD"),
    invoice_date_to: isoDateSchema
      .optional()
      .describe("Only invoices dated on or before this date, YYYY-MM-DD"),
  },
  key: "invoices",
  from: "invoices",
  where: {
    vendor_id: "=",
    status: "=",
    po_id: "=",
    invoice_date_from: "invoice_date >= ?",
    invoice_date_to: "invoice_date <= ?",
  },
  orderBy: "invoice_id",
});

const getInvoiceTool = defineGetTool({
  name: "get_invoice",
  description:
    "Get one vendor invoice: the header, its `lines` (line_no, line_type, po_line_no, sku, quantity, unit_price, amount), its `approvals` (level, approver, role, approved_on) and its `payments`.",
  input: { invoice_id: invoiceId.schema("The invoice (our AP number)") },
  key: "invoice",
  from: "invoices",
  notFound: invoiceId,
  related: {
    lines:
      "SELECT line_no, line_type, po_line_no, sku, quantity, unit_price, amount FROM invoice_lines WHERE invoice_id = ? ORDER BY line_no",
    approvals:
      "SELECT level, approver, role, approved_on FROM invoice_approvals WHERE invoice_id = ? ORDER BY level, id",
    payments:
      "SELECT payment_id, paid_on, amount, discount_taken, method, reference, status FROM payments WHERE invoice_id = ? ORDER BY payment_id",
  },
});

/** The invoice imaging service behind the detail view times out now and then; a retry succeeds. */
const getInvoice = withTransientFailures(getInvoiceTool, {
  when: (input) => Number(input.invoice_id.slice(3)) % 7 === 3,
});

const listInvoiceLines = defineListTool({
  name: "list_invoice_lines",
  description:
    "List invoice lines across invoices (invoice_id, invoice_status, line_no, line_type, po_line_no, sku, quantity, unit_price, amount). Paginated: returns `invoice_lines`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    invoice_id: invoiceId.schema("Only lines of this invoice").optional(),
    invoice_status: optionalChoice(INVOICE_STATUSES, "Only lines of invoices in this status"),
    line_type: optionalChoice(["merchandise", "freight"], "Only lines of this type"),
  },
  key: "invoice_lines",
  from: "invoice_lines l JOIN invoices i ON i.invoice_id = l.invoice_id",
  select:
    "l.invoice_id, i.status AS invoice_status, l.line_no, l.line_type, l.po_line_no, l.sku, l.quantity, l.unit_price, l.amount",
  where: { invoice_id: "l.invoice_id = ?", invoice_status: "i.status = ?", line_type: "l.line_type = ?" },
  orderBy: "l.invoice_id, l.line_no",
});

const listPaymentsTool = defineListTool({
  name: "list_payments",
  description:
    "List payments from the payments ledger (payment_id, invoice_id, vendor_id, paid_on, amount, discount_taken, method, reference, status). `paid_on` selects one pay run. Paginated: returns `payments`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    vendor_id: vendorId.schema("Only payments to this vendor").optional(),
    invoice_id: invoiceId.schema("Only payments of this invoice").optional(),
    status: optionalChoice(["issued", "cleared", "void"], "Only payments in this status"),
    paid_on: optionalDate("Only payments of the pay run on this date, YYYY-MM-DD"),
    paid_from: optionalDate("Only payments on or after this date, YYYY-MM-DD"),
    paid_to: optionalDate("Only payments on or before this date, YYYY-MM-DD"),
  },
  key: "payments",
  from: "payments",
  where: {
    vendor_id: "=",
    invoice_id: "=",
    status: "=",
    paid_on: "=",
    paid_from: "paid_on >= ?",
    paid_to: "paid_on <= ?",
  },
  orderBy: "payment_id",
});

/**
 * The pay-run query goes to a reporting replica that sometimes answers with an empty page and an error
 * note instead of failing: careful code checks `status` and asks again.
 */
const listPayments = withSilentFailures(listPaymentsTool, {
  when: (input) => input.paid_on !== undefined && toDayNumber(input.paid_on) % 3 === 0,
  failures: 2,
  body: (input) => ({
    ...pageEnvelope("payments", [], { page: input.page, perPage: input.per_page, total: 0 }),
    status: "error",
    error: "reporting replica timeout: the pay-run query returned no rows, retry the request",
  }),
});

const placeInvoiceHold = defineStatusTool({
  name: "place_invoice_hold",
  description:
    "Put an unpaid invoice (pending_approval or approved) on hold with a reason. Returns the updated invoice.",
  id: invoiceId,
  idDescription: "The invoice to hold",
  input: { reason: z.string().min(3).max(200).describe("Why the invoice is held") },
  table: "invoices",
  from: ["pending_approval", "approved"],
  refusal: (id, status) =>
    `invoice ${id} is ${status}; only invoices pending approval or approved can be put on hold`,
  set: ({ reason }) => ({ status: "on_hold", hold_reason: reason }),
  key: "invoice",
});

const releaseInvoiceHold = defineTool({
  name: "release_invoice_hold",
  description:
    "Release an invoice from hold; it returns to approved if it has a level-1 approval, else to pending_approval.",
  kind: "write",
  inputSchema: z.object({ invoice_id: invoiceId.schema("The invoice to release") }),
  handler: ({ invoice_id }, { db }: ToolContext) => {
    const { status } = requireEntity<{ status: string }>(db, "invoices", invoiceId, invoice_id, "status");
    if (status !== "on_hold") throw new ToolFailure(`invoice ${invoice_id} is ${status}, not on hold`);
    const approved = getRow(
      db,
      "SELECT 1 FROM invoice_approvals WHERE invoice_id = ? AND level = 1",
      invoice_id,
    );
    const set = { status: approved ? "approved" : "pending_approval", hold_reason: null };
    return { invoice: updateEntity(db, "invoices", invoiceId, invoice_id, set) };
  },
});

const updatePoLinePrice = defineTool({
  name: "update_po_line_price",
  description: "Change the unit price of one line of an open purchase order. Returns the updated line.",
  kind: "write",
  inputSchema: z.object({
    po_id: poId.schema("The purchase order"),
    line_no: z.number().int().min(1).describe("The line number on the order"),
    unit_price: z.number().positive().max(1_000_000).describe("The new unit price in dollars"),
  }),
  handler: ({ po_id, line_no, unit_price }, { db }: ToolContext) => {
    const order = requireEntity<{ status: string }>(db, "purchase_orders", poId, po_id, "status");
    if (order.status !== "open")
      throw new ToolFailure(`purchase order ${po_id} is ${order.status}; only open orders can be repriced`);
    const lineSql = "SELECT * FROM po_lines WHERE po_id = ? AND line_no = ?";
    requireRow(
      db,
      lineSql,
      [po_id, line_no],
      `purchase order ${po_id} has no line ${line_no}; use get_purchase_order to see its lines`,
    );
    if (Math.abs(unit_price * 100 - Math.round(unit_price * 100)) > 1e-6)
      throw new ToolFailure(`unit_price must be in whole cents (got ${unit_price})`);
    cachedStatement(db, "UPDATE po_lines SET unit_price = ? WHERE po_id = ? AND line_no = ?").run(
      Math.round(unit_price * 100) / 100,
      po_id,
      line_no,
    );
    return { line: getRow(db, lineSql, po_id, line_no) };
  },
});

export const payablesTools: DomainTool[] = [
  listPaymentTerms,
  listVendors,
  getVendor,
  listPurchaseOrders,
  getPurchaseOrder,
  listPoLines,
  listReceipts,
  listInvoices,
  getInvoice,
  listInvoiceLines,
  listPayments,
  placeInvoiceHold,
  releaseInvoiceHold,
  updatePoLinePrice,
] as DomainTool[];
