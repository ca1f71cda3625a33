import { checkAnswerAmounts, defineTask } from "../../../envs/index.js";
import { marketplaceDomain } from "../domain.js";
import { overpaidOrders } from "./expectations.js";
import { FIRST_PAGE_PY, MARKET_PY } from "./python.js";

function cells({
  counted = 'row["Status"] == "Issued"',
  helpers = "",
  total = 'usd(order.fields["Order total"])',
}): string[] {
  return [
    MARKET_PY + helpers,
    String.raw`
paid = {}
for row in listing("/refunds", "refunds"):
    if ${counted}:
        paid.setdefault(row["Order"], []).append(usd(row["Amount"]))
over = {}
for order_id, amounts in sorted(paid.items()):
    if len(amounts) < 2:
        continue
    order = get(f"/orders/{order_id}")
    extra = cents(sum(amounts) - ${total})
    if extra > 0:
        over[order_id] = extra
print(json.dumps(over))
`,
  ];
}

export const overpaidOrdersTask = defineTask({
  id: "marketplace.overpaid-orders",
  domain: marketplaceDomain,
  summary:
    "Find orders whose issued refunds exceed the order total, and by how much (reversed refunds left out).",
  instruction:
    'Finance Ops is chasing double-paid refunds. Go through the whole refund ledger and find every order that was refunded more than it cost, reading the ledger as our refund-ledger note says. Reply with a JSON object from order id to the overpaid amount in dollars, e.g. `{"ORD-4100013": 27.5}`.',
  tools: ["browser_navigate"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer-overpaid", answer, overpaidOrders(initial))],
  oracle: cells({}),
  nearMisses: [
    {
      id: "counts-reversed",
      description: "Counts reversed refunds as paid.",
      cells: cells({ counted: "True" }),
    },
    {
      id: "first-page-only",
      description: "Reads only the first page of the ledger.",
      cells: cells({ helpers: FIRST_PAGE_PY }),
    },
    {
      id: "item-price-as-total",
      description: "Compares against the item price, forgetting shipping.",
      cells: cells({ total: 'usd(order.fields["Item price"])' }),
    },
  ],
});
