import { REFERENCE_DATE, addDays, allRows, roundCents, checkCountedWrites } from "../../../envs/index.js";
import type { StateView, VerifyContext } from "../../../envs/index.js";
import { deliveries, policyNumber } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

/** Credits the receiving policy calls for: recent short deliveries without a credit, at the PO's case price. */
export function expectedCredits(state: StateView): Array<{ delivery_id: string; amount: number }> {
  const days = policyNumber(state, "policies/receiving.md", /in the last (\d+) days/);
  const since = addDays(REFERENCE_DATE, -days);
  const credits = allRows<{ delivery_id: string }>(state.db, "SELECT delivery_id FROM credit_requests");
  const credited = new Set(credits.map((credit) => credit.delivery_id));
  return deliveries(state)
    .filter((d) => d.delivered_on >= since && d.cases < d.ordered_cases && !credited.has(d.delivery_id))
    .map((d) => ({
      delivery_id: d.delivery_id,
      amount: roundCents((d.ordered_cases - d.cases) * d.po_price),
    }));
}

function verify(context: VerifyContext) {
  const expected = expectedCredits(context.initial);
  if (expected.length === 0) throw new Error("no short delivery to credit");
  return checkCountedWrites(context, expected.length, [
    { table: "credit_requests", key: "credit_id", added: expected },
  ]);
}

interface Variant {
  ignoreExisting?: boolean;
  invoicedPrice?: boolean;
  noWindow?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    String.raw`
days = int(re.search(r"in the last (\d+) days", read_text("policies/receiving.md")).group(1))
since = add_days(today, -days)
credited = {c["delivery_id"] for c in fetch("list_credit_requests", "credit_requests")}
recent = fetch("list_deliveries", "deliveries"${variant.noWindow ? "" : ", date_from=since"})
print(days, since, len(recent), len(credited))
`,
    String.raw`
requested = 0
for delivery in recent:
    if delivery["delivery_id"] in credited and ${variant.ignoreExisting ? "False" : "True"}:
        continue
    po = call("get_purchase_order", po_id=delivery["po_id"])["purchase_order"]
    missing = po["cases"] - delivery["cases"]
    if missing > 0:
        price = ${variant.invoicedPrice ? 'delivery["case_price"]' : 'po["case_price"]'}
        call("request_credit", delivery_id=delivery["delivery_id"], amount=round(missing * price, 2), reason="short delivery")
        requested += 1
print(f"Requested {requested} credits")
`,
  ];
}

export const shortCreditsTask = defineRestaurantTask({
  id: "restaurant.short-credits",
  summary: "Request supplier credits for recent short deliveries at the purchase order's price, never twice.",
  instruction:
    "Apply our receiving policy (policies/receiving.md) to short deliveries: request the supplier credits it calls for with request_credit. Change nothing else. Reply with the number of credit requests you made, e.g. `Requested 5 credits`.",
  tools: [
    "list_deliveries",
    "get_purchase_order",
    "list_purchase_orders",
    "list_credit_requests",
    "request_credit",
  ],
  verify,
  cells,
  nearMisses: {
    "credits-twice": [{ ignoreExisting: true }, "Requests a second credit for deliveries already credited."],
    "invoiced-price": [
      { invoicedPrice: true },
      "Prices the missing cases at the invoiced case price instead of the order's.",
    ],
    "no-window": [{ noWindow: true }, "Credits short deliveries of any age, not just the policy's window."],
  },
});
