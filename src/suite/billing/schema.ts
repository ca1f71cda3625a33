/**
 * The billing schema: a B2B SaaS company's accounts and billing contacts, its plans and usage price tiers,
 * subscriptions, daily metered usage, invoices with their lines, payment attempts and credit notes.
 *
 * Negotiated terms (contract discounts and caps, committed seats), the dunning rules, the price change and
 * the SLA credit rules live in workspace documents, as they do in a real finance team's drive.
 */
export const billingSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE customers (
  customer_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  region TEXT NOT NULL CHECK (region IN ('NA', 'EU', 'APAC')),
  segment TEXT NOT NULL CHECK (segment IN ('smb', 'mid_market', 'enterprise')),
  net_terms_days INTEGER NOT NULL,
  created_on TEXT NOT NULL
);

CREATE TABLE billing_contacts (
  contact_id INTEGER PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (customer_id),
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('billing', 'technical', 'executive'))
);

CREATE TABLE plans (
  plan_code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  seat_price REAL NOT NULL,
  included_api_calls INTEGER NOT NULL,
  sla_eligible INTEGER NOT NULL
);

CREATE TABLE price_tiers (
  plan_code TEXT NOT NULL REFERENCES plans (plan_code),
  tier_no INTEGER NOT NULL,
  from_calls INTEGER NOT NULL,
  to_calls INTEGER,
  price_per_1000 REAL NOT NULL,
  PRIMARY KEY (plan_code, tier_no)
);

CREATE TABLE subscriptions (
  subscription_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (customer_id),
  plan_code TEXT NOT NULL REFERENCES plans (plan_code),
  seats INTEGER NOT NULL,
  start_date TEXT NOT NULL,
  renewal_date TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'past_due', 'suspended', 'cancelled')),
  status_reason TEXT
);

CREATE TABLE usage_records (
  record_id INTEGER PRIMARY KEY,
  subscription_id TEXT NOT NULL REFERENCES subscriptions (subscription_id),
  usage_date TEXT NOT NULL,
  api_calls INTEGER NOT NULL
);

CREATE TABLE invoices (
  invoice_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (customer_id),
  subscription_id TEXT NOT NULL REFERENCES subscriptions (subscription_id),
  period_start TEXT NOT NULL,
  period_end TEXT NOT NULL,
  issued_on TEXT NOT NULL,
  due_on TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'paid', 'void')),
  subtotal REAL NOT NULL,
  discount REAL NOT NULL,
  total REAL NOT NULL
);

CREATE TABLE invoice_lines (
  invoice_id TEXT NOT NULL REFERENCES invoices (invoice_id),
  line_no INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('seats', 'overage', 'discount')),
  description TEXT NOT NULL,
  quantity REAL NOT NULL,
  unit_price REAL NOT NULL,
  amount REAL NOT NULL,
  PRIMARY KEY (invoice_id, line_no)
);

CREATE TABLE payments (
  payment_id TEXT PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices (invoice_id),
  attempt_no INTEGER NOT NULL,
  attempted_on TEXT NOT NULL,
  amount REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed', 'scheduled')),
  failure_code TEXT
);

CREATE TABLE credit_notes (
  credit_note_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (customer_id),
  invoice_id TEXT NOT NULL REFERENCES invoices (invoice_id),
  amount REAL NOT NULL CHECK (amount > 0),
  reason TEXT NOT NULL,
  issued_on TEXT NOT NULL
);
`;
