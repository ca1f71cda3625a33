import { defineBillingTask } from "./python.js";
import { parseAnswerJson, roundCents, type GenerateContext, type StateView } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { contractDiscount, readContracts } from "./contracts.js";
import { compareAmounts, problemsCheck } from "./expectations.js";

interface InvoiceRow {
  invoice_id: string;
  subscription_id: string;
  discount: number;
  seats: number;
}

function contractedInvoices(state: { db: StateView["db"] }, subscriptionIds: string[]): InvoiceRow[] {
  if (subscriptionIds.length === 0) return [];
  return state.db
    .prepare(
      `SELECT i.invoice_id, i.subscription_id, i.discount, l.amount AS seats FROM invoices i
         JOIN invoice_lines l ON l.invoice_id = i.invoice_id AND l.kind = 'seats'
        WHERE i.subscription_id IN (${subscriptionIds.map(() => "?").join(", ")}) ORDER BY i.invoice_id`,
    )
    .all(...subscriptionIds) as InvoiceRow[];
}

/** Plants one invoice that missed its contract discount altogether. */
function prepare(context: GenerateContext): void {
  const ids: string[] = [];
  for (let n = 0; n < 200; n += 1) {
    const text = context.readFile(`${PATHS.contractsDir}/MSA-${2023 + (n % 3)}-${n + 101}.json`);
    if (!text) break;
    ids.push((JSON.parse(text) as { subscription_id: string }).subscription_id);
  }
  const invoice = contractedInvoices(context, ids).find((row) => row.discount > 0);
  if (!invoice) throw new Error("no contracted invoice to plant a missing discount on");
  context.db
    .prepare("DELETE FROM invoice_lines WHERE invoice_id = ? AND kind = 'discount'")
    .run(invoice.invoice_id);
  context.db
    .prepare("UPDATE invoices SET discount = 0, total = subtotal WHERE invoice_id = ?")
    .run(invoice.invoice_id);
}

export function expectedDiscountErrors(state: StateView, capped = true): Map<string, number> {
  const contracts = readContracts(state);
  const errors = new Map<string, number>();
  for (const row of contractedInvoices(state, [...contracts.keys()])) {
    const due = contractDiscount(row.seats, contracts.get(row.subscription_id), capped);
    if (Math.abs(roundCents(due) - row.discount) > 0.005) errors.set(row.invoice_id, roundCents(due));
  }
  return errors;
}

interface Variant {
  uncapped?: boolean;
  onSubtotal?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    `contracts = [json.loads(read_text(path)) for path in workspace_files("${PATHS.contractsDir}")]
print(len(contracts), "contracts")`,
    `wrong = {}
for terms in contracts:
    for inv in fetch_all("list_invoices", "invoices", subscription_id=terms["subscription_id"]):
        detail = tools.get_invoice(invoice_id=inv["invoice_id"])
        base = ${variant.onSubtotal ? 'detail["invoice"]["subtotal"]' : 'sum(l["amount"] for l in detail["lines"] if l["kind"] == "seats")'}
        due = round(base * terms["discount_pct"] / 100 + 1e-9, 2)
        ${variant.uncapped ? "" : 'due = min(due, terms["discount_cap_per_invoice"])'}
        if abs(due - detail["invoice"]["discount"]) > 0.005:
            wrong[inv["invoice_id"]] = due
print(json.dumps(wrong))`,
  ];
}

export const discountCapAuditTask = defineBillingTask({
  id: "billing.discount-cap-audit",
  summary:
    "Audit contracted customers' invoices against their negotiated discount and cap (contract JSON excerpts).",
  instruction:
    "Audit the invoices of every subscription that has a negotiated contract (see the contract excerpts in contracts/): the discount on each invoice must equal the contract's discount percentage of the invoice's seat charges, limited to the contract's cap per invoice. Reply with only a JSON object mapping each invoice whose discount is wrong to the discount it should have had in USD, rounded to cents, e.g. {\"INV-000123\": 750.0}.",
  tools: ["list_invoices", "get_invoice", "list_subscriptions", "get_subscription"],
  prepare,
  verify: ({ initial, answer }) => {
    const expected = expectedDiscountErrors(initial);
    if (expected.size === 0) throw new Error("generation produced no discount error");
    const problems = compareAmounts(parseAnswerJson(answer), expected);
    return [problemsCheck("discount-errors", problems, `all ${expected.size} wrong discounts found`)];
  },
  cells,
  nearMisses: {
    "ignores-cap": [{ uncapped: true }, "Expects the full percentage, ignoring the contract's cap."],
    "discount-on-subtotal": [
      { onSubtotal: true },
      "Applies the percentage to the whole subtotal, usage overage included.",
    ],
  },
});
