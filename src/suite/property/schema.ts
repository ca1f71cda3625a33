/**
 * The property schema: a residential landlord's buildings and units, tenants and their leases, the rent
 * ledger (monthly rent charges, payments, late fees, deposit refunds), maintenance vendors and work orders,
 * and unit inspections with their line items.
 *
 * Rules the data alone does not carry (grace period and late-fee formula, rent-increase caps, the
 * maintenance SLA, what a deposit may be charged for, vendor rates) live in workspace documents, as they do
 * in a property manager's shared drive.
 */
export const propertySchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE buildings (
  building_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  street TEXT NOT NULL,
  city TEXT NOT NULL,
  year_built INTEGER NOT NULL,
  manager_name TEXT NOT NULL
);

CREATE TABLE units (
  unit_id TEXT PRIMARY KEY,
  building_id TEXT NOT NULL REFERENCES buildings (building_id),
  unit_number TEXT NOT NULL,
  bedrooms INTEGER NOT NULL,
  square_feet INTEGER NOT NULL,
  market_rent REAL NOT NULL,
  offline INTEGER NOT NULL DEFAULT 0 CHECK (offline IN (0, 1)),
  offline_reason TEXT
);

CREATE TABLE tenants (
  tenant_id TEXT PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  phone TEXT NOT NULL
);

CREATE TABLE leases (
  lease_id TEXT PRIMARY KEY,
  unit_id TEXT NOT NULL REFERENCES units (unit_id),
  tenant_id TEXT NOT NULL REFERENCES tenants (tenant_id),
  status TEXT NOT NULL CHECK (status IN ('signed', 'active', 'ended')),
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  move_out_date TEXT,
  monthly_rent REAL NOT NULL,
  security_deposit REAL NOT NULL,
  escalation_pct REAL NOT NULL
);
CREATE INDEX leases_unit ON leases (unit_id);

CREATE TABLE ledger_entries (
  entry_id INTEGER PRIMARY KEY,
  lease_id TEXT NOT NULL REFERENCES leases (lease_id),
  entry_date TEXT NOT NULL,
  period TEXT NOT NULL,
  entry_type TEXT NOT NULL CHECK (entry_type IN ('rent', 'payment', 'late_fee', 'deposit_refund')),
  amount REAL NOT NULL CHECK (amount >= 0),
  reference TEXT,
  memo TEXT
);
CREATE INDEX ledger_lease ON ledger_entries (lease_id, period);

CREATE TABLE vendors (
  vendor_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  trade TEXT NOT NULL,
  phone TEXT NOT NULL,
  email TEXT NOT NULL,
  insurance_expires TEXT NOT NULL,
  active INTEGER NOT NULL CHECK (active IN (0, 1))
);

CREATE TABLE work_orders (
  work_order_id TEXT PRIMARY KEY,
  unit_id TEXT NOT NULL REFERENCES units (unit_id),
  category TEXT NOT NULL,
  priority TEXT NOT NULL CHECK (priority IN ('emergency', 'urgent', 'routine')),
  status TEXT NOT NULL CHECK (status IN ('open', 'assigned', 'in_progress', 'on_hold', 'completed', 'cancelled')),
  vendor_id TEXT REFERENCES vendors (vendor_id),
  opened_on TEXT NOT NULL,
  completed_on TEXT,
  cost REAL,
  summary TEXT NOT NULL,
  escalated_on TEXT
);

CREATE TABLE inspections (
  inspection_id TEXT PRIMARY KEY,
  unit_id TEXT NOT NULL REFERENCES units (unit_id),
  lease_id TEXT REFERENCES leases (lease_id),
  inspection_type TEXT NOT NULL CHECK (inspection_type IN ('move_in', 'move_out', 'annual')),
  inspected_on TEXT NOT NULL,
  inspector TEXT NOT NULL
);

CREATE TABLE inspection_items (
  item_id INTEGER PRIMARY KEY,
  inspection_id TEXT NOT NULL REFERENCES inspections (inspection_id),
  area TEXT NOT NULL,
  finding TEXT NOT NULL,
  condition TEXT NOT NULL CHECK (condition IN ('good', 'normal_wear', 'damage', 'cleaning')),
  cost REAL NOT NULL
);
`;
