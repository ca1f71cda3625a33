/**
 * The payables schema: the accounts payable ledger of a mid-size distributor. Vendors and their payment
 * terms, purchase orders and their lines, goods receipts against PO lines, vendor invoices with their lines
 * and approval history, and the payments that settle them.
 *
 * What the ledger does not hold lives in workspace documents: match tolerances, approval thresholds and
 * discount rules (the AP policy), negotiated terms and prices (vendor contracts and amendments), payment
 * holds (treasury memos) and what the bank actually paid (remittance exports).
 */
export const payablesSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE payment_terms (
  terms_code TEXT PRIMARY KEY,
  description TEXT NOT NULL,
  discount_percent REAL NOT NULL,
  discount_days INTEGER NOT NULL,
  net_days INTEGER NOT NULL
);

CREATE TABLE vendors (
  vendor_id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  category TEXT NOT NULL CHECK (category IN ('inventory', 'packaging', 'freight', 'facilities', 'it_services')),
  terms_code TEXT NOT NULL REFERENCES payment_terms (terms_code),
  status TEXT NOT NULL CHECK (status IN ('active', 'inactive')),
  remit_email TEXT NOT NULL,
  tax_id TEXT NOT NULL,
  since TEXT NOT NULL
);

CREATE TABLE purchase_orders (
  po_id TEXT PRIMARY KEY,
  vendor_id TEXT NOT NULL REFERENCES vendors (vendor_id),
  ordered_on TEXT NOT NULL,
  buyer TEXT NOT NULL,
  warehouse TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed', 'cancelled'))
);

CREATE TABLE po_lines (
  id INTEGER PRIMARY KEY,
  po_id TEXT NOT NULL REFERENCES purchase_orders (po_id),
  line_no INTEGER NOT NULL,
  sku TEXT NOT NULL,
  description TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_price REAL NOT NULL CHECK (unit_price > 0),
  UNIQUE (po_id, line_no)
);

CREATE TABLE receipts (
  receipt_id TEXT PRIMARY KEY,
  po_id TEXT NOT NULL REFERENCES purchase_orders (po_id),
  line_no INTEGER NOT NULL,
  received_on TEXT NOT NULL,
  quantity_received INTEGER NOT NULL CHECK (quantity_received > 0)
);
CREATE INDEX receipts_po ON receipts (po_id, line_no);

CREATE TABLE invoices (
  invoice_id TEXT PRIMARY KEY,
  vendor_id TEXT NOT NULL REFERENCES vendors (vendor_id),
  vendor_invoice_no TEXT NOT NULL,
  po_id TEXT NOT NULL REFERENCES purchase_orders (po_id),
  invoice_date TEXT NOT NULL,
  entered_on TEXT NOT NULL,
  terms_code TEXT NOT NULL REFERENCES payment_terms (terms_code),
  subtotal REAL NOT NULL,
  freight REAL NOT NULL,
  total REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending_approval', 'approved', 'on_hold', 'paid', 'void')),
  hold_reason TEXT
);
CREATE INDEX invoices_vendor ON invoices (vendor_id);

CREATE TABLE invoice_lines (
  id INTEGER PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices (invoice_id),
  line_no INTEGER NOT NULL,
  line_type TEXT NOT NULL CHECK (line_type IN ('merchandise', 'freight')),
  po_line_no INTEGER,
  sku TEXT,
  quantity INTEGER NOT NULL,
  unit_price REAL NOT NULL,
  amount REAL NOT NULL,
  UNIQUE (invoice_id, line_no)
);

CREATE TABLE invoice_approvals (
  id INTEGER PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices (invoice_id),
  level INTEGER NOT NULL CHECK (level IN (1, 2)),
  approver TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('ap_clerk', 'controller', 'cfo')),
  approved_on TEXT NOT NULL
);
CREATE INDEX approvals_invoice ON invoice_approvals (invoice_id);

CREATE TABLE payments (
  payment_id TEXT PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices (invoice_id),
  vendor_id TEXT NOT NULL REFERENCES vendors (vendor_id),
  paid_on TEXT NOT NULL,
  amount REAL NOT NULL CHECK (amount > 0),
  discount_taken REAL NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('ach', 'check', 'wire')),
  reference TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('issued', 'cleared', 'void'))
);
CREATE INDEX payments_paid_on ON payments (paid_on);
`;
