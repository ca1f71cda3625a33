import { z } from "zod";
import {
  allRows,
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  REFERENCE_DATE,
  requireEntity,
  updateEntity,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { creditNoteId, customerId, invoiceId, paymentId, subscriptionId } from "./rules.js";

const PLAN_CODES = ["STARTER", "TEAM", "BUSINESS", "ENTERPRISE"] as const;
const SUBSCRIPTION_STATUSES = ["active", "past_due", "suspended", "cancelled"] as const;

const listCustomers = defineListTool({
  name: "list_customers",
  description:
    "List customer accounts (id, name, region, segment, payment terms), ordered by id. Paginated: returns `customers`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    region: optionalChoice(["NA", "EU", "APAC"], "Only accounts in this region"),
    segment: optionalChoice(["smb", "mid_market", "enterprise"], "Only accounts in this segment"),
  },
  key: "customers",
  from: "customers",
  where: { region: "=", segment: "=" },
  orderBy: "customer_id",
});

const getCustomer = defineGetTool({
  name: "get_customer",
  description:
    "Get one customer account with its billing contacts (name, email, role). Returns `customer`, `contacts`.",
  input: { customer_id: customerId.schema("The customer") },
  key: "customer",
  from: "customers",
  notFound: customerId,
  related: {
    contacts: "SELECT name, email, role FROM billing_contacts WHERE customer_id = ? ORDER BY contact_id",
  },
});

const findContact = defineTool({
  name: "find_contact_by_email",
  description:
    "Look up billing-system contacts by exact email address (case-insensitive). Returns `contacts` (customer_id, name, email, role); empty when nobody has that address.",
  kind: "read",
  inputSchema: z.object({ email: z.string().min(3).describe("The email address") }),
  handler: ({ email }, { db }: ToolContext) => ({
    contacts: allRows(
      db,
      "SELECT customer_id, name, email, role FROM billing_contacts WHERE lower(email) = lower(?) ORDER BY contact_id",
      email.trim(),
    ),
  }),
});

const listPlans = defineTool({
  name: "list_plans",
  description:
    "List the plans (code, name, seat price, included API calls per month, SLA eligibility). Returns `plans`.",
  kind: "read",
  inputSchema: z.object({}),
  handler: (_input, { db }: ToolContext) => ({
    plans: allRows(db, "SELECT * FROM plans ORDER BY seat_price").map((row) =>
      withBooleans(row, "sla_eligible"),
    ),
  }),
});

const getPlan = defineGetTool({
  name: "get_plan",
  description:
    "Get one plan with its overage price tiers (tier ranges count calls beyond the included allowance; to_calls null means no upper bound). Returns `plan`, `tiers`.",
  input: { plan_code: z.enum(PLAN_CODES).describe("The plan code") },
  key: "plan",
  from: "plans",
  notFound: (planCode) => `plan ${planCode} not found`,
  map: (row) => withBooleans(row, "sla_eligible"),
  related: {
    tiers:
      "SELECT tier_no, from_calls, to_calls, price_per_1000 FROM price_tiers WHERE plan_code = ? ORDER BY tier_no",
  },
});

const listSubscriptions = defineListTool({
  name: "list_subscriptions",
  description:
    "List subscriptions (customer, plan, seats, start and renewal dates, status), ordered by id. Paginated: returns `subscriptions`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    customer_id: customerId.schema("Only this customer's subscriptions").optional(),
    plan_code: optionalChoice(PLAN_CODES, "Only this plan"),
    status: optionalChoice(SUBSCRIPTION_STATUSES, "Only this status"),
    renewal_from: optionalDate("Only renewals on or after this date"),
    renewal_to: optionalDate("Only renewals on or before this date"),
  },
  key: "subscriptions",
  from: "subscriptions",
  where: {
    customer_id: "=",
    plan_code: "=",
    status: "=",
    renewal_from: "renewal_date >= ?",
    renewal_to: "renewal_date <= ?",
  },
  orderBy: "subscription_id",
});

const getSubscription = defineGetTool({
  name: "get_subscription",
  description: "Get one subscription. Returns `subscription`.",
  input: { subscription_id: subscriptionId.schema("The subscription") },
  key: "subscription",
  from: "subscriptions",
  notFound: subscriptionId,
});

const updateSubscriptionStatus = defineTool({
  name: "update_subscription_status",
  description:
    "Change a subscription's status (active, past_due, suspended, cancelled) and record why. Returns the updated `subscription`.",
  kind: "write",
  inputSchema: z.object({
    subscription_id: subscriptionId.schema("The subscription"),
    status: z.enum(SUBSCRIPTION_STATUSES).describe("The new status"),
    reason: z.string().min(3).describe("Why the status changes"),
  }),
  handler: ({ subscription_id, status, reason }, { db }: ToolContext) => {
    requireEntity(db, "subscriptions", subscriptionId, subscription_id, "1");
    const change = { status, status_reason: reason };
    return { subscription: updateEntity(db, "subscriptions", subscriptionId, subscription_id, change) };
  },
});

const listUsage = defineListTool({
  name: "list_usage_records",
  description:
    "List daily metered usage records (API calls per subscription per day), ordered by subscription then date. Paginated: returns `records`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    subscription_id: subscriptionId.schema("Only this subscription's usage").optional(),
    date_from: optionalDate("Only usage on or after this date"),
    date_to: optionalDate("Only usage on or before this date"),
  },
  key: "records",
  from: "usage_records",
  select: "subscription_id, usage_date, api_calls",
  where: { subscription_id: "=", date_from: "usage_date >= ?", date_to: "usage_date <= ?" },
  orderBy: "subscription_id, usage_date, record_id",
});

const listInvoices = defineListTool({
  name: "list_invoices",
  description:
    "List invoices (customer, subscription, period, issue and due dates, status, subtotal, discount, total), ordered by id. Paginated: returns `invoices`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    customer_id: customerId.schema("Only this customer's invoices").optional(),
    subscription_id: subscriptionId.schema("Only this subscription's invoices").optional(),
    status: optionalChoice(["open", "paid", "void"], "Only this status"),
    issued_from: optionalDate("Only invoices issued on or after this date"),
    issued_to: optionalDate("Only invoices issued on or before this date"),
  },
  key: "invoices",
  from: "invoices",
  where: {
    customer_id: "=",
    subscription_id: "=",
    status: "=",
    issued_from: "issued_on >= ?",
    issued_to: "issued_on <= ?",
  },
  orderBy: "invoice_id",
});

const getInvoice = defineGetTool({
  name: "get_invoice",
  description: "Get one invoice with its lines (seats, overage, discount). Returns `invoice`, `lines`.",
  input: { invoice_id: invoiceId.schema("The invoice") },
  key: "invoice",
  from: "invoices",
  notFound: invoiceId,
  related: {
    lines:
      "SELECT line_no, kind, description, quantity, unit_price, amount FROM invoice_lines WHERE invoice_id = ? ORDER BY line_no",
  },
});

const listPayments = defineListTool({
  name: "list_payments",
  description:
    "List payment attempts (invoice, attempt number, date, amount, status succeeded/failed/scheduled, failure code), ordered by id. Paginated: returns `payments`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    invoice_id: invoiceId.schema("Only attempts on this invoice").optional(),
    status: optionalChoice(["succeeded", "failed", "scheduled"], "Only this status"),
  },
  key: "payments",
  from: "payments",
  where: { invoice_id: "=", status: "=" },
  orderBy: "payment_id",
});

const scheduleRetry = defineTool({
  name: "schedule_payment_retry",
  description:
    "Schedule a payment retry for today on an open invoice: records the next attempt (attempt number one above the latest) for the invoice total, status 'scheduled'. Returns `payment`.",
  kind: "write",
  inputSchema: z.object({ invoice_id: invoiceId.schema("The open invoice") }),
  handler: ({ invoice_id }, { db }: ToolContext) => {
    const invoice = requireEntity<{ status: string; total: number }>(
      db,
      "invoices",
      invoiceId,
      invoice_id,
      "status, total",
    );
    if (invoice.status !== "open")
      throw new ToolFailure(`invoice ${invoice_id} is ${invoice.status}; only open invoices can be retried`);
    const latest =
      getRow<{ n: number | null }>(
        db,
        "SELECT MAX(attempt_no) AS n FROM payments WHERE invoice_id = ?",
        invoice_id,
      )?.n ?? 0;
    const id = paymentId.next(db, "payments");
    cachedStatement(db, "INSERT INTO payments VALUES (?, ?, ?, ?, ?, 'scheduled', NULL)").run(
      id,
      invoice_id,
      latest + 1,
      REFERENCE_DATE,
      invoice.total,
    );
    return { payment: getRow(db, "SELECT * FROM payments WHERE payment_id = ?", id) };
  },
});

const listCreditNotes = defineListTool({
  name: "list_credit_notes",
  description:
    "List credit notes, ordered by id. Paginated: returns `credit_notes`, `page`, `per_page`, `total`, `has_more`.",
  filters: { customer_id: customerId.schema("Only this customer's credit notes").optional() },
  key: "credit_notes",
  from: "credit_notes",
  where: { customer_id: "=" },
  orderBy: "credit_note_id",
});

const createCreditNote = defineTool({
  name: "create_credit_note",
  description: "Issue a credit note against an invoice of the customer, dated today. Returns `credit_note`.",
  kind: "write",
  inputSchema: z.object({
    invoice_id: invoiceId.schema("The invoice credited"),
    amount: z.number().positive().describe("Credit amount in USD"),
    reason: z.string().min(3).describe("Why the credit is issued"),
  }),
  handler: ({ invoice_id, amount, reason }, { db }: ToolContext) => {
    const invoice = requireEntity<{ customer_id: string; total: number }>(
      db,
      "invoices",
      invoiceId,
      invoice_id,
      "customer_id, total",
    );
    if (amount > invoice.total)
      throw new ToolFailure(`credit ${amount} exceeds invoice ${invoice_id} total ${invoice.total}`);
    const id = creditNoteId.next(db, "credit_notes");
    cachedStatement(db, "INSERT INTO credit_notes VALUES (?, ?, ?, ?, ?, ?)").run(
      id,
      invoice.customer_id,
      invoice_id,
      Math.round(amount * 100) / 100,
      reason,
      REFERENCE_DATE,
    );
    return { credit_note: getRow(db, "SELECT * FROM credit_notes WHERE credit_note_id = ?", id) };
  },
});

const getAccountStatement = defineTool({
  name: "get_account_statement",
  description:
    "Get a customer's account statement from the receivables service: every invoice of the account (id, subscription, issue and due dates, status, total) and every credit note against them (id, invoice, amount, date). Returns `customer_id`, `invoices`, `credit_notes`.",
  kind: "read",
  inputSchema: z.object({ customer_id: customerId.schema("The customer") }),
  handler: ({ customer_id }, { db }: ToolContext) => {
    requireEntity(db, "customers", customerId, customer_id, "1");
    return {
      customer_id,
      invoices: allRows(
        db,
        "SELECT invoice_id, subscription_id, issued_on, due_on, status, total FROM invoices WHERE customer_id = ? ORDER BY invoice_id",
        customer_id,
      ),
      credit_notes: allRows(
        db,
        "SELECT credit_note_id, invoice_id, amount, issued_on FROM credit_notes WHERE customer_id = ? ORDER BY credit_note_id",
        customer_id,
      ),
    };
  },
});

/**
 * The receivables service times out on some accounts and says so only in the body: the first statement
 * of every customer whose number ends in 2 or 7 is `{"status": "error", ...}` without MCP isError.
 */
export const flakyStatement = withSilentFailures(getAccountStatement, {
  when: (input) => Number(input.customer_id.slice(4)) % 5 === 2,
});

/** The metering API is flaky on deep pages: the third page of any listing fails once with a 503. */
export const flakyUsage = withTransientFailures(listUsage, { when: (input) => input.page === 3 });

export const billingTools: DomainTool[] = [
  listCustomers,
  getCustomer,
  findContact,
  listPlans,
  getPlan,
  listSubscriptions,
  getSubscription,
  updateSubscriptionStatus,
  flakyUsage,
  listInvoices,
  getInvoice,
  listPayments,
  scheduleRetry,
  listCreditNotes,
  createCreditNote,
  flakyStatement,
] as DomainTool[];
