/**
 * The pharmacy schema: a hospital pharmacy's drug catalog and formulary, lots with their expiry dates,
 * stock by location (the central pharmacy and the automated dispensing cabinets on the wards), wholesaler
 * purchase orders and returns, medication orders and the dispenses that filled them, cabinet refill
 * requests and controlled-substance count discrepancies.
 *
 * Rules the data does not carry (par levels, reorder points, the substitution decisions, count
 * discrepancy thresholds, recall instructions, the returns window) live in workspace documents.
 */
export const pharmacySchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE drugs (
  drug_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  generic_name TEXT NOT NULL,
  strength TEXT NOT NULL,
  form TEXT NOT NULL,
  therapeutic_class TEXT NOT NULL,
  schedule TEXT CHECK (schedule IN ('II', 'III', 'IV', 'V')),
  formulary_status TEXT NOT NULL CHECK (formulary_status IN ('formulary', 'non_formulary')),
  ndc TEXT NOT NULL,
  manufacturer TEXT NOT NULL,
  pack_size INTEGER NOT NULL CHECK (pack_size > 0),
  pack_cost REAL NOT NULL
);

CREATE TABLE locations (
  location_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('pharmacy', 'cabinet')),
  nursing_unit TEXT
);

CREATE TABLE lots (
  lot_id TEXT PRIMARY KEY,
  drug_id TEXT NOT NULL REFERENCES drugs (drug_id),
  lot_number TEXT NOT NULL,
  expiry_date TEXT NOT NULL,
  received_on TEXT NOT NULL
);
CREATE INDEX lots_drug ON lots (drug_id);

CREATE TABLE inventory (
  stock_id TEXT PRIMARY KEY,
  location_id TEXT NOT NULL REFERENCES locations (location_id),
  lot_id TEXT NOT NULL REFERENCES lots (lot_id),
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  status TEXT NOT NULL CHECK (status IN ('available', 'quarantined')),
  quarantine_reason TEXT,
  UNIQUE (location_id, lot_id)
);

CREATE TABLE purchase_orders (
  po_id TEXT PRIMARY KEY,
  wholesaler TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'received', 'cancelled')),
  created_on TEXT NOT NULL,
  drug_id TEXT NOT NULL REFERENCES drugs (drug_id),
  packs INTEGER NOT NULL CHECK (packs > 0),
  pack_size INTEGER NOT NULL
);

CREATE TABLE returns (
  return_id INTEGER PRIMARY KEY,
  stock_id TEXT NOT NULL REFERENCES inventory (stock_id),
  lot_id TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  reason TEXT NOT NULL,
  created_on TEXT NOT NULL
);

CREATE TABLE patients (
  mrn TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  nursing_unit TEXT NOT NULL,
  admitted_on TEXT NOT NULL
);

CREATE TABLE medication_orders (
  order_id TEXT PRIMARY KEY,
  mrn TEXT NOT NULL REFERENCES patients (mrn),
  drug_id TEXT NOT NULL REFERENCES drugs (drug_id),
  dose REAL NOT NULL,
  dose_unit TEXT NOT NULL,
  frequency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'discontinued', 'completed')),
  dispense_as_written INTEGER NOT NULL CHECK (dispense_as_written IN (0, 1)),
  prescriber TEXT NOT NULL,
  ordered_at TEXT NOT NULL,
  verified_at TEXT,
  substituted_from TEXT
);
CREATE INDEX orders_drug ON medication_orders (drug_id);

CREATE TABLE dispenses (
  dispense_id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES medication_orders (order_id),
  mrn TEXT NOT NULL,
  location_id TEXT NOT NULL REFERENCES locations (location_id),
  lot_id TEXT NOT NULL REFERENCES lots (lot_id),
  quantity INTEGER NOT NULL,
  dispensed_at TEXT NOT NULL,
  nurse TEXT NOT NULL,
  override INTEGER NOT NULL CHECK (override IN (0, 1))
);
CREATE INDEX dispenses_lot ON dispenses (lot_id);

CREATE TABLE refill_requests (
  request_id INTEGER PRIMARY KEY,
  location_id TEXT NOT NULL,
  drug_id TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  requested_on TEXT NOT NULL
);

CREATE TABLE discrepancies (
  discrepancy_id INTEGER PRIMARY KEY,
  location_id TEXT NOT NULL,
  drug_id TEXT NOT NULL,
  count_date TEXT NOT NULL,
  system_quantity INTEGER NOT NULL,
  counted_quantity INTEGER NOT NULL,
  difference INTEGER NOT NULL,
  reported_on TEXT NOT NULL
);
`;
