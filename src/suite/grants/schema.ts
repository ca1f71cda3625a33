/**
 * The grants office's records: sponsors, awards with their budget lines, the people committed to them, the
 * general ledger, subawards and their payments, and the scanned document register (one row per OCR'd page).
 * What the scans say (notice budgets, invoice totals, certified effort, extension requests) is only in the OCR
 * text; the sponsors' terms and the office's rules are workspace documents.
 */
export const grantsSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE sponsors (sponsor_id TEXT PRIMARY KEY, name TEXT NOT NULL, sponsor_type TEXT NOT NULL,
  terms_document TEXT NOT NULL);

CREATE TABLE awards (
  award_id TEXT PRIMARY KEY, sponsor_id TEXT NOT NULL REFERENCES sponsors (sponsor_id),
  sponsor_award_no TEXT NOT NULL, title TEXT NOT NULL, pi_id TEXT NOT NULL, department TEXT NOT NULL,
  start_date TEXT NOT NULL, end_date TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'closed')), extensions INTEGER NOT NULL
);

CREATE TABLE budget_lines (award_id TEXT NOT NULL REFERENCES awards (award_id), category TEXT NOT NULL,
  amount REAL NOT NULL, PRIMARY KEY (award_id, category));

CREATE TABLE personnel (person_id TEXT PRIMARY KEY, name TEXT NOT NULL, department TEXT NOT NULL,
  appointment TEXT NOT NULL, email TEXT NOT NULL);

CREATE TABLE commitments (
  award_id TEXT NOT NULL REFERENCES awards (award_id), person_id TEXT NOT NULL REFERENCES personnel (person_id),
  role TEXT NOT NULL CHECK (role IN ('PI', 'co-I', 'key', 'other')), committed_pct REAL NOT NULL,
  PRIMARY KEY (award_id, person_id)
) WITHOUT ROWID;

CREATE TABLE subawards (subaward_id TEXT PRIMARY KEY, award_id TEXT NOT NULL REFERENCES awards (award_id),
  subrecipient TEXT NOT NULL, obligated REAL NOT NULL, start_date TEXT NOT NULL, end_date TEXT NOT NULL);

CREATE TABLE subaward_payments (payment_id INTEGER PRIMARY KEY,
  subaward_id TEXT NOT NULL REFERENCES subawards (subaward_id), invoice_no TEXT NOT NULL,
  amount REAL NOT NULL, paid_on TEXT NOT NULL);

CREATE TABLE transactions (
  txn_id TEXT PRIMARY KEY, award_id TEXT NOT NULL REFERENCES awards (award_id), posted_on TEXT NOT NULL,
  object_code TEXT NOT NULL, category TEXT NOT NULL, description TEXT NOT NULL, amount REAL NOT NULL,
  subaward_id TEXT, status TEXT NOT NULL DEFAULT 'posted' CHECK (status IN ('posted', 'transferred'))
) WITHOUT ROWID;

CREATE TABLE documents (doc_id TEXT PRIMARY KEY, doc_type TEXT NOT NULL, award_id TEXT, title TEXT NOT NULL,
  page_count INTEGER NOT NULL, received_on TEXT NOT NULL, status TEXT NOT NULL);

CREATE TABLE document_pages (doc_id TEXT NOT NULL REFERENCES documents (doc_id), page_no INTEGER NOT NULL,
  ocr_text TEXT NOT NULL, PRIMARY KEY (doc_id, page_no));

CREATE TABLE idc_postings (posting_id INTEGER PRIMARY KEY, award_id TEXT NOT NULL REFERENCES awards (award_id),
  month TEXT NOT NULL, amount REAL NOT NULL, posted_on TEXT NOT NULL);

CREATE TABLE cost_transfers (transfer_id INTEGER PRIMARY KEY,
  txn_id TEXT NOT NULL REFERENCES transactions (txn_id), amount REAL NOT NULL, reason TEXT NOT NULL,
  transferred_on TEXT NOT NULL);

CREATE TABLE award_actions (action_id INTEGER PRIMARY KEY, award_id TEXT NOT NULL REFERENCES awards (award_id),
  action TEXT NOT NULL, detail TEXT NOT NULL, acted_on TEXT NOT NULL);
`;
