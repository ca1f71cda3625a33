/**
 * The store's operational database: catalogue, customers, orders with their lines, payments, returns, refunds.
 *
 * 1 KB pages: with the default 4 KB, every multi-page table carries a nearly empty root page, so a v0 file
 * is mostly fixed overhead and the file stops growing in proportion to the rows (x8 rows gave x4.5 bytes).
 */
export const retailSchemaSql = `
PRAGMA page_size = 1024;
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  phone TEXT,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  postal_code TEXT NOT NULL,
  loyalty_tier TEXT NOT NULL CHECK (loyalty_tier IN ('standard', 'silver', 'gold')),
  marketing_opt_in INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE products (
  sku TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  category TEXT NOT NULL,
  brand TEXT NOT NULL,
  supplier TEXT NOT NULL,
  unit_price REAL NOT NULL,
  unit_cost REAL NOT NULL,
  stock_on_hand INTEGER NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  placed_at TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
  channel TEXT NOT NULL,
  promo_code TEXT,
  subtotal REAL NOT NULL,
  discount_total REAL NOT NULL,
  shipping_fee REAL NOT NULL,
  tax REAL NOT NULL,
  total REAL NOT NULL,
  shipping_method TEXT NOT NULL,
  shipped_at TEXT,
  delivered_at TEXT,
  cancel_reason TEXT
);
CREATE INDEX orders_customer ON orders (customer_id);

CREATE TABLE order_lines (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  line_number INTEGER NOT NULL,
  sku TEXT NOT NULL REFERENCES products (sku),
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_price REAL NOT NULL,
  discount REAL NOT NULL DEFAULT 0,
  line_total REAL NOT NULL
);
CREATE INDEX order_lines_order ON order_lines (order_id);

CREATE TABLE payments (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  method TEXT NOT NULL,
  card_last4 TEXT,
  amount REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('authorized', 'captured', 'voided', 'partially_refunded', 'refunded')),
  captured_at TEXT
);

CREATE TABLE returns (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  order_line_id INTEGER NOT NULL REFERENCES order_lines (id),
  sku TEXT NOT NULL REFERENCES products (sku),
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  reason TEXT NOT NULL,
  item_condition TEXT NOT NULL CHECK (item_condition IN ('unopened', 'opened', 'damaged')),
  customer_comment TEXT,
  requested_at TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'rejected', 'escalated', 'received', 'refunded')),
  restocking_fee REAL NOT NULL DEFAULT 0,
  decision_note TEXT
);

CREATE TABLE refunds (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  order_line_id INTEGER NOT NULL REFERENCES order_lines (id),
  payment_id INTEGER NOT NULL REFERENCES payments (id),
  return_id INTEGER REFERENCES returns (id),
  kind TEXT NOT NULL CHECK (kind IN ('return', 'price_match', 'goodwill')),
  amount REAL NOT NULL,
  created_at TEXT NOT NULL,
  note TEXT
);

-- The carriers' tracking of orders still shown as shipped; empty unless a task plants it.
CREATE TABLE carrier_tracking (
  order_id INTEGER PRIMARY KEY REFERENCES orders (id),
  carrier TEXT NOT NULL,
  tracking_number TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('in_transit', 'out_for_delivery', 'delivered', 'exception')),
  events TEXT NOT NULL
);
`;
