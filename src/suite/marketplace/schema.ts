/**
 * The marketplace back office's tables: sellers and their monthly performance, orders with carrier
 * tracking, buyers' disputes with their message threads, refunds, and the desk's action log. The pages are
 * rendered from these tables; the rules (response windows, when to refund, the defect-rate limit) live in
 * workspace documents.
 */
export const marketplaceSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE sellers (
  seller_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  joined_on TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'on_hold')),
  hold_reason TEXT
);

CREATE TABLE seller_metrics (
  seller_id TEXT NOT NULL REFERENCES sellers (seller_id),
  month TEXT NOT NULL,
  orders INTEGER NOT NULL,
  defects INTEGER NOT NULL,
  late_shipments INTEGER NOT NULL,
  PRIMARY KEY (seller_id, month)
);

CREATE TABLE orders (
  order_id TEXT PRIMARY KEY,
  seller_id TEXT NOT NULL REFERENCES sellers (seller_id),
  buyer TEXT NOT NULL,
  item TEXT NOT NULL,
  item_price REAL NOT NULL,
  shipping REAL NOT NULL,
  ordered_on TEXT NOT NULL,
  shipped_on TEXT NOT NULL,
  carrier TEXT NOT NULL,
  tracking_number TEXT NOT NULL
);

CREATE TABLE tracking_events (
  event_id INTEGER PRIMARY KEY,
  tracking_number TEXT NOT NULL,
  happened_at TEXT NOT NULL,
  status TEXT NOT NULL,
  location TEXT NOT NULL
);

CREATE TABLE disputes (
  dispute_id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (order_id),
  reason TEXT NOT NULL CHECK (reason IN ('not_received', 'not_as_described')),
  status TEXT NOT NULL,
  opened_on TEXT NOT NULL,
  closed_on TEXT
);

CREATE TABLE dispute_messages (
  message_id INTEGER PRIMARY KEY,
  dispute_id TEXT NOT NULL REFERENCES disputes (dispute_id),
  author TEXT NOT NULL CHECK (author IN ('buyer', 'seller', 'support')),
  sent_at TEXT NOT NULL,
  body TEXT NOT NULL
);

CREATE TABLE refunds (
  refund_id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (order_id),
  dispute_id TEXT,
  amount REAL NOT NULL CHECK (amount > 0),
  status TEXT NOT NULL CHECK (status IN ('issued', 'reversed')),
  issued_on TEXT NOT NULL
);

CREATE TABLE dispute_actions (
  action_id INTEGER PRIMARY KEY,
  dispute_id TEXT NOT NULL REFERENCES disputes (dispute_id),
  action TEXT NOT NULL,
  reason_code TEXT,
  amount REAL,
  acted_on TEXT NOT NULL
);
`;
