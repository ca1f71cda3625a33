import { check, checkOtherTablesUnchanged, defineTask, variantNearMisses } from "../../../envs/index.js";
import { retailDomain } from "../domain.js";
import { PATHS, computeNetRevenue, parseCloseMemo } from "../expectations.js";
import { FETCH_ALL_PY, amountOf, answerEntries, checkListed, py, wrongAmounts } from "./common.js";

const CONVENTIONS = { excludeTestAccounts: true, subtractRefunds: true, excludeCancelled: true };
type Variant = typeof CONVENTIONS;

function cells(variant: Variant): string[] {
  return [
    FETCH_ALL_PY,
    `memo = read_text("${PATHS.closeMemo}")
print(memo)
period_start, period_end = re.search(r"Closing period:\\s*\\**\\s*(\\d{4}-\\d{2}-\\d{2})\\s*to\\s*(\\d{4}-\\d{2}-\\d{2})", memo).groups()
test_accounts = {int(found) for found in re.findall(r"#(\\d{5})", memo)}
print(period_start, period_end, sorted(test_accounts))`,
    `month_orders = fetch_all("list_orders", "orders", placed_from=period_start, placed_to=period_end)
included = [
    order for order in month_orders
    if not (${py(variant.excludeCancelled)} and order["status"] == "cancelled")
    and not (${py(variant.excludeTestAccounts)} and order["customer_id"] in test_accounts)
]
category_of = {product["sku"]: product["category"] for product in fetch_all("list_products", "products")}
print(len(month_orders), "orders placed in the period,", len(included), "counted")`,
    `revenue = {}
line_category = {}
for summary in included:
    order = tools.get_order(order_id=summary["id"])
    for line in order["lines"]:
        category = category_of[line["sku"]]
        if category == "Gift Cards":
            continue
        line_category[line["line_id"]] = category
        revenue[category] = revenue.get(category, 0.0) + line["line_total"]
refunds = fetch_all("list_refunds", "refunds")
subtracted = 0
for refund in refunds:
    if ${py(variant.subtractRefunds)} and refund["order_line_id"] in line_category:
        revenue[line_category[refund["order_line_id"]]] -= refund["amount"]
        subtracted += 1
print(subtracted, "refunds subtracted")`,
    `print(json.dumps({category: round(value, 2) for category, value in sorted(revenue.items())}))`,
  ];
}

export const netRevenueByCategoryTask = defineTask({
  id: "retail.net-revenue-by-category",
  domain: retailDomain,
  summary:
    "Compute net merchandise revenue per category for the month being closed, following the finance memo's conventions (refunds, cancelled orders, gift cards, QA test accounts).",
  instruction:
    'Finance is closing the month and needs net merchandise revenue by product category. The close memo in the workspace gives the period and the reporting conventions; follow them exactly. Reply with only a JSON object mapping each category name to its net revenue in dollars, rounded to cents, e.g. {"Books": 1234.56, ...}.',
  tools: ["list_orders", "get_order", "list_products", "get_product", "list_refunds", "get_customer"],
  verify: ({ initial, final, answer }) => {
    const memo = initial.readFile(PATHS.closeMemo);
    if (memo === null)
      return [check("memo-present", false, `${PATHS.closeMemo} is missing from the instance`)];
    const expected = computeNetRevenue(initial.db, parseCloseMemo(memo));
    const categoryCount = Object.keys(expected).length;
    const given = new Map(
      answerEntries(answer).map(([key, value]) => [key.trim().toLowerCase(), amountOf(value)]),
    );
    const problems = wrongAmounts(
      expected,
      (category) => given.get(category.toLowerCase()),
      (category) => category,
    );
    const expectedKeys = new Set(Object.keys(expected).map((category) => category.toLowerCase()));
    for (const key of given.keys()) if (!expectedKeys.has(key)) problems.push(`unexpected category '${key}'`);
    return [
      check("instance-has-revenue", categoryCount > 0, `${categoryCount} categories with sales`),
      checkListed("revenue-by-category", problems, `all ${expectedKeys.size} categories match`, 10),
      checkOtherTablesUnchanged(initial.db, final.db, []),
    ];
  },
  oracle: cells(CONVENTIONS),
  nearMisses: variantNearMisses(cells, CONVENTIONS, {
    "keeps-test-accounts": [{ excludeTestAccounts: false }, "Counts the QA test accounts' orders."],
    "gross-of-refunds": [{ subtractRefunds: false }, "Reports revenue without subtracting refunds."],
    "keeps-cancelled-orders": [{ excludeCancelled: false }, "Counts cancelled orders placed in the period."],
  }),
});
