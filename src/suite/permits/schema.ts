/**
 * The permits schema: a city's building-permit register (permits, their inspections and fees), the
 * contractor license roll, the inspector staff, fee waivers and stop-work orders. The portal's pages are
 * rendered from these tables; the rules (fee schedule, inspection policy, who may approve a waiver) live in
 * workspace documents.
 */
export const permitsSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE contractors (
  license_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  trade TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'expired')),
  license_expires TEXT NOT NULL,
  insurance_expires TEXT NOT NULL,
  phone TEXT NOT NULL
);

CREATE TABLE inspectors (
  name TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  district TEXT NOT NULL
);

CREATE TABLE permits (
  permit_id TEXT PRIMARY KEY,
  permit_type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('applied', 'issued', 'finaled', 'expired', 'stop_work')),
  address TEXT NOT NULL,
  district TEXT NOT NULL,
  applicant TEXT NOT NULL,
  contractor_id TEXT NOT NULL REFERENCES contractors (license_id),
  valuation REAL NOT NULL,
  description TEXT NOT NULL,
  applied_on TEXT NOT NULL,
  issued_on TEXT,
  expires_on TEXT
);
CREATE INDEX permits_contractor ON permits (contractor_id);

CREATE TABLE inspections (
  inspection_id TEXT PRIMARY KEY,
  permit_id TEXT NOT NULL REFERENCES permits (permit_id),
  inspection_type TEXT NOT NULL,
  scheduled_for TEXT NOT NULL,
  inspector TEXT NOT NULL REFERENCES inspectors (name),
  result TEXT NOT NULL CHECK (result IN ('scheduled', 'pass', 'fail', 'cancelled')),
  notes TEXT NOT NULL
);
CREATE INDEX inspections_permit ON inspections (permit_id);

CREATE TABLE fees (
  fee_id INTEGER PRIMARY KEY,
  permit_id TEXT NOT NULL REFERENCES permits (permit_id),
  fee_code TEXT NOT NULL,
  description TEXT NOT NULL,
  amount REAL NOT NULL CHECK (amount >= 0),
  assessed_on TEXT NOT NULL,
  paid_on TEXT
);
CREATE INDEX fees_permit ON fees (permit_id);

CREATE TABLE fee_waivers (
  waiver_id INTEGER PRIMARY KEY,
  fee_id INTEGER NOT NULL REFERENCES fees (fee_id),
  permit_id TEXT NOT NULL REFERENCES permits (permit_id),
  amount REAL NOT NULL CHECK (amount > 0),
  reason TEXT NOT NULL,
  recorded_on TEXT NOT NULL
);

CREATE TABLE stop_work_orders (
  order_id INTEGER PRIMARY KEY,
  permit_id TEXT NOT NULL REFERENCES permits (permit_id),
  reason_code TEXT NOT NULL,
  notes TEXT NOT NULL,
  issued_on TEXT NOT NULL
);
`;
