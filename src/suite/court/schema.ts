/** The clerk's case management database. Filings keep their scanned images' OCR text. */
export const courtSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE courtrooms (courtroom_id TEXT PRIMARY KEY, name TEXT NOT NULL, division TEXT NOT NULL, judge TEXT NOT NULL);
CREATE TABLE attorneys (attorney_id TEXT PRIMARY KEY, name TEXT NOT NULL, bar_number TEXT NOT NULL, firm TEXT NOT NULL);

CREATE TABLE cases (
  case_id TEXT PRIMARY KEY,
  division TEXT NOT NULL CHECK (division IN ('civil', 'small_claims')),
  title TEXT NOT NULL,
  filed_on TEXT NOT NULL,
  amount_demanded REAL NOT NULL,
  courtroom_id TEXT NOT NULL REFERENCES courtrooms (courtroom_id),
  status TEXT NOT NULL CHECK (status IN ('open', 'default_entered', 'judgment', 'dismissed'))
);

CREATE TABLE parties (
  party_id TEXT PRIMARY KEY,
  case_id TEXT NOT NULL REFERENCES cases (case_id),
  role TEXT NOT NULL CHECK (role IN ('plaintiff', 'defendant')),
  name TEXT NOT NULL,
  attorney_id TEXT REFERENCES attorneys (attorney_id)
);

CREATE TABLE filings (
  filing_id TEXT PRIMARY KEY,
  case_id TEXT NOT NULL REFERENCES cases (case_id),
  party_id TEXT NOT NULL REFERENCES parties (party_id),
  filing_type TEXT NOT NULL,
  title TEXT NOT NULL,
  filed_on TEXT NOT NULL,
  scan_text TEXT NOT NULL
);

CREATE TABLE docket_entries (
  entry_id INTEGER PRIMARY KEY,
  case_id TEXT NOT NULL REFERENCES cases (case_id),
  entry_date TEXT NOT NULL,
  entry_type TEXT NOT NULL,
  party_id TEXT,
  filing_id TEXT,
  description TEXT NOT NULL
);

CREATE TABLE hearings (
  hearing_id INTEGER PRIMARY KEY,
  case_id TEXT NOT NULL REFERENCES cases (case_id),
  courtroom_id TEXT NOT NULL,
  hearing_date TEXT NOT NULL,
  hearing_time TEXT NOT NULL,
  hearing_type TEXT NOT NULL,
  filing_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('set', 'held', 'vacated'))
);
`;
