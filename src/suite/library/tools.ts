import { z } from "zod";
import {
  REFERENCE_DATE,
  defineGetTool,
  defineListTool,
  defineStatusTool,
  getRow,
  insertRow,
  requireEntity,
  requireRow,
  updateEntity,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { bibId, fundCode, invoiceId, lineId, poId, requestId, vendorId } from "./rules.js";

const listVendors = defineListTool({
  name: "list_vendors",
  description:
    "List vendors (name, SAN, our discount off list price in percent, our account number), ordered by id. Paginated: returns `vendors`, `page`, `per_page`, `total`, `has_more`.",
  filters: {},
  key: "vendors",
  from: "vendors",
  orderBy: "vendor_id",
});

const listFunds = defineListTool({
  name: "list_funds",
  description:
    "List the fiscal year's funds with their budgets in dollars, ordered by code. Balances are not stored: they follow from the ledger (list_fund_transactions). Paginated: returns `funds`, `page`, `per_page`, `total`, `has_more`.",
  filters: {},
  key: "funds",
  from: "funds",
  orderBy: "fund_code",
});

const listFundTransactions = defineListTool({
  name: "list_fund_transactions",
  description:
    "List fund ledger transactions (fund, posted_on, kind encumber/release/expend/credit/transfer_in/transfer_out, a positive amount, the order line or memo it refers to) matching all given filters, ordered by posting date then id. Paginated: returns `transactions`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    fund_code: fundCode.schema("Only this fund's transactions").optional(),
    kind: z
      .enum(["encumber", "release", "expend", "credit", "transfer_in", "transfer_out"])
      .optional()
      .describe("Only this kind"),
    posted_from: optionalDate("Only transactions posted on or after this date"),
    posted_to: optionalDate("Only transactions posted on or before this date"),
  },
  key: "transactions",
  from: "fund_transactions",
  where: { fund_code: "=", kind: "=", posted_from: "posted_on >= ?", posted_to: "posted_on <= ?" },
  orderBy: "posted_on, txn_id",
});

const listBibs = defineListTool({
  name: "list_bibs",
  description:
    "List bibliographic records (id, short title, created_on), ordered by id; the full MARC record is on get_bib. Paginated: returns `bibs`, `page`, `per_page`, `total`, `has_more`.",
  filters: { title: z.string().min(2).optional().describe("Only titles containing this text") },
  key: "bibs",
  from: "bibs",
  select: "bib_id, title, created_on",
  where: (input) => [when(input.title && `%${input.title}%`, "title LIKE ?")],
  orderBy: "bib_id",
});

const getBib = defineGetTool({
  name: "get_bib",
  description:
    "Get one bibliographic record with its MARC text in mnemonic form (one `=TAG  II$a...$b...` line per field; `\\` is a blank indicator). Returns `bib_id`, `title`, `created_on`, `marc`.",
  input: { bib_id: bibId.schema("The bib record") },
  from: "bibs",
  notFound: bibId,
});

const LINE_SELECT =
  "l.line_id, l.po_id, p.vendor_id, p.order_type, p.ordered_on, l.bib_id, l.fund_code, l.quantity, l.list_price, l.encumbered, l.status";
const LINE_FROM = "order_lines l JOIN purchase_orders p ON p.po_id = l.po_id";

const listOrderLines = defineListTool({
  name: "list_order_lines",
  description:
    "List purchase order lines with their order's vendor, type (firm or standing) and date: bib record, fund, quantity, list price per copy, amount encumbered, status (ordered = on order, received, cancelled), matching all given filters, ordered by line id. Paginated: returns `lines`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["ordered", "received", "cancelled"], "Only lines in this status"),
    vendor_id: vendorId.schema("Only this vendor's lines").optional(),
    fund_code: fundCode.schema("Only lines charged to this fund").optional(),
    po_id: poId.schema("Only this purchase order's lines").optional(),
  },
  key: "lines",
  from: LINE_FROM,
  select: LINE_SELECT,
  where: {
    status: "l.status = ?",
    vendor_id: "p.vendor_id = ?",
    fund_code: "l.fund_code = ?",
    po_id: "l.po_id = ?",
  },
  orderBy: "l.line_id",
});

const listClaims = defineListTool({
  name: "list_claims",
  description:
    "List claims sent to vendors for lines not received (line, claimed_on, note), ordered by claim id. Paginated: returns `claims`, `page`, `per_page`, `total`, `has_more`.",
  filters: { line_id: lineId.schema("Only this line's claims").optional() },
  key: "claims",
  from: "claims",
  where: { line_id: "=" },
  orderBy: "claim_id",
});

function lineOnOrder(db: ToolContext["db"], id: string, action: string): Record<string, unknown> {
  const line = requireEntity(db, "order_lines", lineId, id);
  if (line.status !== "ordered")
    throw new ToolFailure(`line ${id} is ${String(line.status)}; only lines on order can be ${action}`);
  return line;
}

const claimOrderLine = defineTool({
  name: "claim_order_line",
  description:
    "Send the vendor a claim for a line on order that has not arrived, dated today. Returns `claim`.",
  kind: "write",
  inputSchema: z.object({
    line_id: lineId.schema("The order line"),
    note: z.string().min(3).describe("What the claim asks the vendor"),
  }),
  handler: ({ line_id, note }, { db }: ToolContext) => {
    lineOnOrder(db, line_id, "claimed");
    const next = (getRow<{ n: number | null }>(db, "SELECT MAX(claim_id) AS n FROM claims")?.n ?? 0) + 1;
    return { claim: insertRow(db, "claims", { claim_id: next, line_id, claimed_on: REFERENCE_DATE, note }) };
  },
});

const cancelOrderLine = defineTool({
  name: "cancel_order_line",
  description:
    "Cancel a line on order; its encumbrance is released to the fund (a `release` ledger transaction dated today). Returns `line`, `release`.",
  kind: "write",
  inputSchema: z.object({
    line_id: lineId.schema("The order line"),
    reason: z.string().min(3).describe("Why it is cancelled"),
  }),
  handler: ({ line_id, reason }, { db }: ToolContext) => {
    const line = lineOnOrder(db, line_id, "cancelled");
    const cancelled = updateEntity(db, "order_lines", lineId, line_id, {
      status: "cancelled",
      cancel_reason: reason,
    });
    const next = (getRow<{ n: number }>(db, "SELECT MAX(txn_id) AS n FROM fund_transactions")?.n ?? 0) + 1;
    const release = insertRow(db, "fund_transactions", {
      txn_id: next,
      fund_code: line.fund_code,
      posted_on: REFERENCE_DATE,
      kind: "release",
      amount: line.encumbered,
      reference: line_id,
    });
    return { line: cancelled, release };
  },
});

const listInvoices = defineListTool({
  name: "list_invoices",
  description:
    "List vendor invoices (vendor, the vendor's invoice number, date, total, number of printout pages, status pending/approved/on_hold/paid) matching all given filters, ordered by id. The lines are only on the printout: get_invoice_page. Paginated: returns `invoices`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: z
      .enum(["pending", "approved", "on_hold", "paid"])
      .optional()
      .describe("Only invoices in this status"),
    vendor_id: vendorId.schema("Only this vendor's invoices").optional(),
  },
  key: "invoices",
  from: "invoices",
  select: "invoice_id, vendor_id, vendor_invoice_no, invoice_date, total, page_count, status",
  where: { status: "=", vendor_id: "=" },
  orderBy: "invoice_id",
});

const getInvoicePage = defineTool({
  name: "get_invoice_page",
  description:
    "Get one page of an invoice printout as the vendor sent it (plain text, fixed columns). Returns `invoice_id`, `page`, `page_count`, `status` ('ok') and `text`.",
  kind: "read",
  inputSchema: z.object({
    invoice_id: invoiceId.schema("The invoice"),
    page: z.number().int().min(1).default(1).describe("Page number, from 1"),
  }),
  handler: ({ invoice_id, page }, { db }: ToolContext) => {
    const invoice = requireRow<{ page_count: number }>(
      db,
      "SELECT page_count FROM invoices WHERE invoice_id = ?",
      [invoice_id],
      invoiceId.notFound(invoice_id).message,
    );
    if (page > invoice.page_count)
      throw new ToolFailure(
        `invoice ${invoice_id} has ${invoice.page_count} page(s); ask for page 1 to ${invoice.page_count}`,
      );
    const text = getRow<{ text: string }>(
      db,
      "SELECT text FROM invoice_pages WHERE invoice_id = ? AND page_no = ?",
      invoice_id,
      page,
    )!.text;
    return { invoice_id, page, page_count: invoice.page_count, status: "ok", text };
  },
});

/** The part every invoice review shares: a pending invoice, set to its new status. */
const invoiceReview = {
  id: invoiceId,
  idDescription: "The pending invoice",
  table: "invoices",
  from: ["pending"],
  refusal: (id: string, status: string) =>
    `invoice ${id} is ${status}; only pending invoices can be reviewed`,
  key: "invoice",
} as const;

const approveInvoice = defineStatusTool({
  name: "approve_invoice",
  description: "Approve a pending invoice for payment. Returns `invoice`.",
  ...invoiceReview,
  set: () => ({ status: "approved", hold_reason: null }),
});

const holdInvoice = defineStatusTool({
  name: "hold_invoice",
  description: "Put a pending invoice on hold. Returns `invoice`.",
  ...invoiceReview,
  input: { reason: z.string().min(3).describe("Why, naming the lines in question") },
  set: ({ reason }) => ({ status: "on_hold", hold_reason: reason }),
});

const listPatronRequests = defineListTool({
  name: "list_patron_requests",
  description:
    "List patron purchase requests (patron, requested_on, title, author, ISBN, format, publication year, list price, status pending/approved/declined, decided_on) matching all given filters, ordered by id. Paginated: returns `requests`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["pending", "approved", "declined"], "Only requests in this status"),
    patron_id: z
      .string()
      .regex(/^P\d{7}$/, "patron ids look like P1234567")
      .optional()
      .describe("Only this patron's requests"),
  },
  key: "requests",
  from: "patron_requests",
  where: { status: "=", patron_id: "=" },
  orderBy: "request_id",
});

const decideRequest = defineStatusTool({
  name: "decide_request",
  description: "Approve or decline a pending patron purchase request, dated today. Returns `request`.",
  id: requestId,
  idDescription: "The pending request",
  input: {
    decision: z.enum(["approve", "decline"]).describe("approve or decline"),
    note: z.string().min(3).describe("The reason, for the patron"),
  },
  table: "patron_requests",
  from: ["pending"],
  refusal: (id, status) => `request ${id} was already ${status}`,
  set: ({ decision, note }) => ({
    status: decision === "approve" ? "approved" : "declined",
    decided_on: REFERENCE_DATE,
    decision_note: note,
  }),
  key: "request",
});

/** The acquisitions domain's tools, in the order agents see them. */
export const libraryTools: DomainTool[] = [
  listVendors,
  listFunds,
  // The ledger's older pages come from the finance system's archive: each fails once with a 503.
  withTransientFailures(listFundTransactions, { when: (input) => input.page >= 2 }),
  listBibs,
  // The catalog times out once on some records.
  withTransientFailures(getBib, { when: (input) => Number(input.bib_id.slice(4)) % 6 === 1 }),
  listOrderLines,
  listClaims,
  claimOrderLine,
  cancelOrderLine,
  listInvoices,
  // The EDI gateway answers "still converting" (an ordinary result) the first time for some pages.
  withSilentFailures(getInvoicePage, {
    when: (input) => input.page === 2 || Number(input.invoice_id.slice(4)) % 4 === 1,
    body: (input) => ({
      invoice_id: input.invoice_id,
      page: input.page,
      status: "error",
      error: "EDI gateway timeout: the printout page is still being converted; request it again",
    }),
  }),
  approveInvoice,
  holdInvoice,
  listPatronRequests,
  decideRequest,
] as DomainTool[];
