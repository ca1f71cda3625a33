import {
  addDays,
  check,
  defineTask,
  nearlyEqual,
  parseAnswerJson,
  type Check,
  type VerifyContext,
} from "../../../envs/index.js";
import { payablesDomain } from "../domain.js";
import { TODAY, discountAmount, discountDeadline, termsOf } from "../rules.js";
import { PYTHON_PRELUDE, contractTerms } from "../task-support.js";

const WEEK_END = addDays(TODAY, 6);

/** Discounts still available this week on approved, unpaid invoices under their governing terms. */
export function expectedDiscounts({ initial }: Pick<VerifyContext, "initial">): Map<string, number> {
  const contracts = contractTerms(initial);
  const rows = initial.db
    .prepare(
      `SELECT i.invoice_id, i.vendor_id, i.invoice_date, i.subtotal, v.terms_code
         FROM invoices i JOIN vendors v ON v.vendor_id = i.vendor_id
        WHERE i.status = 'approved'
          AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = i.invoice_id)
        ORDER BY i.invoice_id`,
    )
    .all() as Array<{
    invoice_id: string;
    vendor_id: string;
    invoice_date: string;
    subtotal: number;
    terms_code: string;
  }>;
  const expected = new Map<string, number>();
  for (const row of rows) {
    const terms = contracts.get(row.vendor_id) ?? termsOf(row.terms_code);
    const deadline = discountDeadline(row.invoice_date, terms);
    if (deadline !== null && deadline >= TODAY && deadline <= WEEK_END)
      expected.set(row.invoice_id, discountAmount(row.subtotal, terms));
  }
  return expected;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedDiscounts(context);
  if (expected.size === 0) throw new Error("generation produced no discount available this week");
  const parsed = parseAnswerJson(context.answer);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    return [
      check(
        "answer-format",
        false,
        `expected a JSON object of invoice id to discount, got: ${context.answer.slice(0, 200)}`,
      ),
    ];
  const given = new Map(
    Object.entries(parsed as Record<string, unknown>).map(([id, value]) => [
      id.trim().toUpperCase(),
      typeof value === "number" ? value : Number(String(value).replace(/[$,\s]/g, "")),
    ]),
  );
  const missing = [...expected.keys()].filter((id) => !given.has(id));
  const extra = [...given.keys()].filter((id) => !expected.has(id));
  const wrong = [...expected]
    .filter(([id, amount]) => given.has(id) && !nearlyEqual(given.get(id)!, amount))
    .map(([id, amount]) => `${id}: expected ${amount.toFixed(2)}, got ${String(given.get(id))}`);
  return [
    check(
      "invoices",
      missing.length === 0 && extra.length === 0,
      missing.length === 0 && extra.length === 0
        ? `the ${expected.size} invoices with a discount deadline this week are listed`
        : `missing ${missing.join(", ") || "none"}; not eligible this week: ${extra.join(", ") || "none"}`,
    ),
    check(
      "amounts",
      wrong.length === 0,
      wrong.length === 0 ? "every discount amount is right" : wrong.slice(0, 8).join("; "),
    ),
  ];
}

interface Variant {
  ignoreContracts?: boolean;
  onTotal?: boolean;
  excludeToday?: boolean;
  allUnpaid?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    PYTHON_PRELUDE,
    String.raw`
policy = read_text("policies/ap-policy.md")
contracts = ${variant.ignoreContracts ? "{}" : "contract_terms()"}
terms = {item["terms_code"]: item for item in fetch_all("list_payment_terms", "terms")}
vendors = {vendor["vendor_id"]: vendor for vendor in fetch_all("list_vendors", "vendors")}
statuses = ${variant.allUnpaid ? '["approved", "pending_approval", "on_hold"]' : '["approved"]'}
invoices = [invoice for status in statuses for invoice in fetch_all("list_invoices", "invoices", status=status)]
week_end = (date.fromisoformat(TODAY) + timedelta(days=6)).isoformat()
candidates = []
for invoice in invoices:
    governing = terms[contracts.get(invoice["vendor_id"], vendors[invoice["vendor_id"]]["terms_code"])]
    if governing["discount_percent"] <= 0:
        continue
    deadline = (date.fromisoformat(invoice["invoice_date"]) + timedelta(days=governing["discount_days"])).isoformat()
    if ${variant.excludeToday ? "TODAY < deadline" : "TODAY <= deadline"} <= week_end:
        candidates.append((invoice, governing))
print(len(invoices), "invoices,", len(candidates), "with a discount deadline this week")
`,
    String.raw`
discounts = {}
for invoice, governing in candidates:
    detail = call("get_invoice", invoice_id=invoice["invoice_id"])
    if detail["payments"]:
        continue
    base = sum(line["amount"] for line in detail["lines"] if ${variant.onTotal ? "True" : 'line["line_type"] == "merchandise"'})
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
  oracle: cells({}),
  nearMisses: [
    {
      id: "ignores-contract-terms",
      description: "Uses the vendor master terms even where a vendor contract states other terms.",
      cells: cells({ ignoreContracts: true }),
    },
    {
      id: "discount-on-freight",
      description: "Computes the discount on the invoice total, freight included.",
      cells: cells({ onTotal: true }),
    },
    {
      id: "deadline-today-excluded",
      description: "Drops invoices whose discount deadline is today.",
      cells: cells({ excludeToday: true }),
    },
    {
      id: "includes-unapproved",
      description: "Counts invoices pending approval or on hold, which the policy does not pay early.",
      cells: cells({ allUnpaid: true }),
    },
  ],
});
