/**
 * The logistics schema: a regional distributor's warehouses, the products it stocks by lot, the suppliers
 * and purchase orders that replenish them, and the outbound shipments tendered to carriers.
 *
 * Stock lives only in `inventory_lots` (a warehouse's on-hand quantity of a SKU is the sum of its lots),
 * so that expiry, quarantine and cycle counts all work on the same rows a real WMS would hold.
 *
 * The 1 KiB page size keeps eight small tables from costing a 4 KiB page each, so that the file size
 * tracks the row counts (and the scale) instead of the number of tables.
 */
export const logisticsSchemaSql = `
PRAGMA page_size = 1024;
CREATE TABLE warehouses (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  region TEXT NOT NULL,
  manager_name TEXT NOT NULL,
  capacity_pallets INTEGER NOT NULL,
  opened_on TEXT NOT NULL
);

CREATE TABLE suppliers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  country TEXT NOT NULL,
  contact_name TEXT NOT NULL,
  contact_email TEXT NOT NULL,
  phone TEXT NOT NULL,
  payment_terms TEXT NOT NULL,
  lead_time_days INTEGER NOT NULL,
  rating REAL NOT NULL,
  active INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE carriers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  scac TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('parcel', 'ltl')),
  contact_email TEXT NOT NULL,
  phone TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE products (
  sku TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  category TEXT NOT NULL,
  unit_of_measure TEXT NOT NULL,
  case_pack INTEGER NOT NULL CHECK (case_pack > 0),
  unit_cost REAL NOT NULL,
  unit_price REAL NOT NULL,
  weight_kg REAL NOT NULL,
  shelf_life_days INTEGER,
  status TEXT NOT NULL CHECK (status IN ('active', 'discontinued')),
  created_on TEXT NOT NULL
);

CREATE TABLE inventory_lots (
  lot_id TEXT PRIMARY KEY,
  sku TEXT NOT NULL REFERENCES products (sku),
  warehouse_id TEXT NOT NULL REFERENCES warehouses (id),
  bin_location TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  received_on TEXT NOT NULL,
  expires_on TEXT,
  status TEXT NOT NULL CHECK (status IN ('available', 'quarantine'))
);
CREATE INDEX inventory_lots_warehouse_sku ON inventory_lots (warehouse_id, sku);
CREATE INDEX inventory_lots_expires_on ON inventory_lots (expires_on);

CREATE TABLE purchase_orders (
  id TEXT PRIMARY KEY,
  supplier_id TEXT NOT NULL REFERENCES suppliers (id),
  warehouse_id TEXT NOT NULL REFERENCES warehouses (id),
  status TEXT NOT NULL CHECK (status IN ('draft', 'submitted', 'received', 'cancelled')),
  ordered_on TEXT,
  expected_on TEXT,
  created_by TEXT NOT NULL,
  notes TEXT
);
CREATE INDEX purchase_orders_status ON purchase_orders (status);

CREATE TABLE purchase_order_lines (
  id INTEGER PRIMARY KEY,
  purchase_order_id TEXT NOT NULL REFERENCES purchase_orders (id),
  sku TEXT NOT NULL REFERENCES products (sku),
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_cost REAL NOT NULL
);
CREATE INDEX purchase_order_lines_order ON purchase_order_lines (purchase_order_id);

CREATE TABLE shipments (
  id TEXT PRIMARY KEY,
  origin_warehouse_id TEXT NOT NULL REFERENCES warehouses (id),
  customer_name TEXT NOT NULL,
  destination_city TEXT NOT NULL,
  destination_state TEXT NOT NULL,
  destination_region TEXT NOT NULL,
  weight_kg REAL NOT NULL,
  is_hazmat INTEGER NOT NULL DEFAULT 0,
  service_level TEXT NOT NULL CHECK (service_level IN ('standard', 'expedited')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'assigned', 'in_transit', 'delivered', 'cancelled')),
  carrier_id TEXT REFERENCES carriers (id),
  freight_cost REAL,
  created_on TEXT NOT NULL,
  ship_by TEXT NOT NULL
);
CREATE INDEX shipments_status ON shipments (status);
`;
