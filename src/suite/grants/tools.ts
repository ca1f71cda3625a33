import { z } from "zod";
import type { DomainTool, IdFormat, ToolContext } from "../../envs/index.js";
import {
  REFERENCE_DATE,
  allRows,
  cachedStatement,
  defineGetTool,
  optionalChoice,
  optionalDate,
  updateEntity,
} from "../../envs/index.js";
import { defineListTool, getRow, insertRow, isoDateSchema, requireEntity } from "../../envs/index.js";
import { roundCents, withSilentFailures, withTransientFailures } from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { CATEGORIES, OBJECT_CODES, awardId, documentId } from "./rules.js";
import { personId, sponsorId, subawardId, txnId } from "./rules.js";

const categorySchema = z.enum(Object.keys(CATEGORIES) as [string, ...string[]]);
const objectCodeSchema = z.enum(Object.keys(OBJECT_CODES) as [string, ...string[]]);
const DOC_TYPES = ["award_letter", "subaward_invoice", "effort_certification", "extension_request"] as const;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const number = (id: string): number => Number(id.replace(/\D/g, ""));

const listSponsors = defineListTool({
  name: "list_sponsors",
  description:
    "List sponsors (id, name, type: federal/foundation/industry/state, and the workspace path of their terms and conditions), ordered by id. Paginated: returns `sponsors`, `page`, `per_page`, `total`, `has_more`.",
  key: "sponsors",
  from: "sponsors",
  orderBy: "sponsor_id",
});

const listAwards = defineListTool({
  name: "list_awards",
  description:
    "List awards matching all given filters, ordered by id: sponsor, title, PI, department, project period, status (active, or closed once the end date has passed) and the number of no-cost extensions granted so far. Paginated: returns `awards`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["active", "closed"], "Only awards in this status"),
    sponsor_id: sponsorId.schema("Only this sponsor's awards").optional(),
  },
  key: "awards",
  from: "awards",
  select: "award_id, sponsor_id, title, pi_id, department, start_date, end_date, status, extensions",
  where: { status: "=", sponsor_id: "=" },
  orderBy: "award_id",
});

const getAward = defineGetTool({
  name: "get_award",
  description:
    "Get one award with its budget lines for the current budget period (category, amount), the people committed to it (person, role, committed effort in percent) and its subawards. Returns `award`, `budget`, `commitments`, `subawards`.",
  input: { award_id: awardId.schema("The award") },
  key: "award",
  from: "awards",
  notFound: awardId,
  related: {
    budget: "SELECT category, amount FROM budget_lines WHERE award_id = ? ORDER BY category",
    commitments:
      "SELECT c.person_id, p.name, c.role, c.committed_pct FROM commitments c JOIN personnel p ON p.person_id = c.person_id WHERE c.award_id = ? ORDER BY c.person_id",
    subawards:
      "SELECT subaward_id, subrecipient, obligated, start_date, end_date FROM subawards WHERE award_id = ? ORDER BY subaward_id",
  },
});

const listTransactions = defineListTool({
  name: "list_transactions",
  description:
    "List general-ledger charges to awards matching all given filters, ordered by posting date then id: award, object code (see the chart of accounts), budget category, description, amount, the subaward paid (object code 5700) and status (posted, or transferred off the award). Paginated: returns `transactions`, `page`, `per_page`, `total`, `has_more`. The ledger is busy: a call can fail with 503 (an error; repeat it).",
  filters: {
    award_id: awardId.schema("Only charges to this award").optional(),
    object_code: objectCodeSchema.optional().describe("Only this object code"),
    posted_from: optionalDate("Only charges posted on or after this date"),
    posted_to: optionalDate("Only charges posted on or before this date"),
  },
  key: "transactions",
  from: "transactions",
  where: { award_id: "=", object_code: "=", posted_from: "posted_on >= ?", posted_to: "posted_on <= ?" },
  orderBy: "posted_on, txn_id",
});

const listDocuments = defineListTool({
  name: "list_documents",
  description:
    "List scanned documents in the register matching all given filters, ordered by id: type (award_letter, subaward_invoice, effort_certification, extension_request), award, title, page count, the date the office received it and status (filed; pending, paid or held for invoices; pending for extension requests). The text is on get_document_page. Paginated: returns `documents`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    doc_type: optionalChoice(DOC_TYPES, "Only this kind of document"),
    status: optionalChoice(["filed", "pending", "paid", "held"], "Only documents in this status"),
  },
  key: "documents",
  from: "documents",
  select: "doc_id, doc_type, award_id, title, page_count, received_on, status",
  where: { doc_type: "=", status: "=" },
  orderBy: "doc_id",
});

type Db = ToolContext["db"];
type Row = Record<string, unknown>;

const TABLES: Record<string, string> = { award_id: "awards", txn_id: "transactions", doc_id: "documents" };

/** The row an id names (the table follows the id's field), or the id format's not-found error. */
const one = <Result = Row>(db: Db, format: IdFormat, id: string): Result =>
  requireEntity<Result>(db, TABLES[format.field] ?? "subawards", format, id);

const run = (db: Db, sql: string, ...params: unknown[]): unknown => cachedStatement(db, sql).run(...params);

const getDocumentPage = defineTool({
  name: "get_document_page",
  description:
    "Get the OCR text of one page of a scanned document, layout and scan noise included. Returns `doc_id`, `doc_type`, `page`, `page_count`, `status` and `text`; `status` is `queued` while the page waits for OCR (then `text` is a notice, not the page): request it again.",
  kind: "read",
  inputSchema: z.object({
    doc_id: documentId.schema("The document"),
    page: z.number().int().min(1).default(1).describe("Page number, from 1"),
  }),
  handler: ({ doc_id, page }, { db }: ToolContext) => {
    const { doc_type, page_count } = one<{ doc_type: string; page_count: number }>(db, documentId, doc_id);
    if (page > page_count)
      throw new ToolFailure(`document ${doc_id} has ${page_count} page(s); ask for page 1 to ${page_count}`);
    const sql = "SELECT ocr_text FROM document_pages WHERE doc_id = ? AND page_no = ?";
    const { ocr_text: text } = getRow<{ ocr_text: string }>(db, sql, doc_id, page)!;
    return { doc_id, doc_type, page, page_count, status: "ok", text };
  },
});

const getSubaward = defineGetTool({
  name: "get_subaward",
  description:
    "Get one subaward (prime award, subrecipient, obligated amount, period) with every payment made on it since it began (invoice number, amount, paid on). Returns `subaward`, `payments`. Some subawards' records are slow to load: a call can fail with 503 (an error; repeat it).",
  input: { subaward_id: subawardId.schema("The subaward") },
  key: "subaward",
  from: "subawards",
  notFound: subawardId,
  related: {
    payments:
      "SELECT invoice_no, amount, paid_on FROM subaward_payments WHERE subaward_id = ? ORDER BY paid_on",
  },
});

const listPersonnel = defineListTool({
  name: "list_personnel",
  description:
    "List university personnel on sponsored projects (id, name, department, appointment: faculty, postdoc, staff or graduate_student), ordered by id. Paginated: returns `personnel`, `page`, `per_page`, `total`, `has_more`.",
  key: "personnel",
  from: "personnel",
  orderBy: "person_id",
});

const getPerson = defineGetTool({
  name: "get_person",
  description:
    "Get one person with their effort commitments on every award, current or past (award, role, committed effort in percent). Returns `person`, `commitments`. The HR feed behind it sometimes drops a request: the reply is then an object with an `error` message and no `person` (not an error result); request it again.",
  input: { person_id: personId.schema("The person") },
  key: "person",
  from: "personnel",
  notFound: personId,
  related: {
    commitments:
      "SELECT award_id, role, committed_pct FROM commitments WHERE person_id = ? ORDER BY award_id",
  },
});

const postIndirectCosts = defineTool({
  name: "post_indirect_costs",
  description: "Post one month's F&A (indirect cost) charge on an award, dated today. Returns `posting`.",
  kind: "write",
  inputSchema: z.object({
    award_id: awardId.schema("The award"),
    month: z.string().regex(MONTH, "expected YYYY-MM").describe("The month charged, YYYY-MM"),
    amount: z.number().positive().describe("The F&A amount in dollars"),
  }),
  handler: ({ award_id, month, amount }, { db }: ToolContext) => {
    one(db, awardId, award_id);
    if (getRow(db, "SELECT 1 FROM idc_postings WHERE award_id = ? AND month = ?", award_id, month))
      throw new ToolFailure(`F&A for ${month} is already posted on ${award_id}`);
    const posting = { award_id, month, amount: roundCents(amount), posted_on: REFERENCE_DATE };
    return { posting: insertRow(db, "idc_postings", posting) };
  },
});

const transferCost = defineTool({
  name: "transfer_cost",
  description:
    "Transfer a charge off its award to the department's unrestricted account, for the full amount, dated today. Returns `transfer`.",
  kind: "write",
  inputSchema: z.object({
    txn_id: txnId.schema("The charge"),
    reason: z.string().min(3).describe("Why it is moved"),
  }),
  handler: ({ txn_id, reason }, { db }: ToolContext) => {
    const { amount, status } = one<{ amount: number; status: string }>(db, txnId, txn_id);
    if (status !== "posted") throw new ToolFailure(`${txn_id} was already transferred off its award`);
    run(db, "UPDATE transactions SET status = 'transferred' WHERE txn_id = ?", txn_id);
    const transfer = { txn_id, amount, reason, transferred_on: REFERENCE_DATE };
    return { transfer: insertRow(db, "cost_transfers", transfer) };
  },
});

function pendingInvoice(db: Db, id: string): { award_id: string } {
  const doc = one<{ award_id: string; doc_type: string; status: string }>(db, documentId, id);
  if (doc.doc_type !== "subaward_invoice" || doc.status !== "pending")
    throw new ToolFailure(`${id} is not a pending subaward invoice (it is a ${doc.doc_type}, ${doc.status})`);
  return doc;
}

const approveInvoice = defineTool({
  name: "approve_subaward_invoice",
  description:
    "Approve a pending subaward invoice for payment: records the payment on the subaward (dated today) and marks the invoice paid. Returns `payment`.",
  kind: "write",
  inputSchema: z.object({
    doc_id: documentId.schema("The invoice's document"),
    subaward_id: subawardId.schema("The subaward it bills"),
    invoice_number: z.string().min(1).describe("The invoice number printed on it"),
    amount: z.number().positive().describe("The amount approved, in dollars"),
  }),
  handler: ({ doc_id, subaward_id, invoice_number, amount }, { db }: ToolContext) => {
    const doc = pendingInvoice(db, doc_id);
    const { award_id } = one<{ award_id: string }>(db, subawardId, subaward_id);
    if (award_id !== doc.award_id)
      throw new ToolFailure(
        `${subaward_id} is a subaward of ${award_id}, but ${doc_id} bills ${doc.award_id}`,
      );
    run(db, "UPDATE documents SET status = 'paid' WHERE doc_id = ?", doc_id);
    const [invoice_no, paid] = [invoice_number.trim(), roundCents(amount)];
    const payment = { subaward_id, invoice_no, amount: paid, paid_on: REFERENCE_DATE };
    return { payment: insertRow(db, "subaward_payments", payment) };
  },
});

const holdInvoice = defineTool({
  name: "hold_subaward_invoice",
  description: "Put a pending subaward invoice on hold with the reason. Returns `document`.",
  kind: "write",
  inputSchema: z.object({
    doc_id: documentId.schema("The invoice's document"),
    reason: z.string().min(3).describe("Why it is held"),
  }),
  handler: ({ doc_id }, { db }: ToolContext) => {
    pendingInvoice(db, doc_id);
    return { document: updateEntity(db, "documents", documentId, doc_id, { status: "held" }) };
  },
});

const setBudgetLine = defineTool({
  name: "set_budget_line",
  description:
    "Set the approved amount of one budget category of an award (adds the line if the award has none). Returns `budget`, the award's lines.",
  kind: "write",
  inputSchema: z.object({
    award_id: awardId.schema("The award"),
    category: categorySchema.describe("The budget category"),
    amount: z.number().min(0).describe("The approved amount in dollars"),
  }),
  handler: ({ award_id, category, amount }, { db }: ToolContext) => {
    one(db, awardId, award_id);
    const upsert =
      "INSERT INTO budget_lines VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET amount = excluded.amount";
    run(db, upsert, award_id, category, roundCents(amount));
    return { budget: allRows(db, "SELECT category, amount FROM budget_lines WHERE award_id = ?", award_id) };
  },
});

const recodeTransaction = defineTool({
  name: "recode_transaction",
  description:
    "Move a charge to another object code (its budget category follows the chart of accounts). Returns `transaction`.",
  kind: "write",
  inputSchema: z.object({
    txn_id: txnId.schema("The charge"),
    object_code: objectCodeSchema.describe("The new object code"),
  }),
  handler: ({ txn_id, object_code }, { db }: ToolContext) => {
    one(db, txnId, txn_id);
    const { category } = OBJECT_CODES[object_code]!;
    return { transaction: updateEntity(db, "transactions", txnId, txn_id, { object_code, category }) };
  },
});

const action = (db: Db, award_id: string, action: string, detail: string): unknown =>
  insertRow(db, "award_actions", { award_id, action, detail, acted_on: REFERENCE_DATE });

const extendAward = defineTool({
  name: "extend_award",
  description:
    "Grant a no-cost extension of an active award: moves its end date and counts the extension. Returns `award`, `action`.",
  kind: "write",
  inputSchema: z.object({
    award_id: awardId.schema("The award"),
    new_end_date: isoDateSchema.describe("The new end date, YYYY-MM-DD"),
  }),
  handler: ({ award_id, new_end_date: to }, { db }: ToolContext) => {
    const { status, end_date: from } = one<{ status: string; end_date: string }>(db, awardId, award_id);
    if (status !== "active")
      throw new ToolFailure(`${award_id} is ${status}; only active awards are extended`);
    if (to <= from) throw new ToolFailure(`the new end date must be after the current one (${from})`);
    run(db, "UPDATE awards SET end_date = ?, extensions = extensions + 1 WHERE award_id = ?", to, award_id);
    const done = action(db, award_id, "no_cost_extension", `end date ${from} -> ${to}`);
    return { award: one(db, awardId, award_id), action: done };
  },
});

const referExtension = defineTool({
  name: "refer_extension_to_sponsor",
  description:
    "Record that an award's extension request was referred to the sponsor for its decision. Returns `action`.",
  kind: "write",
  inputSchema: z.object({
    award_id: awardId.schema("The award"),
    note: z.string().min(3).describe("Why it goes to the sponsor"),
  }),
  handler: ({ award_id, note }, { db }: ToolContext) => {
    one(db, awardId, award_id);
    return { action: action(db, award_id, "referred_to_sponsor", note) };
  },
});

const QUEUED = "OCR queued: this page has not been recognized yet. Request it again in a moment.";

/** A stable small number per filter combination, so the same ledger queries misbehave in every run. */
function bucket(text: string, buckets: number): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % buckets;
}

/** The grants domain's tools, in the order agents see them. */
export const grantsTools: DomainTool[] = [
  listSponsors,
  listAwards,
  getAward,
  // Deep ledger pages and some filter combinations time out once at the ledger's load balancer.
  withTransientFailures(listTransactions, {
    when: ({ page, award_id, object_code, posted_from, posted_to }) =>
      page >= 2 || bucket(JSON.stringify([award_id, object_code, null, posted_from, posted_to]), 4) === 0,
  }),
  listDocuments,
  // OCR runs in a queue: some pages (every second page, and some documents) answer "queued" once, as an ordinary result.
  withSilentFailures(getDocumentPage, {
    when: (input) => input.page === 2 || number(input.doc_id) % 5 === 3,
    body: ({ doc_id, page }) => ({ doc_id, page, status: "queued", text: QUEUED }),
  }),
  withTransientFailures(getSubaward, { when: (input) => number(input.subaward_id) % 2 === 1 }),
  listPersonnel,
  // The HR feed behind person records drops some requests: an error body instead of the record, once.
  withSilentFailures(getPerson, { when: (input) => number(input.person_id) % 7 === 3 }),
  postIndirectCosts,
  transferCost,
  approveInvoice,
  holdInvoice,
  setBudgetLine,
  recodeTransaction,
  extendAward,
  referExtension,
] as DomainTool[];
