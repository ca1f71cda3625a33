import { check, checkOtherTablesUnchanged, defineTask, variantNearMisses } from "../../../envs/index.js";
import { retailDomain } from "../domain.js";
import { PATHS, computePriceMatchCredits, parsePriceChangeFiles } from "../expectations.js";
import { FETCH_ALL_PY, amountOf, answerEntries, checkListed, py, wrongAmounts } from "./common.js";

const GUARANTEE = { goldWindow: 30, excludeClearance: true, excludePriorCredits: true };
type Variant = typeof GUARANTEE;

function cells(variant: Variant): string[] {
  return [
    FETCH_ALL_PY,
    `terms = read_text("${PATHS.promotionsPolicy}")
print(terms[terms.find("## Price-match"):])`,
    `changes = []
for path in workspace_files("${PATHS.pricingDir}"):
    changes.extend(csv.DictReader(io.StringIO(read_text(path))))
reductions = {}
for change in changes:
    if float(change["new_price"]) >= float(change["old_price"]):
        continue
    if ${py(variant.excludeClearance)} and change["reason"] == "clearance":
        continue
    reductions.setdefault(change["sku"], []).append((change["effective_date"], float(change["new_price"])))
print(len(changes), "price changes,", sum(len(v) for v in reductions.values()), "qualifying reductions on", len(reductions), "SKUs")`,
    `MAX_WINDOW = max(14, ${variant.goldWindow})
orders, customers, returns_by_order, credits_by_order = {}, {}, {}, {}
owed_lines = []
for sku, sku_reductions in sorted(reductions.items()):
    for summary in fetch_all("list_orders", "orders", sku=sku):
        if summary["status"] == "cancelled":
            continue
        placed = summary["placed_at"][:10]
        if not any(0 < days_between(placed, effective) <= MAX_WINDOW for effective, _ in sku_reductions):
            continue
        customer_id = summary["customer_id"]
        customer = once(customers, customer_id, lambda: tools.get_customer(customer_id=customer_id))
        window = ${variant.goldWindow} if customer["loyalty_tier"] == "gold" else 14
        in_window = [price for effective, price in sku_reductions if 0 < days_between(placed, effective) <= window]
        if not in_window:
            continue
        order_id = summary["id"]
        order = once(orders, order_id, lambda: tools.get_order(order_id=order_id))
        line = next(l for l in order["lines"] if l["sku"] == sku)
        lowest = min(in_window)
        if lowest >= line["unit_price"]:
            continue
        returns = once(returns_by_order, order_id, lambda: fetch_all("list_returns", "returns", order_id=order_id))
        if any(r["order_line_id"] == line["line_id"] and r["status"] != "rejected" for r in returns):
            continue
        credits = once(credits_by_order, order_id, lambda: fetch_all("list_refunds", "refunds", order_id=order_id, kind="price_match"))
        if ${py(variant.excludePriorCredits)} and any(r["order_line_id"] == line["line_id"] for r in credits):
            continue
        credit = round((line["unit_price"] - lowest) * line["quantity"], 2)
        owed_lines.append((customer_id, order_id, sku, line["unit_price"], lowest, line["quantity"], credit))
for entry in owed_lines:
    print(entry)`,
    `owed = {}
for customer_id, _, _, _, _, _, credit in owed_lines:
    owed[customer_id] = round(owed.get(customer_id, 0) + credit, 2)
print(json.dumps({str(customer_id): total for customer_id, total in sorted(owed.items()) if total > 0}))`,
  ];
}

export const priceMatchCreditsTask = defineTask({
  id: "retail.price-match-credits",
  domain: retailDomain,
  summary:
    "Find every customer owed a price-match credit: reductions from the price-change batches within the loyalty-dependent window, excluding clearance, cancelled orders, returned lines and lines already credited.",
  instruction:
    "Before we run this week's price-match payouts, work out which customers are owed a price-match credit under our price-match guarantee (see the promotion terms and the price-change batches in the workspace). Don't issue anything. Reply with only a JSON object mapping each customer id to the total credit owed in dollars, rounded to cents, for customers owed more than zero, e.g. {\"10042\": 18.5}.",
  tools: [
    "list_orders",
    "get_order",
    "get_customer",
    "list_returns",
    "list_refunds",
    "get_product",
    "list_products",
  ],
  verify: ({ initial, final, answer }) => {
    const expected = computePriceMatchCredits(initial.db, parsePriceChangeFiles(initial)).byCustomer;
    const customerCount = Object.keys(expected).length;
    const given = new Map(
      answerEntries(answer).map(([key, value]) => [key.replace(/\D/g, ""), amountOf(value)]),
    );
    const problems = wrongAmounts(
      expected,
      (customerId) => given.get(customerId),
      (customerId) => `customer ${customerId}`,
    );
    for (const [customerId, amount] of given)
      if (!(customerId in expected) && amount !== 0)
        problems.push(`customer ${customerId} is not owed anything`);
    return [
      check("instance-has-credits", customerCount > 0, `${customerCount} customers are owed credits`),
      checkListed("credits-by-customer", problems, `all ${customerCount} customers and amounts match`, 10),
      checkOtherTablesUnchanged(initial.db, final.db, []),
    ];
  },
  oracle: cells(GUARANTEE),
  nearMisses: variantNearMisses(cells, GUARANTEE, {
    "no-gold-window": [{ goldWindow: 14 }, "Uses the 14-day window for Gold members too."],
    "counts-clearance": [{ excludeClearance: false }, "Treats clearance markdowns as qualifying reductions."],
    "pays-twice": [{ excludePriorCredits: false }, "Ignores price-match credits already paid on a line."],
  }),
});
