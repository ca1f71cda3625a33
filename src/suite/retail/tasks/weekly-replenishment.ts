import { check, checkStateDiff, defineTask, variantNearMisses } from "../../../envs/index.js";
import { retailDomain } from "../domain.js";
import {
  DELISTING_MEMO_PATH,
  REPLENISHMENT_POLICY_PATH,
  computeReorders,
  parseReplenishmentRules,
  plantReplenishment,
} from "../replenishment.js";
import { FETCH_ALL_PY, answerEntries, checkListed, py } from "./common.js";

const POLICY = { retry: true, skipDelisted: true, leadTimes: true };
type Variant = typeof POLICY;

function cells(variant: Variant): string[] {
  const onFailure = variant.retry
    ? `if "503" in str(error) and attempt < 4:
                    continue
                raise`
    : `return items  # the warehouse stopped answering: use what came back`;
  return [
    `${FETCH_ALL_PY}
import math

def sales_lines(**filters):
    items, page = [], 1
    while True:
        for attempt in range(5):
            try:
                result = tools.list_sales_lines(page=page, per_page=50, **filters)
                break
            except ToolError as error:
                print("page", page, "failed:", error)
                ${onFailure}
        items.extend(result["lines"])
        if not result["has_more"]:
            return items
        page += 1

policy = read_text("${REPLENISHMENT_POLICY_PATH}")
memo = read_text("${DELISTING_MEMO_PATH}")
print(policy)
print(memo)
start, end, days = re.search(r"from \\*\\*(\\d{4}-\\d{2}-\\d{2})\\*\\* to \\*\\*(\\d{4}-\\d{2}-\\d{2})\\*\\* \\((\\d+) days", policy).groups()
days = int(days)
safety = int(re.search(r"lead time \\+ (\\d+) days of safety stock", policy).group(1))
cover = int(re.search(r"lead time plus (\\d+) days of demand", policy).group(1))
lead_times = {name: int(value) for name, value in re.findall(r"^\\| ([^|]+?) \\| (\\d+) \\|$", policy[policy.index("## Supplier lead times"):], re.M)}
delisted = set(re.findall(r"^\\| ([A-Z]{3}-\\d{4}) \\|", memo, re.M))
print(start, end, days, safety, cover, lead_times, delisted)`,
    `products = {p["sku"]: p for p in fetch_all("list_products", "products")}
units = {}
for line in sales_lines(placed_from=start, placed_to=end):
    if line["order_status"] != "cancelled":
        units[line["sku"]] = units.get(line["sku"], 0) + line["quantity"]
reorders = {}
for sku, sold in sorted(units.items()):
    product = products[sku]
    if product["category"] == "Gift Cards" or (${py(variant.skipDelisted)} and sku in delisted):
        continue
    lead = lead_times[product["supplier"]] if ${py(variant.leadTimes)} else 0
    stock = tools.get_product(sku=sku)["stock_on_hand"]
    if stock * days < sold * (lead + safety):
        reorders[sku] = math.ceil(sold * (lead + cover) / days) - stock
print(len(units), "SKUs sold,", len(reorders), "to reorder")`,
    `print(json.dumps(reorders))`,
  ];
}

export const weeklyReplenishmentTask = defineTask({
  id: "retail.weekly-replenishment",
  domain: retailDomain,
  summary:
    "Work out this week's purchase quantities per SKU from four weeks of sales read through a ledger API that fails transiently, the supplier lead times and safety stock of the replenishment policy, and the delisting memo.",
  instruction:
    "Please work out this week's replenishment: which SKUs need a purchase order and how many units, following our replenishment policy in the workspace (it points to the other document you need). Use the sales ledger for the sales figures. Don't create or change anything. Reply with only a JSON object mapping each SKU to reorder to its quantity in units, e.g. {\"ELE-4821\": 12}.",
  tools: ["list_sales_lines", "list_products", "get_product", "list_orders", "get_order"],
  prepare: plantReplenishment,
  verify: ({ initial, final, answer }) => {
    const policy = initial.readFile(REPLENISHMENT_POLICY_PATH);
    const memo = initial.readFile(DELISTING_MEMO_PATH);
    if (policy === null || memo === null)
      return [check("documents-present", false, "the replenishment policy or delisting memo is missing")];
    const expected = computeReorders(initial.db, parseReplenishmentRules(policy, memo));
    const given = new Map(
      answerEntries(answer).map(([key, value]) => [key.trim().toUpperCase(), Number(value)]),
    );
    const problems: string[] = [];
    for (const [sku, quantity] of expected)
      if (given.get(sku) !== quantity)
        problems.push(`${sku}: expected ${quantity}, found ${given.get(sku) ?? "missing"}`);
    for (const sku of given.keys()) if (!expected.has(sku)) problems.push(`${sku} needs no purchase order`);
    return [
      check("instance-has-reorders", expected.size > 0, `${expected.size} SKUs to reorder`),
      checkListed("reorder-quantities", problems, `all ${expected.size} SKUs and quantities match`, 8),
      ...checkStateDiff(initial.db, final.db, []),
    ];
  },
  oracle: cells(POLICY),
  nearMisses: variantNearMisses(cells, POLICY, {
    "stops-at-failure": [{ retry: false }, "Takes the ledger's 503 on page 2 as the end of the listing."],
    "reorders-delisted": [{ skipDelisted: false }, "Ignores the delisting memo the policy points to."],
    "no-lead-times": [
      { leadTimes: false },
      "Leaves the supplier lead time out of the reorder point and the quantity.",
    ],
  }),
});
