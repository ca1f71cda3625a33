/**
 * The quality schema: a contract machine shop's parts and their inspection plans, raw-material lots from
 * bar-stock suppliers, production lots, the measurements taken on samples, gauges, non-conformance reports
 * (NCRs) and corrective actions (CAPA).
 *
 * The rules that give the data meaning live in workspace documents, not here: sample sizes (the sampling
 * plan), disposition and CAPA deadlines (the quality manual), calibration intervals and the calibration
 * history (the calibration SOP and its export), supplier deviations (memos).
 */
export const qualitySchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE suppliers (
  supplier_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  country TEXT NOT NULL,
  material TEXT NOT NULL,
  approved_since TEXT NOT NULL
);

CREATE TABLE material_lots (
  material_lot_id TEXT PRIMARY KEY,
  supplier_id TEXT NOT NULL REFERENCES suppliers (supplier_id),
  material TEXT NOT NULL,
  heat_number TEXT NOT NULL,
  received_on TEXT NOT NULL,
  bars INTEGER NOT NULL
);

CREATE TABLE products (
  part_number TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  revision TEXT NOT NULL,
  material TEXT NOT NULL,
  customer TEXT NOT NULL
);

CREATE TABLE characteristics (
  char_id TEXT PRIMARY KEY,
  part_number TEXT NOT NULL REFERENCES products (part_number),
  name TEXT NOT NULL,
  feature TEXT NOT NULL CHECK (feature IN ('external', 'internal')),
  nominal REAL NOT NULL,
  lower_limit REAL NOT NULL,
  upper_limit REAL NOT NULL,
  unit TEXT NOT NULL,
  gauge_type TEXT NOT NULL,
  critical INTEGER NOT NULL CHECK (critical IN (0, 1))
);

CREATE TABLE production_lots (
  lot_id TEXT PRIMARY KEY,
  part_number TEXT NOT NULL REFERENCES products (part_number),
  material_lot_id TEXT NOT NULL REFERENCES material_lots (material_lot_id),
  lot_type TEXT NOT NULL CHECK (lot_type IN ('production', 'rework')),
  line TEXT NOT NULL,
  shift TEXT NOT NULL CHECK (shift IN ('A', 'B', 'C')),
  quantity INTEGER NOT NULL,
  first_pass_rejects INTEGER NOT NULL,
  start_date TEXT NOT NULL,
  end_date TEXT,
  status TEXT NOT NULL CHECK (status IN ('in_process', 'released', 'shipped', 'on_hold')),
  hold_reason TEXT
);

CREATE TABLE gauges (
  gauge_id TEXT PRIMARY KEY,
  gauge_type TEXT NOT NULL,
  description TEXT NOT NULL,
  location TEXT NOT NULL,
  last_calibrated TEXT NOT NULL
);

CREATE TABLE measurements (
  measurement_id INTEGER PRIMARY KEY,
  lot_id TEXT NOT NULL REFERENCES production_lots (lot_id),
  char_id TEXT NOT NULL REFERENCES characteristics (char_id),
  sample_no INTEGER NOT NULL,
  value REAL NOT NULL,
  gauge_id TEXT NOT NULL REFERENCES gauges (gauge_id),
  measured_on TEXT NOT NULL,
  inspector TEXT NOT NULL,
  valid INTEGER NOT NULL DEFAULT 1 CHECK (valid IN (0, 1)),
  invalid_reason TEXT
);
CREATE INDEX measurements_lot ON measurements (lot_id);

CREATE TABLE capas (
  capa_id TEXT PRIMARY KEY,
  opened_on TEXT NOT NULL,
  owner TEXT NOT NULL,
  root_cause TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'implemented', 'closed')),
  closed_on TEXT
);

CREATE TABLE ncrs (
  ncr_id TEXT PRIMARY KEY,
  lot_id TEXT NOT NULL REFERENCES production_lots (lot_id),
  opened_on TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('critical', 'major', 'minor')),
  defect_code TEXT NOT NULL,
  char_id TEXT REFERENCES characteristics (char_id),
  measured_value REAL,
  quantity_affected INTEGER NOT NULL,
  description TEXT NOT NULL,
  disposition TEXT CHECK (disposition IN ('rework', 'scrap', 'use_as_is', 'return_to_supplier')),
  status TEXT NOT NULL CHECK (status IN ('open', 'dispositioned', 'closed')),
  capa_id TEXT REFERENCES capas (capa_id)
);
`;
