import {
  allRows,
  check,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  type Check,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { planningRules } from "../documents.js";
import { logisticsDomain } from "../domain.js";
import { optionNearMisses, verdict } from "./checks.js";
import { PYTHON_HELPERS } from "./python-helpers.js";

/** The orders the policy calls for: `warehouse|supplier` -> sku -> quantity. */
export function expectedReplenishment(state: StateView): Map<string, Map<string, number>> {
  const { db } = state;
  const { policy, suspendedSupplierId } = planningRules(state);
  const onOrder = new Map<string, number>();
  const openLines = allRows<{ warehouse_id: string; sku: string; quantity: number }>(
    db,
    `SELECT orders.warehouse_id, lines.sku, SUM(lines.quantity) AS quantity
     FROM purchase_order_lines AS lines JOIN purchase_orders AS orders ON orders.id = lines.purchase_order_id
     WHERE orders.status IN ('draft', 'submitted') AND orders.supplier_id <> ?
     GROUP BY orders.warehouse_id, lines.sku`,
    suspendedSupplierId,
  );
  for (const line of openLines) onOrder.set(`${line.warehouse_id}|${line.sku}`, line.quantity);
  type Stock = { warehouse_id: string; sku: string; category: string; case_pack: number; available: number };
  const stock = allRows<Stock>(
    db,
    `SELECT lots.warehouse_id, lots.sku, products.category, products.case_pack,
       SUM(CASE WHEN lots.status = 'available' THEN lots.quantity ELSE 0 END) AS available
     FROM inventory_lots AS lots JOIN products ON products.sku = lots.sku
     WHERE products.status = 'active'
     GROUP BY lots.warehouse_id, lots.sku ORDER BY lots.warehouse_id, lots.sku`,
  );
  const expected = new Map<string, Map<string, number>>();
  for (const row of stock) {
    const rule = policy.categories[row.category];
    if (!rule) continue;
    const levels = policy.overrides[row.sku] ?? rule;
    const position = row.available + (onOrder.get(`${row.warehouse_id}|${row.sku}`) ?? 0);
    if (position > levels.reorderPoint) continue;
    const quantity = Math.ceil((levels.orderUpTo - position) / row.case_pack) * row.case_pack;
    const supplier =
      rule.preferredSupplierId === suspendedSupplierId ? rule.backupSupplierId : rule.preferredSupplierId;
    const key = `${row.warehouse_id}|${supplier}`;
    const lines = expected.get(key) ?? new Map<string, number>();
    lines.set(row.sku, quantity);
    expected.set(key, lines);
  }
  return expected;
}

function describeLines(lines: Map<string, number> | undefined): string {
  if (!lines) return "no order";
  return [...lines.entries()]
    .sort()
    .map(([sku, quantity]) => `${sku} x${quantity}`)
    .join(", ");
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedReplenishment(initial);
  const orders = diffTable(initial.db, final.db, "purchase_orders", "id");
  const lines = diffTable(initial.db, final.db, "purchase_order_lines", "id");
  const newOrderIds = new Set(orders.added.map((order) => String(order.id)));
  const edited = [
    ...orders.changed.map((change) => change.key),
    ...orders.removed.map((order) => String(order.id)),
  ];
  const untouched = edited.length + lines.changed.length + lines.removed.length === 0;
  const notDraft = orders.added.filter((order) => order.status !== "draft");

  const actual = new Map<string, Map<string, number>>();
  const duplicates: string[] = [];
  for (const order of orders.added) {
    const key = `${String(order.warehouse_id)}|${String(order.supplier_id)}`;
    if (actual.has(key)) duplicates.push(key);
    const orderLines = actual.get(key) ?? new Map<string, number>();
    for (const line of lines.added) {
      if (line.purchase_order_id !== order.id) continue;
      const sku = String(line.sku);
      orderLines.set(sku, (orderLines.get(sku) ?? 0) + Number(line.quantity));
    }
    actual.set(key, orderLines);
  }
  const mismatches: string[] = [];
  for (const key of [...new Set([...expected.keys(), ...actual.keys()])].sort()) {
    const want = describeLines(expected.get(key));
    const got = describeLines(actual.get(key));
    if (want !== got) mismatches.push(`${key.replace("|", " from ")}: expected ${want}; found ${got}`);
  }
  const expectedLineCount = [...expected.values()].reduce((sum, skus) => sum + skus.size, 0);
  const done = /\bdone\b/i.test(answer);
  return [
    check(
      "existing-orders-untouched",
      untouched && lines.added.every((line) => newOrderIds.has(String(line.purchase_order_id))),
      untouched
        ? "existing purchase orders and lines unchanged"
        : `existing purchase orders were modified: ${edited.join(", ") || "(lines only)"}`,
    ),
    verdict(
      "new-orders-are-drafts",
      notDraft.length === 0,
      `${orders.added.length} new purchase orders, all drafts`,
      () =>
        `new orders not in draft status: ${notDraft.map((order) => `${String(order.id)} (${String(order.status)})`).join(", ")}`,
    ),
    verdict(
      "one-order-per-supplier-and-warehouse",
      duplicates.length === 0,
      "at most one new order per supplier and warehouse",
      () => `several new orders for: ${duplicates.join(", ")}`,
    ),
    verdict(
      "orders-follow-policy",
      mismatches.length === 0,
      `${expected.size} orders with ${expectedLineCount} lines, as the policy requires`,
      () =>
        `${mismatches.length} supplier/warehouse orders differ from the policy: ${mismatches.slice(0, 8).join(" | ")}${mismatches.length > 8 ? " | ..." : ""}`,
    ),
    checkOtherTablesUnchanged(initial.db, final.db, ["purchase_orders", "purchase_order_lines"]),
    verdict(
      "answer-done",
      done,
      "answered 'done'",
      () => `expected the reply 'done', found '${answer.slice(0, 80)}'`,
    ),
  ];
}

interface OracleOptions {
  honourSuspension?: boolean;
  countOpenOrders?: boolean;
  reorderAtPoint?: boolean;
  roundToCases?: boolean;
}

function replenishmentCells(options: OracleOptions = {}): string[] {
  const {
    honourSuspension = true,
    countOpenOrders = true,
    reorderAtPoint = true,
    roundToCases = true,
  } = options;
  return [
    PYTHON_HELPERS,
    String.raw`
policy_text = read_text("policies/replenishment-policy.md")
bulletin_text = read_text("memos/operations-bulletin.md")
levels, sources = {}, {}
for category, reorder_point, order_up_to, preferred, backup in md_table(policy_text, "by category"):
    levels[category] = (int(reorder_point), int(order_up_to))
    sources[category] = (re.search(r"SUP-\d+", preferred).group(), re.search(r"SUP-\d+", backup).group())
overrides = {row[0]: (int(row[1]), int(row[2])) for row in md_table(policy_text, "SKU overrides")}
suspended = re.search(r"Supplier (SUP-\d+) \(.*?\) is suspended", bulletin_text).group(1)
${honourSuspension ? "" : "suspended = None  # near-miss: the bulletin is not taken into account"}
print(levels, sources, overrides, suspended)
`,
    String.raw`
products = {product["sku"]: product for product in fetch_all("list_products", "products")}
warehouses = [warehouse["id"] for warehouse in fetch_all("list_warehouses", "warehouses")]
on_order = {}
for status in ("draft", "submitted"):
    for order in fetch_all("list_purchase_orders", "purchase_orders", status=status):
        if order["supplier_id"] == suspended:
            continue
        detail = tools.get_purchase_order(purchase_order_id=order["id"])["purchase_order"]
        for line in detail["lines"]:
            key = (order["warehouse_id"], line["sku"])
            on_order[key] = on_order.get(key, 0) + line["quantity"]
${countOpenOrders ? "" : "on_order = {}  # near-miss: stock on order is ignored"}
print(len(products), "products;", len(on_order), "warehouse/SKU pairs on order")
`,
    String.raw`
plan = {}
for warehouse_id in warehouses:
    for level in fetch_all("list_stock_levels", "stock_levels", warehouse_id=warehouse_id):
        product = products[level["sku"]]
        if product["status"] != "active":
            continue
        reorder_point, order_up_to = overrides.get(product["sku"], levels[product["category"]])
        position = level["available_quantity"] + on_order.get((warehouse_id, product["sku"]), 0)
        if position ${reorderAtPoint ? ">" : ">="} reorder_point:
            continue
        shortfall = order_up_to - position
        quantity = ${roundToCases ? 'math.ceil(shortfall / product["case_pack"]) * product["case_pack"]' : "shortfall"}
        preferred, backup = sources[product["category"]]
        supplier_id = backup if preferred == suspended else preferred
        plan.setdefault((warehouse_id, supplier_id), []).append({"sku": product["sku"], "quantity": quantity})
for key, lines in sorted(plan.items()):
    print(key, lines)
`,
    String.raw`
created = []
for (warehouse_id, supplier_id), lines in sorted(plan.items()):
    order = tools.create_purchase_order(supplier_id=supplier_id, warehouse_id=warehouse_id, lines=lines)["purchase_order"]
    created.append((order["id"], order["line_count"]))
drafts = fetch_all("list_purchase_orders", "purchase_orders", status="draft")
print(created, len(drafts), "drafts now")
`,
    `print("done")`,
  ];
}

export const replenishLowStockTask = defineTask({
  id: "logistics.replenish-low-stock",
  domain: logisticsDomain,
  summary:
    "Raise draft purchase orders for every active SKU at or below its reorder point at each warehouse, following the replenishment policy (levels, SKU overrides, case packs, stock on order) and the supplier suspension in the operations bulletin.",
  instruction:
    "Stock is running low at several of our distribution centers. Please run this week's replenishment across all warehouses: raise whatever purchase orders our replenishment policy calls for right now (the policy and the latest operations bulletin are in the workspace). Reply with only the word 'done' when you are finished.",
  tools: [
    "list_warehouses",
    "list_suppliers",
    "list_products",
    "get_product",
    "list_stock_levels",
    "list_inventory_lots",
    "list_purchase_orders",
    "get_purchase_order",
    "create_purchase_order",
  ],
  verify,
  oracle: replenishmentCells(),
  nearMisses: optionNearMisses(replenishmentCells, {
    "ignores-supplier-suspension": [
      { honourSuspension: false },
      "Orders from the suspended supplier and counts its open orders as stock on order.",
    ],
    "ignores-stock-on-order": [
      { countOpenOrders: false },
      "Reorders from on-hand stock alone, ignoring open purchase orders.",
    ],
    "strictly-below-reorder-point": [
      { reorderAtPoint: false },
      "Reorders only below the reorder point, missing SKUs sitting exactly on it.",
    ],
    "no-case-pack-rounding": [
      { roundToCases: false },
      "Orders the exact shortfall instead of rounding up to whole case packs.",
    ],
  }),
});
