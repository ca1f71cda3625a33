import type Database from "better-sqlite3";
import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { roundCents } from "./money.js";
import { CANCEL_REASONS } from "./policy.js";

const MAX_PER_PAGE = 50;

const pageField = z.number().int().min(1).default(1).describe("Page number, starting at 1");
const perPageField = z
  .number()
  .int()
  .min(1)
  .max(MAX_PER_PAGE)
  .default(20)
  .describe(`Items per page (1-${MAX_PER_PAGE})`);
const isoDateField = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD");

type Row = Record<string, unknown>;

/** Runs a filtered listing with a stable order and returns one page plus the paging envelope. */
function paginate(
  db: Database.Database,
  options: { from: string; where: string[]; params: unknown[]; orderBy: string; columns: string },
  page: number,
  perPage: number,
): { rows: Row[]; page: number; per_page: number; total: number; has_more: boolean } {
  const where = options.where.length > 0 ? `WHERE ${options.where.join(" AND ")}` : "";
  const total = (
    db.prepare(`SELECT COUNT(*) AS count FROM ${options.from} ${where}`).get(...options.params) as {
      count: number;
    }
  ).count;
  const rows = db
    .prepare(
      `SELECT ${options.columns} FROM ${options.from} ${where} ORDER BY ${options.orderBy} LIMIT ? OFFSET ?`,
    )
    .all(...options.params, perPage, (page - 1) * perPage) as Row[];
  return { rows, page, per_page: perPage, total, has_more: page * perPage < total };
}

function customerView(row: Row): Row {
  return { ...row, marketing_opt_in: row.marketing_opt_in === 1 };
}

const listCustomers = defineTool({
  name: "list_customers",
  description:
    "Search customers by name or email fragment and/or loyalty tier. Returns `customers` [{id, first_name, last_name, email, loyalty_tier, city, state}] sorted by id, with `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    query: z
      .string()
      .min(1)
      .optional()
      .describe("Case-insensitive fragment of the first name, last name or email"),
    loyalty_tier: z
      .enum(["standard", "silver", "gold"])
      .optional()
      .describe("Only customers in this loyalty tier"),
    page: pageField,
    per_page: perPageField,
  }),
  handler: ({ query, loyalty_tier, page, per_page }, { db }: ToolContext) => {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query) {
      where.push("(lower(first_name) LIKE ? OR lower(last_name) LIKE ? OR lower(email) LIKE ?)");
      const pattern = `%${query.toLowerCase()}%`;
      params.push(pattern, pattern, pattern);
    }
    if (loyalty_tier) {
      where.push("loyalty_tier = ?");
      params.push(loyalty_tier);
    }
    const result = paginate(
      db,
      {
        from: "customers",
        where,
        params,
        orderBy: "id",
        columns: "id, first_name, last_name, email, loyalty_tier, city, state",
      },
      page,
      per_page,
    );
    return { customers: result.rows, page, per_page, total: result.total, has_more: result.has_more };
  },
});

const getCustomer = defineTool({
  name: "get_customer",
  description:
    "Get one customer's profile: id, first_name, last_name, email, phone, city, state, postal_code, loyalty_tier (standard/silver/gold), marketing_opt_in, created_at, and order_count.",
  kind: "read",
  inputSchema: z.object({ customer_id: z.number().int().describe("Customer id, e.g. 10042") }),
  handler: ({ customer_id }, { db }: ToolContext) => {
    const row = db.prepare("SELECT * FROM customers WHERE id = ?").get(customer_id) as Row | undefined;
    if (!row)
      throw new ToolFailure(
        `customer ${customer_id} not found; customer ids are numbers like 10042 (use list_customers to search)`,
      );
    const orders = db
      .prepare("SELECT COUNT(*) AS count FROM orders WHERE customer_id = ?")
      .get(customer_id) as { count: number };
    return { ...customerView(row), order_count: orders.count };
  },
});

const listProducts = defineTool({
  name: "list_products",
  description:
    "List catalogue products, optionally filtered by category, supplier or a name fragment. Returns `products` [{sku, name, category, brand, supplier, unit_price, is_active}] sorted by sku, with `page`, `per_page`, `total`, `has_more`. `unit_price` is today's list price.",
  kind: "read",
  inputSchema: z.object({
    category: z
      .string()
      .min(1)
      .optional()
      .describe("Exact category name, e.g. 'Electronics' or 'Home & Kitchen'"),
    supplier: z.string().min(1).optional().describe("Exact supplier name"),
    query: z.string().min(1).optional().describe("Case-insensitive fragment of the product name"),
    page: pageField,
    per_page: perPageField,
  }),
  handler: ({ category, supplier, query, page, per_page }, { db }: ToolContext) => {
    const where: string[] = [];
    const params: unknown[] = [];
    if (category) {
      where.push("category = ?");
      params.push(category);
    }
    if (supplier) {
      where.push("supplier = ?");
      params.push(supplier);
    }
    if (query) {
      where.push("lower(name) LIKE ?");
      params.push(`%${query.toLowerCase()}%`);
    }
    const result = paginate(
      db,
      {
        from: "products",
        where,
        params,
        orderBy: "sku",
        columns: "sku, name, category, brand, supplier, unit_price, is_active",
      },
      page,
      per_page,
    );
    return {
      products: result.rows.map((row) => ({ ...row, is_active: row.is_active === 1 })),
      page,
      per_page,
      total: result.total,
      has_more: result.has_more,
    };
  },
});

const getProduct = defineTool({
  name: "get_product",
  description:
    "Get one product by SKU: sku, name, category, brand, supplier, unit_price (today's list price), unit_cost, stock_on_hand, is_active.",
  kind: "read",
  inputSchema: z.object({ sku: z.string().min(1).describe("Product SKU, e.g. 'ELE-4821'") }),
  handler: ({ sku }, { db }: ToolContext) => {
    const row = db.prepare("SELECT * FROM products WHERE sku = ?").get(sku) as Row | undefined;
    if (!row)
      throw new ToolFailure(
        `product '${sku}' not found; SKUs look like 'ELE-4821' (use list_products to search)`,
      );
    return { ...row, is_active: row.is_active === 1 };
  },
});

const listOrders = defineTool({
  name: "list_orders",
  description:
    "List orders, filtered by status, customer, a SKU the order contains, and/or an order-date range (inclusive). Returns `orders` [{id, customer_id, placed_at, status, promo_code, total, line_count}] sorted by placed_at then id, with `page`, `per_page`, `total`, `has_more`. Use get_order for lines and payment.",
  kind: "read",
  inputSchema: z.object({
    status: z
      .enum(["pending", "processing", "shipped", "delivered", "cancelled"])
      .optional()
      .describe("Only orders in this status"),
    customer_id: z.number().int().optional().describe("Only orders of this customer (customer id)"),
    sku: z.string().min(1).optional().describe("Only orders with at least one line for this SKU"),
    placed_from: isoDateField.optional().describe("Earliest order date, YYYY-MM-DD (inclusive)"),
    placed_to: isoDateField.optional().describe("Latest order date, YYYY-MM-DD (inclusive)"),
    page: pageField,
    per_page: perPageField,
  }),
  handler: ({ status, customer_id, sku, placed_from, placed_to, page, per_page }, { db }: ToolContext) => {
    const where: string[] = [];
    const params: unknown[] = [];
    if (status) {
      where.push("o.status = ?");
      params.push(status);
    }
    if (customer_id) {
      where.push("o.customer_id = ?");
      params.push(customer_id);
    }
    if (sku) {
      where.push("EXISTS (SELECT 1 FROM order_lines s WHERE s.order_id = o.id AND s.sku = ?)");
      params.push(sku);
    }
    if (placed_from) {
      where.push("substr(o.placed_at, 1, 10) >= ?");
      params.push(placed_from);
    }
    if (placed_to) {
      where.push("substr(o.placed_at, 1, 10) <= ?");
      params.push(placed_to);
    }
    const result = paginate(
      db,
      {
        from: "orders o",
        where,
        params,
        orderBy: "o.placed_at, o.id",
        columns:
          "o.id, o.customer_id, o.placed_at, o.status, o.promo_code, o.total, (SELECT COUNT(*) FROM order_lines c WHERE c.order_id = o.id) AS line_count",
      },
      page,
      per_page,
    );
    return { orders: result.rows, page, per_page, total: result.total, has_more: result.has_more };
  },
});

const getOrder = defineTool({
  name: "get_order",
  description:
    "Get one order with its lines and payment: id, customer_id, placed_at, status, channel, promo_code, subtotal, discount_total, shipping_fee, tax, total, shipping_method, shipped_at, delivered_at, cancel_reason, `lines` [{line_id, line_number, sku, product_name, quantity, unit_price, discount, line_total}] and `payment` {id, method, card_last4, amount, status, captured_at}.",
  kind: "read",
  inputSchema: z.object({ order_id: z.number().int().describe("Order id, e.g. 200123") }),
  handler: ({ order_id }, { db }: ToolContext) => {
    const order = db.prepare("SELECT * FROM orders WHERE id = ?").get(order_id) as Row | undefined;
    if (!order)
      throw new ToolFailure(
        `order ${order_id} not found; order ids are numbers like 200123 (use list_orders to search)`,
      );
    const lines = db
      .prepare(
        `SELECT l.id AS line_id, l.line_number, l.sku, p.name AS product_name, l.quantity, l.unit_price, l.discount, l.line_total
           FROM order_lines l JOIN products p ON p.sku = l.sku WHERE l.order_id = ? ORDER BY l.line_number`,
      )
      .all(order_id);
    const payment =
      (db
        .prepare(
          "SELECT id, method, card_last4, amount, status, captured_at FROM payments WHERE order_id = ?",
        )
        .get(order_id) as Row | undefined) ?? null;
    return { ...order, lines, payment };
  },
});

const cancelOrder = defineTool({
  name: "cancel_order",
  description:
    "Cancel an order that has not shipped yet (status pending or processing), recording a reason code; its payment authorization is voided. Returns {order_id, status, cancel_reason, payment_status}. Fails for shipped, delivered or already cancelled orders.",
  kind: "write",
  inputSchema: z.object({
    order_id: z.number().int().describe("Order id, e.g. 200123"),
    reason: z.enum(CANCEL_REASONS).describe("Cancellation reason code"),
  }),
  handler: ({ order_id, reason }, { db }: ToolContext) => {
    const order = db.prepare("SELECT id, status FROM orders WHERE id = ?").get(order_id) as
      { id: number; status: string } | undefined;
    if (!order) throw new ToolFailure(`order ${order_id} not found; order ids are numbers like 200123`);
    if (order.status !== "pending" && order.status !== "processing")
      throw new ToolFailure(
        `order ${order_id} is ${order.status}; only pending or processing orders can be cancelled`,
      );
    db.prepare("UPDATE orders SET status = 'cancelled', cancel_reason = ? WHERE id = ?").run(
      reason,
      order_id,
    );
    db.prepare("UPDATE payments SET status = 'voided' WHERE order_id = ? AND status = 'authorized'").run(
      order_id,
    );
    const payment = db.prepare("SELECT status FROM payments WHERE order_id = ?").get(order_id) as
      { status: string } | undefined;
    return { order_id, status: "cancelled", cancel_reason: reason, payment_status: payment?.status ?? null };
  },
});

const RETURN_SUMMARY_COLUMNS =
  "r.id, r.order_id, r.order_line_id, r.sku, r.quantity, r.reason, r.item_condition, r.requested_at, r.status";

const listReturns = defineTool({
  name: "list_returns",
  description:
    "List return requests (RMAs), optionally by status and/or order. Returns `returns` [{id, order_id, order_line_id, sku, quantity, reason, item_condition, requested_at, status}] sorted by requested_at then id, with `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    status: z
      .enum(["requested", "approved", "rejected", "escalated", "received", "refunded"])
      .optional()
      .describe("Only returns in this status ('requested' = waiting for a decision)"),
    order_id: z.number().int().optional().describe("Only returns for this order (order id)"),
    page: pageField,
    per_page: perPageField,
  }),
  handler: ({ status, order_id, page, per_page }, { db }: ToolContext) => {
    const where: string[] = [];
    const params: unknown[] = [];
    if (status) {
      where.push("r.status = ?");
      params.push(status);
    }
    if (order_id) {
      where.push("r.order_id = ?");
      params.push(order_id);
    }
    const result = paginate(
      db,
      { from: "returns r", where, params, orderBy: "r.requested_at, r.id", columns: RETURN_SUMMARY_COLUMNS },
      page,
      per_page,
    );
    return { returns: result.rows, page, per_page, total: result.total, has_more: result.has_more };
  },
});

function loadReturn(db: Database.Database, returnId: number): Row {
  const row = db
    .prepare(`SELECT r.*, o.customer_id FROM returns r JOIN orders o ON o.id = r.order_id WHERE r.id = ?`)
    .get(returnId) as Row | undefined;
  if (!row)
    throw new ToolFailure(
      `return ${returnId} not found; return ids are numbers like 30042 (use list_returns)`,
    );
  return row;
}

const getReturn = defineTool({
  name: "get_return",
  description:
    "Get one return request: id, order_id, order_line_id, customer_id, sku, quantity, reason, item_condition (unopened/opened/damaged), customer_comment, requested_at, status, restocking_fee, decision_note.",
  kind: "read",
  inputSchema: z.object({ return_id: z.number().int().describe("Return id, e.g. 30042") }),
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
    return_id: z.number().int().describe("Return id, e.g. 30042"),
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
    const line = db
      .prepare("SELECT quantity, line_total FROM order_lines WHERE id = ?")
      .get(row.order_line_id) as {
      quantity: number;
      line_total: number;
    };
    const merchandiseValue = roundCents((line.line_total / line.quantity) * Number(row.quantity));
    const fee = roundCents((merchandiseValue * restocking_fee_percent) / 100);
    db.prepare(
      "UPDATE returns SET status = 'approved', restocking_fee = ?, decision_note = ? WHERE id = ?",
    ).run(fee, note ?? null, return_id);
    return { return_id, status: "approved", merchandise_value: merchandiseValue, restocking_fee: fee };
  },
});

const rejectReturn = defineTool({
  name: "reject_return",
  description:
    "Reject a return request that is waiting for a decision, with the reason given to the customer. Returns {return_id, status}.",
  kind: "write",
  inputSchema: z.object({
    return_id: z.number().int().describe("Return id, e.g. 30042"),
    reason: z.string().min(3).describe("Why the return is rejected (shown to the customer)"),
  }),
  handler: ({ return_id, reason }, { db }: ToolContext) => {
    requireRequested(loadReturn(db, return_id));
    db.prepare("UPDATE returns SET status = 'rejected', decision_note = ? WHERE id = ?").run(
      reason,
      return_id,
    );
    return { return_id, status: "rejected" };
  },
});

const escalateReturn = defineTool({
  name: "escalate_return",
  description:
    "Escalate a return request that is waiting for a decision to a manager or the Risk team, with a note. Returns {return_id, status}.",
  kind: "write",
  inputSchema: z.object({
    return_id: z.number().int().describe("Return id, e.g. 30042"),
    note: z.string().min(3).describe("Why it is escalated and to whom"),
  }),
  handler: ({ return_id, note }, { db }: ToolContext) => {
    requireRequested(loadReturn(db, return_id));
    db.prepare("UPDATE returns SET status = 'escalated', decision_note = ? WHERE id = ?").run(
      note,
      return_id,
    );
    return { return_id, status: "escalated" };
  },
});

const listRefunds = defineTool({
  name: "list_refunds",
  description:
    "List refunds, optionally by order, kind (return, price_match, goodwill) and/or creation-date range (inclusive). Returns `refunds` [{id, order_id, order_line_id, payment_id, return_id, kind, amount, created_at, note}] sorted by created_at then id, with `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    order_id: z.number().int().optional().describe("Only refunds for this order (order id)"),
    kind: z.enum(["return", "price_match", "goodwill"]).optional().describe("Only refunds of this kind"),
    created_from: isoDateField.optional().describe("Earliest refund date, YYYY-MM-DD (inclusive)"),
    created_to: isoDateField.optional().describe("Latest refund date, YYYY-MM-DD (inclusive)"),
    page: pageField,
    per_page: perPageField,
  }),
  handler: ({ order_id, kind, created_from, created_to, page, per_page }, { db }: ToolContext) => {
    const where: string[] = [];
    const params: unknown[] = [];
    if (order_id) {
      where.push("order_id = ?");
      params.push(order_id);
    }
    if (kind) {
      where.push("kind = ?");
      params.push(kind);
    }
    if (created_from) {
      where.push("substr(created_at, 1, 10) >= ?");
      params.push(created_from);
    }
    if (created_to) {
      where.push("substr(created_at, 1, 10) <= ?");
      params.push(created_to);
    }
    const result = paginate(
      db,
      {
        from: "refunds",
        where,
        params,
        orderBy: "created_at, id",
        columns: "id, order_id, order_line_id, payment_id, return_id, kind, amount, created_at, note",
      },
      page,
      per_page,
    );
    return { refunds: result.rows, page, per_page, total: result.total, has_more: result.has_more };
  },
});

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
];
