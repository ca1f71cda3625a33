import { check, checkStateDiff, defineTask, variantNearMisses } from "../../../envs/index.js";
import { retailDomain } from "../domain.js";
import {
  LOYALTY_PROGRAMME_PATH,
  computeTierChanges,
  parseLoyaltyProgramme,
  plantLoyaltyProgramme,
} from "../loyalty.js";
import { FETCH_ALL_PY, answerEntries, checkListed, py } from "./common.js";

const RULES = {
  paginate: true,
  subtractRefunds: true,
  skipStaff: true,
  oneStepDowngrade: true,
  skipCancelled: true,
};
type Variant = typeof RULES;

function cells(variant: Variant): string[] {
  const orders = variant.paginate
    ? `fetch_all("list_orders", "orders", placed_from=start, placed_to=end)`
    : `tools.list_orders(placed_from=start, placed_to=end, per_page=50)["orders"]`;
  return [
    FETCH_ALL_PY,
    `rules = read_text("${LOYALTY_PROGRAMME_PATH}")
print(rules)
start, end = re.search(r"from \\*\\*(\\d{4}-\\d{2}-\\d{2})\\*\\* to \\*\\*(\\d{4}-\\d{2}-\\d{2})\\*\\*", rules).groups()
gold = float(re.search(r"\\| Gold \\| \\$([\\d,.]+) or more", rules).group(1).replace(",", ""))
silver = float(re.search(r"\\| Silver \\| \\$([\\d,.]+) or more", rules).group(1).replace(",", ""))
print(start, end, silver, gold)`,
    `orders = [order for order in ${orders} if not ${py(variant.skipCancelled)} or order["status"] != "cancelled"]
order_ids = {order["id"] for order in orders}
refunds = fetch_all("list_refunds", "refunds")
customers = fetch_all("list_customers", "customers")
spend = {}
for order in orders:
    spend[order["customer_id"]] = spend.get(order["customer_id"], 0) + round(order["total"] * 100)
for refund in refunds:
    if ${py(variant.subtractRefunds)} and refund["order_id"] in order_ids:
        owner = next(order["customer_id"] for order in orders if order["id"] == refund["order_id"])
        spend[owner] -= round(refund["amount"] * 100)
print(len(orders), "qualifying orders,", len(customers), "customers")`,
    `TIERS = ["standard", "silver", "gold"]
changes = {}
for customer in customers:
    if ${py(variant.skipStaff)} and customer["email"].lower().endswith("@larkspurco.com"):
        continue
    dollars = spend.get(customer["id"], 0) / 100
    earned = 2 if dollars >= gold else 1 if dollars >= silver else 0
    current = TIERS.index(customer["loyalty_tier"])
    target = earned if earned >= current or not ${py(variant.oneStepDowngrade)} else current - 1
    if target != current:
        result = tools.update_loyalty_tier(customer_id=customer["id"], tier=TIERS[target])
        assert result["loyalty_tier"] == TIERS[target], result
        changes[str(customer["id"])] = TIERS[target]
print(json.dumps(changes))`,
  ];
}

export const loyaltyTierReviewTask = defineTask({
  id: "retail.loyalty-tier-review",
  domain: retailDomain,
  summary:
    "Run the quarterly loyalty tier review: qualifying spend per customer over every order of the period (net of refunds, without cancelled orders), thresholds and the one-step downgrade rule from the programme document, staff and QA accounts left alone.",
  instruction:
    'It\'s time for the quarterly loyalty tier review. Apply the loyalty programme rules in the workspace to every customer and update the tiers in the system so they match the rules; don\'t touch anything else. Reply with only a JSON object mapping the id of every customer whose tier you changed to their new tier, e.g. {"10042": "silver"}.',
  tools: [
    "list_customers",
    "get_customer",
    "list_orders",
    "get_order",
    "list_refunds",
    "update_loyalty_tier",
  ],
  prepare: plantLoyaltyProgramme,
  verify: ({ initial, final, answer }) => {
    const text = initial.readFile(LOYALTY_PROGRAMME_PATH);
    if (text === null) return [check("programme-present", false, `${LOYALTY_PROGRAMME_PATH} is missing`)];
    const expected = computeTierChanges(initial.db, parseLoyaltyProgramme(text));
    const given = new Map(
      answerEntries(answer).map(([key, value]) => [
        key.replace(/\D/g, ""),
        String(value).trim().toLowerCase(),
      ]),
    );
    const problems: string[] = [];
    for (const [id, tier] of expected)
      if (given.get(String(id)) !== tier)
        problems.push(`customer ${id}: expected ${tier}, found ${given.get(String(id)) ?? "missing"}`);
    for (const key of given.keys())
      if (!expected.has(Number(key))) problems.push(`customer ${key} should keep their tier`);
    const tiers = new Map([...expected].map(([id, tier]) => [id, { loyalty_tier: tier }]));
    return [
      check("instance-has-changes", expected.size > 0, `${expected.size} customers change tier`),
      ...checkStateDiff(initial.db, final.db, [{ table: "customers", key: "id", changed: tiers }]),
      checkListed("answer-lists-changes", problems, `all ${expected.size} tier changes reported`, 8),
    ];
  },
  oracle: cells(RULES),
  nearMisses: variantNearMisses(cells, RULES, {
    "first-page-only": [{ paginate: false }, "Reads only the first page of the period's orders."],
    "gross-of-refunds": [{ subtractRefunds: false }, "Counts order totals without subtracting refunds."],
    "counts-cancelled": [
      { skipCancelled: false },
      "Counts the totals of cancelled orders in the period as qualifying spend.",
    ],
    "reviews-staff-accounts": [
      { skipStaff: false },
      "Also re-tiers the staff and QA accounts on the store's own domain.",
    ],
    "straight-downgrade": [
      { oneStepDowngrade: false },
      "Downgrades members straight to the tier their spend earns (Gold to Standard).",
    ],
  }),
});
