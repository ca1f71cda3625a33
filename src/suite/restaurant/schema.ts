/**
 * The restaurant group's supply schema: locations, suppliers, the catalogue (pack sizes and base units),
 * par levels, purchase orders and the deliveries against them (short and substituted), recipes with their
 * portion yields, daily sales, waste logs and credit requests to suppliers.
 *
 * Stock on hand is not in the database: it lives in the weekly count workbooks (.xlsx) in the workspace,
 * and the rules (price agreements, purchasing, receiving, waste limits, menu cost targets) in documents.
 */
export const restaurantSchemaSql = `
PRAGMA page_size = 1024;
CREATE TABLE locations (
  location_id TEXT PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, manager TEXT NOT NULL
);
CREATE TABLE suppliers (
  supplier_id TEXT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, contact_email TEXT NOT NULL
);
CREATE TABLE items (
  item_id TEXT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL,
  supplier_id TEXT NOT NULL REFERENCES suppliers (supplier_id),
  base_unit TEXT NOT NULL CHECK (base_unit IN ('ea', 'kg', 'l')),
  pack_size REAL NOT NULL CHECK (pack_size > 0), case_price REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'discontinued'))
);
CREATE TABLE par_levels (
  location_id TEXT NOT NULL REFERENCES locations (location_id),
  item_id TEXT NOT NULL REFERENCES items (item_id), par REAL NOT NULL, PRIMARY KEY (location_id, item_id)
);
CREATE TABLE purchase_orders (
  po_id TEXT PRIMARY KEY, location_id TEXT NOT NULL REFERENCES locations (location_id),
  supplier_id TEXT NOT NULL REFERENCES suppliers (supplier_id),
  item_id TEXT NOT NULL REFERENCES items (item_id), cases INTEGER NOT NULL CHECK (cases > 0),
  case_price REAL NOT NULL, status TEXT NOT NULL CHECK (status IN ('open', 'delivered', 'cancelled')),
  ordered_on TEXT NOT NULL
);
CREATE INDEX purchase_orders_status ON purchase_orders (status, location_id);
CREATE TABLE deliveries (
  delivery_id TEXT PRIMARY KEY, po_id TEXT NOT NULL REFERENCES purchase_orders (po_id),
  location_id TEXT NOT NULL, supplier_id TEXT NOT NULL, item_id TEXT NOT NULL REFERENCES items (item_id),
  cases REAL NOT NULL, case_price REAL NOT NULL, delivered_on TEXT NOT NULL, note TEXT
);
CREATE INDEX deliveries_day ON deliveries (delivered_on);
CREATE TABLE recipes (
  recipe_id TEXT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, menu_price REAL NOT NULL,
  yield_portions INTEGER NOT NULL CHECK (yield_portions > 0)
);
CREATE TABLE recipe_lines (
  recipe_id TEXT NOT NULL REFERENCES recipes (recipe_id), line_no INTEGER NOT NULL,
  item_id TEXT NOT NULL REFERENCES items (item_id), quantity REAL NOT NULL,
  PRIMARY KEY (recipe_id, line_no)
);
CREATE TABLE sales (
  sale_id INTEGER PRIMARY KEY, location_id TEXT NOT NULL, recipe_id TEXT NOT NULL, sold_on TEXT NOT NULL,
  portions INTEGER NOT NULL
);
CREATE TABLE waste_logs (
  waste_id TEXT PRIMARY KEY, location_id TEXT NOT NULL, item_id TEXT NOT NULL, quantity REAL NOT NULL,
  reason TEXT NOT NULL, logged_on TEXT NOT NULL
);
CREATE TABLE credit_requests (
  credit_id INTEGER PRIMARY KEY, delivery_id TEXT NOT NULL REFERENCES deliveries (delivery_id),
  amount REAL NOT NULL, reason TEXT NOT NULL, requested_on TEXT NOT NULL
);
`;
