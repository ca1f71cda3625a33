import {
  addDays,
  allRows,
  cachedStatement,
  checkStateDiff,
  defineTask,
  roundCents,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { logisticsDomain } from "../domain.js";
import { SUPPLIERS } from "../reference-data.js";
import { answerNumber, answerObject, checkAnswerObject, optionNearMisses } from "./checks.js";
import { PYTHON_HELPERS } from "./python-helpers.js";

export const SPEND_MEMO_PATH = "memos/category-spend-review.md";

/** The first day of the calendar quarter holding `date`. */
function quarterStart(date: string): string {
  const month = Number(date.slice(5, 7));
  const first = Math.floor((month - 1) / 3) * 3 + 1;
  return `${date.slice(0, 4)}-${String(first).padStart(2, "0")}-01`;
}

export function parseSpendPeriod(text: string): { from: string; to: string } {
  const match = /order date from (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2}), both days included/.exec(text);
  if (!match) throw new Error("category spend memo has no review period");
  return { from: match[1] ?? "", to: match[2] ?? "" };
}

/** Received spend per category over the memo's period: line quantity x the line's unit cost. */
export function expectedSpend(state: StateView): Map<string, number> {
  const { from, to } = parseSpendPeriod(state.readFile(SPEND_MEMO_PATH) ?? "");
  const rows = allRows<{ category: string; spend: number }>(
    state.db,
    `SELECT p.category, SUM(l.quantity * l.unit_cost) AS spend
     FROM purchase_orders o JOIN purchase_order_lines l ON l.purchase_order_id = o.id
     JOIN products p ON p.sku = l.sku
     WHERE o.status = 'received' AND o.ordered_on BETWEEN ? AND ?
     GROUP BY p.category ORDER BY p.category`,
    from,
    to,
  );
  return new Map(rows.map((row) => [row.category, roundCents(row.spend)]));
}

/**
 * The finance memo, and received orders placed on the first day of the quarter and on the day before it,
 * so that the period's boundary always decides.
 */
function prepare(context: GenerateContext): void {
  const { db, random, referenceDate } = context;
  const from = quarterStart(referenceDate);
  context.writeFile(
    SPEND_MEMO_PATH,
    `# Category spend review

From: Finance (FP&A) · ${addDays(referenceDate, -3)}
To: Purchasing, Inventory Planning

For the quarterly category review we need what we actually spent with our suppliers this quarter, by
product category. The rules, so that every site counts the same way:

- The period is the current quarter: purchase orders with an order date from ${from} to ${referenceDate}, both days included.
- Only orders that have been **received** are spend. Drafts and submitted orders are not spend yet, and
  cancelled orders never are.
- The spend of an order line is its quantity times the unit cost on the purchase order line (the price we
  agreed with the supplier when the order was placed), not today's catalog cost.
- A line belongs to the category of its product in the catalog. Wholesalers sell us several categories,
  so do not file a whole order under one category.

Please send one figure per category, in dollars, rounded to the cent.
`,
  );
  const received = allRows<{ id: string; supplier_id: string }>(
    db,
    "SELECT id, supplier_id FROM purchase_orders WHERE status = 'received' ORDER BY id",
  );
  const [onFirstDay, dayBefore] = random.shuffle(received);
  const lead = new Map(SUPPLIERS.map((supplier) => [supplier.id, supplier.leadTimeDays]));
  const setDate = cachedStatement(
    db,
    "UPDATE purchase_orders SET ordered_on = ?, expected_on = ? WHERE id = ?",
  );
  for (const [order, day] of [
    [onFirstDay, from],
    [dayBefore, addDays(from, -1)],
  ] as const)
    if (order) setDate.run(day, addDays(day, lead.get(order.supplier_id) ?? 7), order.id);
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedSpend(initial);
  const parsed = answerObject(answer);
  const given =
    parsed &&
    new Map(
      Object.entries(parsed)
        .map(([category, value]): [string, number] => [category.trim().toLowerCase(), answerNumber(value)])
        .filter(([, value]) => value !== 0),
    );
  const ok =
    given !== null &&
    given.size === [...expected.values()].filter((value) => value !== 0).length &&
    [...expected].every(
      ([category, spend]) =>
        spend === 0 || Math.abs((given.get(category.toLowerCase()) ?? NaN) - spend) <= 0.011,
    );
  return [
    checkAnswerObject("spend-by-category", answer, expected, ok, "spend per category matches"),
    ...checkStateDiff(initial.db, final.db, []),
  ];
}

interface Options {
  catalogCost?: boolean;
  trustsArchive?: boolean;
  strictStart?: boolean;
  notYetReceived?: boolean;
  orderCategory?: boolean;
}

function cells(options: Options = {}): string[] {
  return [
    PYTHON_HELPERS,
    String.raw`
memo = read_text("memos/category-spend-review.md")
start, end = re.search(r"order date from (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2}), both days included", memo).groups()
orders = [o for o in ${options.notYetReceived ? 'fetch_all("list_purchase_orders", "purchase_orders") if o["status"] in ("received", "submitted")' : 'fetch_all("list_purchase_orders", "purchase_orders", status="received")'}
          if ${options.strictStart ? "start < o['ordered_on'] <= end" : "start <= o['ordered_on'] <= end"}]
catalog = {p["sku"]: p for p in fetch_all("list_products", "products")}
print(start, end, len(orders), "received orders in the period")
`,
    String.raw`
def purchase_order(order_id):
    for attempt in range(5):
        result = tools.get_purchase_order(purchase_order_id=order_id)
        if "purchase_order" in result:
            return result["purchase_order"]
        ${options.trustsArchive ? "return {'lines': []}" : "print(order_id, result.get('error'))"}
    raise RuntimeError(order_id + " kept failing")

spend = {}
for order in orders:
    lines = purchase_order(order["id"])["lines"]
    for line in lines:
        product = catalog[${options.orderCategory ? 'lines[0]["sku"]' : 'line["sku"]'}]
        cost = ${options.catalogCost ? 'catalog[line["sku"]]["unit_cost"]' : 'line["unit_cost"]'}
        spend[product["category"]] = spend.get(product["category"], 0) + line["quantity"] * cost
print(json.dumps({category: round(value, 2) for category, value in sorted(spend.items())}))
`,
  ];
}

export const categorySpendReviewTask = defineTask({
  id: "logistics.category-spend-review",
  domain: logisticsDomain,
  summary:
    "Total the quarter's received purchase-order spend per product category as the finance memo defines it (order-date period with both ends included, line quantity x the PO line's unit cost, categories from the catalog), reading order lines from an archive that sometimes answers with an error body.",
  instruction:
    'Finance here. Please work out the category spend for this quarter\'s review exactly as our finance memo (memos folder) defines it. Reply with only a JSON object mapping each product category with any spend to its spend in dollars rounded to the cent, e.g. {"Dairy": 1234.56}.',
  tools: ["list_suppliers", "list_products", "get_product", "list_purchase_orders", "get_purchase_order"],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: optionNearMisses(cells, {
    "catalog-cost": [
      { catalogCost: true },
      "Values the lines at today's catalog cost instead of the cost on the purchase order.",
    ],
    "trusts-archive-errors": [
      { trustsArchive: true },
      "Takes an archive error body as an order without lines and moves on.",
    ],
    "excludes-first-day": [
      { strictStart: true },
      "Counts orders placed after the quarter's first day, dropping the first day itself.",
    ],
    "counts-submitted": [
      { notYetReceived: true },
      "Counts submitted orders as spend too, not only received ones.",
    ],
    "order-category": [
      { orderCategory: true },
      "Files each whole order under the category of its first line's product.",
    ],
  }),
});
