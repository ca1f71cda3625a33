import { addDays, allRows, defineTask, type Check, type VerifyContext } from "../../../envs/index.js";
import { payablesDomain } from "../domain.js";
import { TODAY, discountAmount, discountDeadline } from "../rules.js";
import { PYTHON_PRELUDE, checkAmountsAnswer, governingTerms, nearMisses } from "../task-support.js";

const WEEK_END = addDays(TODAY, 6);

/** Discounts still available this week on approved, unpaid invoices under their governing terms. */
export function expectedDiscounts({ initial }: Pick<VerifyContext, "initial">): Map<string, number> {
  const governing = governingTerms(initial);
  const rows = allRows<{
    invoice_id: string;
    vendor_id: string;
    invoice_date: string;
    subtotal: number;
    terms_code: string;
  }>(
    initial.db,
    `SELECT i.invoice_id, i.vendor_id, i.invoice_date, i.subtotal, v.terms_code
       FROM invoices i JOIN vendors v ON v.vendor_id = i.vendor_id
      WHERE i.status = 'approved'
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = i.invoice_id)
      ORDER BY i.invoice_id`,
  );
  const expected = new Map<string, number>();
  for (const row of rows) {
    const terms = governing(row.vendor_id, row.terms_code);
    const deadline = discountDeadline(row.invoice_date, terms);
    if (deadline !== null && deadline >= TODAY && deadline <= WEEK_END)
      expected.set(row.invoice_id, discountAmount(row.subtotal, terms));
  }
  return expected;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedDiscounts(context);
  if (expected.size === 0) throw new Error("generation produced no discount available this week");
  return checkAmountsAnswer(context.answer, expected, {
    wanted: "a JSON object of invoice id to discount",
    normaliseKey: (id) => id.trim().toUpperCase(),
    keysId: "invoices",
    keys: {
      success: `the ${expected.size} invoices with a discount deadline this week are listed`,
      extraLabel: "not eligible this week:",
    },
    amountsRight: "every discount amount is right",
  });
}

const MISSES = {
  "ignores-contract-terms": "Uses the vendor master terms even where a vendor contract states other terms.",
  "discount-on-freight": "Computes the discount on the invoice total, freight included.",
  "deadline-today-excluded": "Drops invoices whose discount deadline is today.",
  "includes-unapproved": "Counts invoices pending approval or on hold, which the policy does not pay early.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  return [
    PYTHON_PRELUDE,
    String.raw`
policy = read_text("policies/ap-policy.md")
vendors, governing_of = governing_terms(${miss === "ignores-contract-terms" ? "False" : "True"})
statuses = ${miss === "includes-unapproved" ? '["approved", "pending_approval", "on_hold"]' : '["approved"]'}
invoices = invoices_in(statuses)
week_end = plus_days(TODAY, 6)
candidates = []
for invoice in invoices:
    governing = governing_of(invoice["vendor_id"])
    if governing["discount_percent"] <= 0:
        continue
    deadline = plus_days(invoice["invoice_date"], governing["discount_days"])
    if ${miss === "deadline-today-excluded" ? "TODAY < deadline" : "TODAY <= deadline"} <= week_end:
        candidates.append((invoice, governing))
print(len(invoices), "invoices,", len(candidates), "with a discount deadline this week")
`,
    String.raw`
discounts = {}
for invoice, governing in candidates:
    detail = call("get_invoice", invoice_id=invoice["invoice_id"])
    if detail["payments"]:
        continue
    base = sum(line["amount"] for line in detail["lines"] if ${miss === "discount-on-freight" ? "True" : 'line["line_type"] == "merchandise"'})
    discounts[invoice["invoice_id"]] = round(base * governing["discount_percent"] / 100 + 1e-9, 2)
print(json.dumps(discounts))
`,
  ];
}

export const earlyPaymentDiscountsTask = defineTask({
  id: "payables.early-payment-discounts",
  domain: payablesDomain,
  summary:
    "Find the early-payment discounts still available this week under each invoice's governing terms (vendor contracts override the vendor master), computed on the merchandise subtotal.",
  instruction:
    'Treasury wants to know which early-payment discounts we can still capture by paying this week. Today is Monday, June 30, 2025: consider every invoice whose discount deadline falls between today and Sunday, July 6, 2025 (both included) and that our AP policy allows us to pay early, with the payment terms that govern it. Reply with only a JSON object mapping each AP invoice id to the discount amount in dollars, e.g. {"AP-00123": 84.12}.',
  tools: [
    "list_invoices",
    "get_invoice",
    "list_invoice_lines",
    "list_vendors",
    "get_vendor",
    "list_payment_terms",
    "list_payments",
  ],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
