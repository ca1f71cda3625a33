import {
  allRows,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  parseAnswerJson,
  type Check,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { planningRules } from "../documents.js";
import { logisticsDomain } from "../domain.js";
import { optionNearMisses, verdict } from "./checks.js";
import { PYTHON_HELPERS } from "./python-helpers.js";

/** Open orders (outside the suspended supplier) whose every line is already at or above its order-up-to level. */
export function expectedCancellations(state: StateView): string[] {
  const { db } = state;
  const { policy, suspendedSupplierId } = planningRules(state);
  const lines = allRows<{ id: string; sku: string; category: string; on_hand: number }>(
    db,
    `SELECT orders.id, orders.warehouse_id, lines.sku, products.category,
       (SELECT COALESCE(SUM(quantity), 0) FROM inventory_lots
        WHERE inventory_lots.warehouse_id = orders.warehouse_id AND inventory_lots.sku = lines.sku
          AND inventory_lots.status = 'available') AS on_hand
     FROM purchase_orders AS orders
     JOIN purchase_order_lines AS lines ON lines.purchase_order_id = orders.id
     JOIN products ON products.sku = lines.sku
     WHERE orders.status IN ('draft', 'submitted') AND orders.supplier_id <> ?
     ORDER BY orders.id`,
    suspendedSupplierId,
  );
  const needed = new Map<string, boolean>();
  for (const line of lines) {
    const levels = policy.overrides[line.sku] ?? policy.categories[line.category];
    const stillNeeded = !levels || line.on_hand < levels.orderUpTo;
    needed.set(line.id, (needed.get(line.id) ?? false) || stillNeeded);
  }
  return [...needed.entries()].filter(([, stillNeeded]) => !stillNeeded).map(([id]) => id);
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedCancellations(initial);
  const expectedSet = new Set(expected);
  const orders = diffTable(initial.db, final.db, "purchase_orders", "id");
  const cancelled = orders.changed.filter(
    (change) => change.after.status === "cancelled" && change.before.status !== "cancelled",
  );
  const cancelledIds = new Set(cancelled.map((change) => change.key));
  const missing = expected.filter((id) => !cancelledIds.has(id));
  const wrong = [...cancelledIds].filter((id) => !expectedSet.has(id));
  const otherChanges = orders.changed.filter((change) => {
    if (!cancelledIds.has(change.key)) return true;
    return Object.keys(change.before).some(
      (column) => column !== "status" && column !== "notes" && change.before[column] !== change.after[column],
    );
  });
  const unexpected = [
    ...otherChanges.map((change) => change.key),
    ...orders.added.map((order) => `added ${String(order.id)}`),
    ...orders.removed.map((order) => `removed ${String(order.id)}`),
  ];
  const parsed = parseAnswerJson(answer) as { cancelled?: unknown } | null;
  const listed = Array.isArray(parsed?.cancelled)
    ? parsed.cancelled.map((id) => String(id).trim().toUpperCase())
    : null;
  const answerOk =
    listed !== null && listed.length === expected.length && listed.every((id) => expectedSet.has(id));
  return [
    verdict(
      "unneeded-orders-cancelled",
      missing.length === 0 && wrong.length === 0,
      `the ${expected.length} unneeded orders were cancelled: ${expected.join(", ")}`,
      () =>
        `expected cancelled: ${expected.join(", ") || "none"}; not cancelled: ${missing.join(", ") || "none"}; cancelled although still needed or out of scope: ${wrong.join(", ") || "none"}`,
    ),
    verdict(
      "no-other-order-changes",
      unexpected.length === 0,
      "no other purchase order changed",
      () => `unexpected purchase order changes: ${unexpected.join(", ")}`,
    ),
    checkOtherTablesUnchanged(initial.db, final.db, ["purchase_orders"]),
    verdict(
      "answer-lists-cancellations",
      answerOk,
      "answer lists the cancelled orders",
      () => `expected {"cancelled": ${JSON.stringify(expected)}}, found '${answer.slice(0, 160)}'`,
    ),
  ];
}

interface OracleOptions {
  everyLine?: boolean;
  skipSuspended?: boolean;
  atOrAbove?: boolean;
}

function reviewCells(options: OracleOptions = {}): string[] {
  const { everyLine = true, skipSuspended = true, atOrAbove = true } = options;
  return [
    PYTHON_HELPERS,
    String.raw`
policy_text = read_text("policies/replenishment-policy.md")
bulletin_text = read_text("memos/operations-bulletin.md")
order_up_to = {row[0]: int(row[2]) for row in md_table(policy_text, "by category")}
overrides = {row[0]: int(row[2]) for row in md_table(policy_text, "SKU overrides")}
suspended = re.search(r"Supplier (SUP-\d+) \(.*?\) is suspended", bulletin_text).group(1)
${skipSuspended ? "" : "suspended = None  # near-miss: the suspended supplier's orders are reviewed too"}
products = {product["sku"]: product for product in fetch_all("list_products", "products")}
print(order_up_to, overrides, suspended)
`,
    String.raw`
open_orders = []
for status in ("draft", "submitted"):
    open_orders.extend(order for order in fetch_all("list_purchase_orders", "purchase_orders", status=status) if order["supplier_id"] != suspended)
on_hand = {}
for warehouse_id in sorted({order["warehouse_id"] for order in open_orders}):
    for level in fetch_all("list_stock_levels", "stock_levels", warehouse_id=warehouse_id):
        on_hand[(warehouse_id, level["sku"])] = level["available_quantity"]
print(len(open_orders), "open orders in scope")
`,
    String.raw`
to_cancel = []
for order in sorted(open_orders, key=lambda order: order["id"]):
    lines = tools.get_purchase_order(purchase_order_id=order["id"])["purchase_order"]["lines"]
    covered = []
    for line in lines:
        level = overrides.get(line["sku"], order_up_to[products[line["sku"]]["category"]])
        stock = on_hand.get((order["warehouse_id"], line["sku"]), 0)
        covered.append(stock ${atOrAbove ? ">=" : ">"} level)
    if lines and ${everyLine ? "all(covered)" : "any(covered)"}:
        to_cancel.append(order["id"])
print(to_cancel)
`,
    String.raw`
for order_id in to_cancel:
    tools.cancel_purchase_order(purchase_order_id=order_id, reason="overstocked: every line at or above its order-up-to level")
print(len(to_cancel), "cancelled")
`,
    `print(json.dumps({"cancelled": to_cancel}))`,
  ];
}

export const cancelUnneededOrdersTask = defineTask({
  id: "logistics.cancel-unneeded-orders",
  domain: logisticsDomain,
  summary:
    "Apply the replenishment policy's open-order review: cancel every open purchase order whose lines are all at or above their order-up-to level at the receiving warehouse, leaving the suspended supplier's orders alone.",
  instruction:
    'Purchasing here. We are carrying too many open purchase orders. Please do this week\'s open-order review as described in our replenishment policy and cancel every order the review says is no longer needed. Reply with only a JSON object {"cancelled": [<ids of the purchase orders you cancelled>]}.',
  tools: [
    "list_warehouses",
    "list_suppliers",
    "list_products",
    "get_product",
    "list_stock_levels",
    "list_purchase_orders",
    "get_purchase_order",
    "cancel_purchase_order",
  ],
  verify,
  oracle: reviewCells(),
  nearMisses: optionNearMisses(reviewCells, {
    "any-line-overstocked": [{ everyLine: false }, "Cancels orders where only some lines are covered."],
    "reviews-suspended-supplier": [
      { skipSuspended: false },
      "Also cancels the suspended supplier's orders, which Purchasing settles directly.",
    ],
    "strictly-above-level": [
      { atOrAbove: false },
      "Keeps orders whose stock sits exactly at the order-up-to level.",
    ],
  }),
});
