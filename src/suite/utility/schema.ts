/**
 * The utility's field-service system: feeders, customers and their meters (electric on a feeder, water on
 * none), the meter-read history (actual and estimated), field crews and their trucks' stock, and work orders.
 *
 * Rules (read policy, work-order SLA, dispatch roster, outage reporting, truck stock levels) are workspace
 * documents; so are the SCADA alarm journal exports and the technicians' handheld note dumps.
 */
export const utilitySchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE feeders (
  feeder_id TEXT PRIMARY KEY,
  substation TEXT NOT NULL,
  voltage_kv REAL NOT NULL
);

CREATE TABLE customers (
  customer_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  phone TEXT NOT NULL,
  customer_class TEXT NOT NULL CHECK (customer_class IN ('residential', 'commercial')),
  critical_care INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE meters (
  meter_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (customer_id),
  utility TEXT NOT NULL CHECK (utility IN ('electric', 'water')),
  feeder_id TEXT REFERENCES feeders (feeder_id),
  address TEXT NOT NULL,
  installed_on TEXT NOT NULL
);

CREATE TABLE meter_reads (
  read_id INTEGER PRIMARY KEY,
  meter_id TEXT NOT NULL REFERENCES meters (meter_id),
  read_date TEXT NOT NULL,
  reading INTEGER NOT NULL,
  read_type TEXT NOT NULL CHECK (read_type IN ('actual', 'estimated')),
  source TEXT NOT NULL
);

CREATE TABLE crews (
  crew_id TEXT PRIMARY KEY,
  lead TEXT NOT NULL,
  skill TEXT NOT NULL CHECK (skill IN ('electric', 'water')),
  depot TEXT NOT NULL
);

CREATE TABLE parts (
  sku TEXT PRIMARY KEY,
  description TEXT NOT NULL,
  skill TEXT NOT NULL
);

CREATE TABLE truck_stock (
  crew_id TEXT NOT NULL REFERENCES crews (crew_id),
  sku TEXT NOT NULL REFERENCES parts (sku),
  quantity INTEGER NOT NULL,
  PRIMARY KEY (crew_id, sku)
);

CREATE TABLE work_orders (
  work_order_id TEXT PRIMARY KEY,
  meter_id TEXT NOT NULL REFERENCES meters (meter_id),
  utility TEXT NOT NULL,
  kind TEXT NOT NULL,
  priority TEXT NOT NULL CHECK (priority IN ('P1', 'P2', 'P3', 'P4')),
  status TEXT NOT NULL CHECK (status IN ('open', 'dispatched', 'completed')),
  created_at TEXT NOT NULL,
  crew_id TEXT REFERENCES crews (crew_id),
  dispatched_at TEXT,
  completed_at TEXT,
  hold_minutes INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL
);
CREATE INDEX work_orders_status ON work_orders (status, priority);
`;
