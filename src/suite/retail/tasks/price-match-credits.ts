import {
  check,
  checkOtherTablesUnchanged,
  defineTask,
  nearlyEqual,
  parseAnswerJson,
  type Check,
} from "../../../envs/index.js";
import { retailDomain } from "../domain.js";
import { PATHS, computePriceMatchCredits, parsePriceChangeFiles } from "../expectations.js";
import { FETCH_ALL_PY } from "./python-snippets.js";

interface Variant {
  goldWindow: number;
  excludeClearance: boolean;
  excludePriorCredits: boolean;
}

const GUARANTEE: Variant = { goldWindow: 30, excludeClearance: true, excludePriorCredits: true };

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
    if ${variant.excludeClearance ? "True" : "False"} and change["reason"] == "clearance":
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
        if customer_id not in customers:
            customers[customer_id] = tools.get_customer(customer_id=customer_id)
        window = ${variant.goldWindow} if customers[customer_id]["loyalty_tier"] == "gold" else 14
        in_window = [price for effective, price in sku_reductions if 0 < days_between(placed, effective) <= window]
        if not in_window:
            continue
        order_id = summary["id"]
        if order_id not in orders:
            orders[order_id] = tools.get_order(order_id=order_id)
        line = next(l for l in orders[order_id]["lines"] if l["sku"] == sku)
        lowest = min(in_window)
        if lowest >= line["unit_price"]:
            continue
        if order_id not in returns_by_order:
            returns_by_order[order_id] = fetch_all("list_returns", "returns", order_id=order_id)
        if any(r["order_line_id"] == line["line_id"] and r["status"] != "rejected" for r in returns_by_order[order_id]):
            continue
        if order_id not in credits_by_order:
            credits_by_order[order_id] = fetch_all("list_refunds", "refunds", order_id=order_id, kind="price_match")
        if ${variant.excludePriorCredits ? "True" : "False"} and any(r["order_line_id"] == line["line_id"] for r in credits_by_order[order_id]):
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
    const checks: Check[] = [];
    checks.push(
      check(
        "instance-has-credits",
        Object.keys(expected).length > 0,
        `${Object.keys(expected).length} customers are owed credits`,
      ),
    );
    const parsed = parseAnswerJson(answer);
    const given = new Map<string, number>();
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      for (const [key, value] of Object.entries(parsed as Record<string, unknown>))
        given.set(
          key.replace(/\D/g, ""),
          typeof value === "number" ? value : Number(String(value).replace(/[$,\s]/g, "")),
        );
    const problems: string[] = [];
    for (const [customerId, amount] of Object.entries(expected)) {
      const found = given.get(customerId);
      if (found === undefined || !nearlyEqual(found, amount, 0.011))
        problems.push(`customer ${customerId}: expected ${amount.toFixed(2)}, found ${found ?? "missing"}`);
    }
    for (const [customerId, amount] of given)
      if (!(customerId in expected) && amount !== 0)
        problems.push(`customer ${customerId} is not owed anything`);
    checks.push(
      check(
        "credits-by-customer",
        problems.length === 0,
        problems.length === 0
          ? `all ${Object.keys(expected).length} customers and amounts match`
          : problems.slice(0, 10).join("; "),
      ),
    );
    checks.push(checkOtherTablesUnchanged(initial.db, final.db, []));
    return checks;
  },
  oracle: cells(GUARANTEE),
  nearMisses: [
    {
      id: "no-gold-window",
      description: "Uses the 14-day window for Gold members too.",
      cells: cells({ ...GUARANTEE, goldWindow: 14 }),
    },
    {
      id: "counts-clearance",
      description: "Treats clearance markdowns as qualifying reductions.",
      cells: cells({ ...GUARANTEE, excludeClearance: false }),
    },
    {
      id: "pays-twice",
      description: "Ignores price-match credits already paid on a line.",
      cells: cells({ ...GUARANTEE, excludePriorCredits: false }),
    },
  ],
});
