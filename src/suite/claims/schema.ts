/**
 * The claims schema: a regional property and auto insurer's policyholders, their policies and endorsements,
 * the claims reported against them with payments and notes, and the field adjusters who handle them.
 *
 * An adjuster's caseload is never stored: it is the count of open claims assigned to them, so that it can
 * never disagree with the claims. The 1 KiB page size keeps the file size tracking the row counts.
 */
export const claimsSchemaSql = `
PRAGMA page_size = 1024;
CREATE TABLE policyholders (
  policyholder_id TEXT PRIMARY KEY,
  full_name TEXT NOT NULL,
  email TEXT NOT NULL,
  phone TEXT NOT NULL,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  customer_since TEXT NOT NULL
);

CREATE TABLE policies (
  policy_id TEXT PRIMARY KEY,
  policyholder_id TEXT NOT NULL REFERENCES policyholders (policyholder_id),
  line TEXT NOT NULL CHECK (line IN ('home', 'auto')),
  coverage_type TEXT NOT NULL,
  coverage_limit REAL NOT NULL,
  deductible REAL NOT NULL,
  effective_date TEXT NOT NULL,
  expiration_date TEXT NOT NULL,
  state TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'expired', 'cancelled'))
);
CREATE INDEX policies_holder ON policies (policyholder_id);

CREATE TABLE endorsements (
  endorsement_id TEXT PRIMARY KEY,
  policy_id TEXT NOT NULL REFERENCES policies (policy_id),
  code TEXT NOT NULL,
  description TEXT NOT NULL,
  added_on TEXT NOT NULL
);
CREATE INDEX endorsements_policy ON endorsements (policy_id);

CREATE TABLE adjusters (
  adjuster_id TEXT PRIMARY KEY,
  full_name TEXT NOT NULL,
  email TEXT NOT NULL,
  region TEXT NOT NULL,
  licensed_states TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'inactive')),
  hired_on TEXT NOT NULL
);

CREATE TABLE claims (
  claim_id TEXT PRIMARY KEY,
  policy_id TEXT NOT NULL REFERENCES policies (policy_id),
  adjuster_id TEXT REFERENCES adjusters (adjuster_id),
  loss_date TEXT NOT NULL,
  reported_date TEXT NOT NULL,
  cause_of_loss TEXT NOT NULL,
  loss_zip TEXT NOT NULL,
  loss_state TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed', 'denied')),
  reserve REAL NOT NULL,
  cat_code TEXT,
  siu_referral INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX claims_policy ON claims (policy_id);
CREATE INDEX claims_adjuster ON claims (adjuster_id, status);

CREATE TABLE claim_payments (
  payment_id TEXT PRIMARY KEY,
  claim_id TEXT NOT NULL REFERENCES claims (claim_id),
  paid_on TEXT NOT NULL,
  amount REAL NOT NULL,
  payee TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('issued', 'voided'))
);
CREATE INDEX claim_payments_claim ON claim_payments (claim_id);

CREATE TABLE claim_notes (
  note_id INTEGER PRIMARY KEY,
  claim_id TEXT NOT NULL REFERENCES claims (claim_id),
  author TEXT NOT NULL,
  written_on TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX claim_notes_claim ON claim_notes (claim_id);
`;
