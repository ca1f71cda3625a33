import type Database from "better-sqlite3";
import { z } from "zod";
import {
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  isoDateSchema,
  requireRow,
  roundCents,
  when,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type Row,
  type ToolContext,
  optionalText,
  optionalInt,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { trackingLookupTimesOut } from "./carrier.js";
import { CANCEL_REASONS } from "./policy.js";

const customerIdArg = z.number().int().describe("Customer id, e.g. 10042");
const orderIdArg = z.number().int().describe("Order id, e.g. 200123");
const returnIdArg = z.number().int().describe("Return id, e.g. 30042");

/** A LIKE pattern matching the lower-cased fragment anywhere. */
const fragment = (query: string | undefined) =>
  query === undefined ? undefined : `%${query.toLowerCase()}%`;

const customerNotFound = (id: number): string =>
  `customer ${id} not found; customer ids are numbers like 10042 (use list_customers to search)`;
const orderNotFound = (id: number): string =>
  `order ${id} not found; order ids are numbers like 200123 (use list_orders to search)`;

const listCustomers = defineListTool({
  name: "list_customers",
  description:
    "Search customers by name or email fragment and/or loyalty tier. Returns `customers` [{id, first_name, last_name, email, loyalty_tier, city, state}] sorted by id, with `page`, `per_page`, `total`, `has_more`.",
  filters: {
    query: optionalText("Case-insensitive fragment of the first name, last name or email"),
    loyalty_tier: optionalChoice(["standard", "silver", "gold"], "Only customers in this loyalty tier"),
  },
  key: "customers",
  from: "customers",
  select: "id, first_name, last_name, email, loyalty_tier, city, state",
  where: ({ query, loyalty_tier }) => [
    when(fragment(query), "(lower(first_name) LIKE ? OR lower(last_name) LIKE ? OR lower(email) LIKE ?)"),
    when(loyalty_tier, "loyalty_tier = ?"),
  ],
  orderBy: "id",
});

const getCustomer = defineGetTool({
  name: "get_customer",
  description:
    "Get one customer's profile: id, first_name, last_name, email, phone, city, state, postal_code, loyalty_tier (standard/silver/gold), marketing_opt_in, created_at, and order_count.",
  input: { customer_id: customerIdArg },
  from: "customers",
  idColumn: "id",
  notFound: customerNotFound,
  map: (row) => withBooleans(row, "marketing_opt_in"),
  related: {
    order_count: (db, id) =>
      getRow<{ count: number }>(db, "SELECT COUNT(*) AS count FROM orders WHERE customer_id = ?", id)!.count,
  },
});

const listProducts = defineListTool({
  name: "list_products",
  description:
    "List catalogue products, optionally filtered by category, supplier or a name fragment. Returns `products` [{sku, name, category, brand, supplier, unit_price, is_active}] sorted by sku, with `page`, `per_page`, `total`, `has_more`. `unit_price` is today's list price.",
  filters: {
    category: optionalText("Exact category name, e.g. 'Electronics' or 'Home & Kitchen'"),
    supplier: optionalText("Exact supplier name"),
    query: optionalText("Case-insensitive fragment of the product name"),
  },
  key: "products",
  from: "products",
  select: "sku, name, category, brand, supplier, unit_price, is_active",
  where: ({ category, supplier, query }) => [
    when(category, "category = ?"),
    when(supplier, "supplier = ?"),
    when(fragment(query), "lower(name) LIKE ?"),
  ],
  orderBy: "sku",
  map: (row) => withBooleans(row, "is_active"),
});

const getProduct = defineGetTool({
  name: "get_product",
  description:
    "Get one product by SKU: sku, name, category, brand, supplier, unit_price (today's list price), unit_cost, stock_on_hand, is_active.",
  input: { sku: z.string().min(1).describe("Product SKU, e.g. 'ELE-4821'") },
  from: "products",
  notFound: (sku) => `product '${sku}' not found; SKUs look like 'ELE-4821' (use list_products to search)`,
  map: (row) => withBooleans(row, "is_active"),
});

const listOrders = defineListTool({
  name: "list_orders",
  description:
    "List orders, filtered by status, customer, a SKU the order contains, and/or an order-date range (inclusive). Returns `orders` [{id, customer_id, placed_at, status, promo_code, total, line_count}] sorted by placed_at then id, with `page`, `per_page`, `total`, `has_more`. Use get_order for lines and payment.",
  filters: {
    status: optionalChoice(
      ["pending", "processing", "shipped", "delivered", "cancelled"],
      "Only orders in this status",
    ),
    customer_id: optionalInt("Only orders of this customer (customer id)"),
    sku: optionalText("Only orders with at least one line for this SKU"),
    placed_from: optionalDate("Earliest order date, YYYY-MM-DD (inclusive)"),
    placed_to: optionalDate("Latest order date, YYYY-MM-DD (inclusive)"),
  },
  key: "orders",
  from: "orders o",
  select:
    "o.id, o.customer_id, o.placed_at, o.status, o.promo_code, o.total, (SELECT COUNT(*) FROM order_lines c WHERE c.order_id = o.id) AS line_count",
  where: {
    status: "o.status = ?",
    customer_id: "o.customer_id = ?",
    sku: "EXISTS (SELECT 1 FROM order_lines s WHERE s.order_id = o.id AND s.sku = ?)",
    placed_from: "substr(o.placed_at, 1, 10) >= ?",
    placed_to: "substr(o.placed_at, 1, 10) <= ?",
  },
  orderBy: "o.placed_at, o.id",
});

const getOrder = defineGetTool({
  name: "get_order",
  description:
    "Get one order with its lines and payment: id, customer_id, placed_at, status, channel, promo_code, subtotal, discount_total, shipping_fee, tax, total, shipping_method, shipped_at, delivered_at, cancel_reason, `lines` [{line_id, line_number, sku, product_name, quantity, unit_price, discount, line_total}] and `payment` {id, method, card_last4, amount, status, captured_at}.",
  input: { order_id: orderIdArg },
  from: "orders",
  idColumn: "id",
  notFound: orderNotFound,
  related: {
    lines: `SELECT l.id AS line_id, l.line_number, l.sku, p.name AS product_name, l.quantity, l.unit_price, l.discount, l.line_total
              FROM order_lines l JOIN products p ON p.sku = l.sku WHERE l.order_id = ? ORDER BY l.line_number`,
    payment: (db, id) =>
      getRow(
        db,
        "SELECT id, method, card_last4, amount, status, captured_at FROM payments WHERE order_id = ?",
        id,
      ) ?? null,
  },
});

const cancelOrder = defineTool({
  name: "cancel_order",
  description:
    "Cancel an order that has not shipped yet (status pending or processing), recording a reason code; its payment authorization is voided. Returns {order_id, status, cancel_reason, payment_status}. Fails for shipped, delivered or already cancelled orders.",
  kind: "write",
  inputSchema: z.object({
    order_id: orderIdArg,
    reason: z.enum(CANCEL_REASONS).describe("Cancellation reason code"),
  }),
  handler: ({ order_id, reason }, { db }: ToolContext) => {
    const order = requireRow<{ id: number; status: string }>(
      db,
      "SELECT id, status FROM orders WHERE id = ?",
      [order_id],
      `order ${order_id} not found; order ids are numbers like 200123`,
    );
    if (order.status !== "pending" && order.status !== "processing")
      throw new ToolFailure(
        `order ${order_id} is ${order.status}; only pending or processing orders can be cancelled`,
      );
    cachedStatement(db, "UPDATE orders SET status = 'cancelled', cancel_reason = ? WHERE id = ?").run(
      reason,
      order_id,
    );
    cachedStatement(
      db,
      "UPDATE payments SET status = 'voided' WHERE order_id = ? AND status = 'authorized'",
    ).run(order_id);
    const payment = getRow<{ status: string }>(
      db,
      "SELECT status FROM payments WHERE order_id = ?",
      order_id,
    );
    return { order_id, status: "cancelled", cancel_reason: reason, payment_status: payment?.status ?? null };
  },
});

const RETURN_SUMMARY_COLUMNS =
  "r.id, r.order_id, r.order_line_id, r.sku, r.quantity, r.reason, r.item_condition, r.requested_at, r.status";

const listReturns = defineListTool({
  name: "list_returns",
  description:
    "List return requests (RMAs), optionally by status and/or order. Returns `returns` [{id, order_id, order_line_id, sku, quantity, reason, item_condition, requested_at, status}] sorted by requested_at then id, with `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(
      ["requested", "approved", "rejected", "escalated", "received", "refunded"],
      "Only returns in this status ('requested' = waiting for a decision)",
    ),
    order_id: optionalInt("Only returns for this order (order id)"),
  },
  key: "returns",
  from: "returns r",
  select: RETURN_SUMMARY_COLUMNS,
  where: { status: "r.status = ?", order_id: "r.order_id = ?" },
  orderBy: "r.requested_at, r.id",
});

function loadReturn(db: Database.Database, returnId: number): Row {
  return requireRow(
    db,
    "SELECT r.*, o.customer_id FROM returns r JOIN orders o ON o.id = r.order_id WHERE r.id = ?",
    [returnId],
    `return ${returnId} not found; return ids are numbers like 30042 (use list_returns)`,
  );
}

const getReturn = defineTool({
  name: "get_return",
  description:
    "Get one return request: id, order_id, order_line_id, customer_id, sku, quantity, reason, item_condition (unopened/opened/damaged), customer_comment, requested_at, status, restocking_fee, decision_note.",
  kind: "read",
  inputSchema: z.object({ return_id: returnIdArg }),
  handler: ({ return_id }, { db }: ToolContext) => loadReturn(db, return_id),
});

function requireRequested(row: Row): void {
  if (row.status !== "requested")
    throw new ToolFailure(
      `return ${String(row.id)} is already ${String(row.status)}; only returns in status 'requested' can be decided`,
    );
}

const approveReturn = defineTool({
  name: "approve_return",
  description:
    "Approve a return request that is waiting for a decision. The restocking fee is charged as a percentage of the merchandise value of the returned units (line total / line quantity x returned quantity). Returns {return_id, status, merchandise_value, restocking_fee}.",
  kind: "write",
  inputSchema: z.object({
    return_id: returnIdArg,
    restocking_fee_percent: z
      .number()
      .min(0)
      .max(100)
      .default(0)
      .describe("Restocking fee as a percentage of the merchandise value (0 for none)"),
    note: z.string().optional().describe("Optional decision note"),
  }),
  handler: ({ return_id, restocking_fee_percent, note }, { db }: ToolContext) => {
    const row = loadReturn(db, return_id);
    requireRequested(row);
    const line = getRow<{ quantity: number; line_total: number }>(
      db,
      "SELECT quantity, line_total FROM order_lines WHERE id = ?",
      row.order_line_id,
    )!;
    const merchandiseValue = roundCents((line.line_total / line.quantity) * Number(row.quantity));
    const fee = roundCents((merchandiseValue * restocking_fee_percent) / 100);
    cachedStatement(
      db,
      "UPDATE returns SET status = 'approved', restocking_fee = ?, decision_note = ? WHERE id = ?",
    ).run(fee, note ?? null, return_id);
    return { return_id, status: "approved", merchandise_value: merchandiseValue, restocking_fee: fee };
  },
});

/** A decision on a waiting return that records its status and the text the caller gives (reject, escalate). */
function textDecisionTool(
  name: string,
  status: "rejected" | "escalated",
  description: string,
  text: { field: "reason" | "note"; description: string },
) {
  return defineTool({
    name,
    description,
    kind: "write",
    inputSchema: z.object({
      return_id: returnIdArg,
      [text.field]: z.string().min(3).describe(text.description),
    }),
    handler: (input, { db }: ToolContext) => {
      const returnId = input.return_id as number;
      requireRequested(loadReturn(db, returnId));
      cachedStatement(db, "UPDATE returns SET status = ?, decision_note = ? WHERE id = ?").run(
        status,
        input[text.field],
        returnId,
      );
      return { return_id: returnId, status };
    },
  });
}

const rejectReturn = textDecisionTool(
  "reject_return",
  "rejected",
  "Reject a return request that is waiting for a decision, with the reason given to the customer. Returns {return_id, status}.",
  { field: "reason", description: "Why the return is rejected (shown to the customer)" },
);

const escalateReturn = textDecisionTool(
  "escalate_return",
  "escalated",
  "Escalate a return request that is waiting for a decision to a manager or the Risk team, with a note. Returns {return_id, status}.",
  { field: "note", description: "Why it is escalated and to whom" },
);

const listRefunds = defineListTool({
  name: "list_refunds",
  description:
    "List refunds, optionally by order, kind (return, price_match, goodwill) and/or creation-date range (inclusive). Returns `refunds` [{id, order_id, order_line_id, payment_id, return_id, kind, amount, created_at, note}] sorted by created_at then id, with `page`, `per_page`, `total`, `has_more`.",
  filters: {
    order_id: optionalInt("Only refunds for this order (order id)"),
    kind: optionalChoice(["return", "price_match", "goodwill"], "Only refunds of this kind"),
    created_from: optionalDate("Earliest refund date, YYYY-MM-DD (inclusive)"),
    created_to: optionalDate("Latest refund date, YYYY-MM-DD (inclusive)"),
  },
  key: "refunds",
  from: "refunds",
  select: "id, order_id, order_line_id, payment_id, return_id, kind, amount, created_at, note",
  where: {
    order_id: "=",
    kind: "=",
    created_from: "substr(created_at, 1, 10) >= ?",
    created_to: "substr(created_at, 1, 10) <= ?",
  },
  orderBy: "created_at, id",
});

const updateLoyaltyTier = defineTool({
  name: "update_loyalty_tier",
  description:
    "Set a customer's loyalty tier (standard, silver or gold). Returns {customer_id, previous_tier, loyalty_tier}.",
  kind: "write",
  inputSchema: z.object({
    customer_id: customerIdArg,
    tier: z.enum(["standard", "silver", "gold"]).describe("The new loyalty tier"),
  }),
  handler: ({ customer_id, tier }, { db }: ToolContext) => {
    const customer = requireRow<{ loyalty_tier: string }>(
      db,
      "SELECT loyalty_tier FROM customers WHERE id = ?",
      [customer_id],
      customerNotFound(customer_id),
    );
    cachedStatement(db, "UPDATE customers SET loyalty_tier = ? WHERE id = ?").run(tier, customer_id);
    return { customer_id, previous_tier: customer.loyalty_tier, loyalty_tier: tier };
  },
});

const getCarrierTrackingApi = defineGetTool({
  name: "get_carrier_tracking",
  description:
    "Look up the carrier's tracking for a shipped order (the carrier's API, not our order system). Returns {order_id, carrier, tracking_number, status, events}: `status` is in_transit, out_for_delivery, delivered or exception; `events` [{at, code, description}] are the carrier's scans, oldest first (codes LABEL_CREATED, PICKED_UP, IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERED, POD_UPLOADED, EXCEPTION).",
  input: { order_id: orderIdArg },
  select: "order_id, carrier, tracking_number, status, events",
  from: "carrier_tracking",
  notFound: (orderId) =>
    `no carrier tracking for order ${orderId}; only orders handed to a carrier that are still shown as shipped are tracked (use list_orders with status 'shipped')`,
  map: (row) => ({ ...row, events: JSON.parse(String(row.events)) as unknown }),
});

/** The carrier's API times out on a shard of lookups and says so in an ordinary body, not as an error. */
const getCarrierTracking = withSilentFailures(getCarrierTrackingApi, {
  when: (input) => trackingLookupTimesOut(input.order_id),
});

const markOrderDelivered = defineTool({
  name: "mark_order_delivered",
  description:
    "Record that a shipped order was delivered, at the given delivery time (YYYY-MM-DDTHH:MM:SS). Returns {order_id, status, delivered_at}. Fails unless the order is shipped.",
  kind: "write",
  inputSchema: z.object({
    order_id: orderIdArg,
    delivered_at: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, "expected a timestamp YYYY-MM-DDTHH:MM:SS")
      .describe("When the order was delivered, YYYY-MM-DDTHH:MM:SS"),
  }),
  handler: ({ order_id, delivered_at }, { db }: ToolContext) => {
    const order = requireRow<{ status: string; shipped_at: string | null }>(
      db,
      "SELECT status, shipped_at FROM orders WHERE id = ?",
      [order_id],
      orderNotFound(order_id),
    );
    if (order.status !== "shipped")
      throw new ToolFailure(
        `order ${order_id} is ${order.status}; only shipped orders can be marked delivered`,
      );
    if (order.shipped_at !== null && delivered_at < order.shipped_at)
      throw new ToolFailure(
        `order ${order_id} shipped at ${order.shipped_at}; it cannot be delivered before that`,
      );
    cachedStatement(db, "UPDATE orders SET status = 'delivered', delivered_at = ? WHERE id = ?").run(
      delivered_at,
      order_id,
    );
    return { order_id, status: "delivered", delivered_at };
  },
});

const listSalesLinesApi = defineListTool({
  name: "list_sales_lines",
  description:
    "The sales ledger (the data warehouse's API): one row per order line of the orders placed in a date range (inclusive), optionally for one SKU. Returns `lines` [{line_id, order_id, placed_at, order_status, sku, quantity}] sorted by placed_at then line id, with `page`, `per_page`, `total`, `has_more`.",
  filters: {
    placed_from: isoDateSchema.describe("Earliest order date, YYYY-MM-DD (inclusive)"),
    placed_to: isoDateSchema.describe("Latest order date, YYYY-MM-DD (inclusive)"),
    sku: optionalText("Only lines for this SKU"),
  },
  key: "lines",
  from: "order_lines l JOIN orders o ON o.id = l.order_id",
  select: "l.id AS line_id, l.order_id, o.placed_at, o.status AS order_status, l.sku, l.quantity",
  where: {
    placed_from: "substr(o.placed_at, 1, 10) >= ?",
    placed_to: "substr(o.placed_at, 1, 10) <= ?",
    sku: "l.sku = ?",
  },
  orderBy: "o.placed_at, l.id",
});

/** The warehouse API is overloaded on the second page of any listing: it answers 503 once, then works. */
const listSalesLines = withTransientFailures(listSalesLinesApi, { when: (input) => input.page === 2 });

export const retailTools: DomainTool[] = [
  listCustomers,
  getCustomer,
  listProducts,
  getProduct,
  listOrders,
  getOrder,
  cancelOrder,
  listReturns,
  getReturn,
  approveReturn,
  rejectReturn,
  escalateReturn,
  listRefunds,
  updateLoyaltyTier,
  getCarrierTracking,
  markOrderDelivered,
  listSalesLines,
];
