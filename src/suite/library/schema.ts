/**
 * The acquisitions department's records: vendors, funds and their ledger, bibliographic records (MARC text),
 * purchase orders and their lines, claims, vendor invoices (printout pages as the vendor sent them) and
 * patron purchase requests. Invoice lines exist only in the printouts; the rules live in workspace policies.
 */
export const librarySchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE vendors (
  vendor_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  san TEXT NOT NULL,
  discount_pct REAL NOT NULL,
  account_no TEXT NOT NULL
);

CREATE TABLE funds (
  fund_code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  fiscal_year TEXT NOT NULL,
  budget REAL NOT NULL
);

CREATE TABLE fund_transactions (
  txn_id INTEGER PRIMARY KEY,
  fund_code TEXT NOT NULL REFERENCES funds (fund_code),
  posted_on TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('encumber', 'release', 'expend', 'credit', 'transfer_in', 'transfer_out')),
  amount REAL NOT NULL,
  reference TEXT NOT NULL
);

CREATE TABLE bibs (
  bib_id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  created_on TEXT NOT NULL,
  marc TEXT NOT NULL
);

CREATE TABLE purchase_orders (
  po_id TEXT PRIMARY KEY,
  vendor_id TEXT NOT NULL REFERENCES vendors (vendor_id),
  order_type TEXT NOT NULL CHECK (order_type IN ('firm', 'standing')),
  ordered_on TEXT NOT NULL
);

CREATE TABLE order_lines (
  line_id TEXT PRIMARY KEY,
  po_id TEXT NOT NULL REFERENCES purchase_orders (po_id),
  bib_id TEXT NOT NULL REFERENCES bibs (bib_id),
  fund_code TEXT NOT NULL REFERENCES funds (fund_code),
  quantity INTEGER NOT NULL,
  list_price REAL NOT NULL,
  encumbered REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ordered', 'received', 'cancelled')),
  cancel_reason TEXT
);

CREATE TABLE claims (
  claim_id INTEGER PRIMARY KEY,
  line_id TEXT NOT NULL REFERENCES order_lines (line_id),
  claimed_on TEXT NOT NULL,
  note TEXT NOT NULL
);

CREATE TABLE invoices (
  invoice_id TEXT PRIMARY KEY,
  vendor_id TEXT NOT NULL REFERENCES vendors (vendor_id),
  vendor_invoice_no TEXT NOT NULL,
  invoice_date TEXT NOT NULL,
  total REAL NOT NULL,
  page_count INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'on_hold', 'paid')),
  hold_reason TEXT
);

CREATE TABLE invoice_pages (
  invoice_id TEXT NOT NULL REFERENCES invoices (invoice_id),
  page_no INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (invoice_id, page_no)
);

CREATE TABLE patron_requests (
  request_id TEXT PRIMARY KEY,
  patron_id TEXT NOT NULL,
  requested_on TEXT NOT NULL,
  title TEXT NOT NULL,
  author TEXT NOT NULL,
  isbn TEXT NOT NULL,
  format TEXT NOT NULL,
  pub_year INTEGER NOT NULL,
  list_price REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined')),
  decided_on TEXT,
  decision_note TEXT
);
`;
