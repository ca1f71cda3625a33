import {
  allRows,
  check,
  daysBetween,
  defineTask,
  nearlyEqual,
  roundCents,
  type Check,
  type VerifyContext,
} from "../../../envs/index.js";
import { payablesDomain } from "../domain.js";
import { AGING_BUCKETS, TODAY, agingBucket, dueDate } from "../rules.js";
import {
  PYTHON_PRELUDE,
  answerAmount,
  answerFormatFailure,
  answerObject,
  governingTerms,
  nearMisses,
} from "../task-support.js";

/** Open balances of every unpaid, non-void invoice by days past due under the governing terms. */
export function expectedAging({ initial }: Pick<VerifyContext, "initial">): Record<string, number> {
  const governing = governingTerms(initial);
  const rows = allRows<{
    vendor_id: string;
    invoice_date: string;
    total: number;
    terms_code: string;
    settled: number;
  }>(
    initial.db,
    `SELECT i.invoice_id, i.vendor_id, i.invoice_date, i.total, v.terms_code,
            (SELECT COALESCE(SUM(p.amount + p.discount_taken), 0) FROM payments p
              WHERE p.invoice_id = i.invoice_id AND p.status != 'void') AS settled
       FROM invoices i JOIN vendors v ON v.vendor_id = i.vendor_id
      WHERE i.status IN ('pending_approval', 'approved', 'on_hold')`,
  );
  const sums: Record<string, number> = Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, 0]));
  for (const row of rows) {
    const terms = governing(row.vendor_id, row.terms_code);
    const bucket = agingBucket(daysBetween(dueDate(row.invoice_date, terms), TODAY));
    sums[bucket] = sums[bucket]! + row.total - row.settled;
  }
  for (const bucket of AGING_BUCKETS) sums[bucket] = roundCents(sums[bucket]!);
  return sums;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedAging(context);
  const given = answerObject(context.answer);
  if (!given) return answerFormatFailure("a JSON object of bucket totals", context.answer);
  return AGING_BUCKETS.map((bucket) => {
    const value = answerAmount(given[bucket]);
    return check(
      `bucket-${bucket}`,
      Number.isFinite(value) && nearlyEqual(value, expected[bucket]!, 0.02),
      `${bucket}: expected ${expected[bucket]!.toFixed(2)}, got ${String(given[bucket])}`,
    );
  });
}

const MISSES = {
  "ignores-partial-payments": "Ages the full invoice total, ignoring partial payments already made.",
  "approved-only": "Leaves out invoices pending approval and on hold, which are still owed.",
  "ignores-contract-terms": "Computes due dates from the vendor master terms where a contract governs.",
  "ages-from-invoice-date": "Counts days from the invoice date instead of the due date.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  return [
    PYTHON_PRELUDE,
    String.raw`
policy = read_text("policies/ap-policy.md")
vendors, governing_of = governing_terms(${miss === "ignores-contract-terms" ? "False" : "True"})
statuses = ${miss === "approved-only" ? '["approved"]' : '["pending_approval", "approved", "on_hold"]'}
open_invoices = invoices_in(statuses)
payments = fetch_all("list_payments", "payments")
print(len(open_invoices), "open invoices,", len(payments), "payments")
`,
    String.raw`
settled = {}
for payment in payments:
    if payment["status"] != "void":
        settled[payment["invoice_id"]] = settled.get(payment["invoice_id"], 0) + payment["amount"] + payment["discount_taken"]

def bucket(days_past_due):
    if days_past_due <= 0:
        return "current"
    if days_past_due <= 30:
        return "1-30"
    if days_past_due <= 60:
        return "31-60"
    if days_past_due <= 90:
        return "61-90"
    return "over_90"

aging = {name: 0.0 for name in ["current", "1-30", "31-60", "61-90", "over_90"]}
for invoice in open_invoices:
    due = plus_days(invoice["invoice_date"], ${miss === "ages-from-invoice-date" ? "0" : 'governing_of(invoice["vendor_id"])["net_days"]'})
    balance = invoice["total"] - ${miss === "ignores-partial-payments" ? "0" : 'settled.get(invoice["invoice_id"], 0)'}
    aging[bucket(days(due, TODAY))] += balance
print(json.dumps({name: round(total, 2) for name, total in aging.items()}))
`,
  ];
}

export const agingReportTask = defineTask({
  id: "payables.aging-report",
  domain: payablesDomain,
  summary:
    "Age every open invoice's balance (after partial payments, under contract terms where they govern) into the AP policy's past-due buckets.",
  instruction:
    'Prepare the AP aging as of today, Monday, June 30, 2025, following the aging rules of our AP policy (which invoices count, their open balances, and due dates under the payment terms that govern each invoice). Reply with only a JSON object of the open balance in dollars per bucket, with exactly these keys: {"current": 0.0, "1-30": 0.0, "31-60": 0.0, "61-90": 0.0, "over_90": 0.0}.',
  tools: [
    "list_invoices",
    "get_invoice",
    "list_payments",
    "list_vendors",
    "get_vendor",
    "list_payment_terms",
  ],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
