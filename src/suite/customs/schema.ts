/**
 * The customs broker's records: importers of record, shipments awaiting or through clearance, the scanned
 * shipping documents (one row per OCR'd page), the tariff schedule with its preference rates, the entries
 * filed with customs, and holds.
 *
 * Invoice lines, packing quantities and certificates exist only as OCR text: the duty rules, de-minimis
 * threshold, currency rates and the broker's fees live in workspace documents.
 */
export const customsSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE importers (
  importer_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  city TEXT NOT NULL,
  bond_number TEXT NOT NULL,
  since TEXT NOT NULL
);

CREATE TABLE shipments (
  shipment_id TEXT PRIMARY KEY,
  importer_id TEXT NOT NULL REFERENCES importers (importer_id),
  origin_country TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('ocean', 'air', 'truck')),
  port_of_entry TEXT NOT NULL,
  arrival_date TEXT NOT NULL,
  invoice_currency TEXT NOT NULL,
  declared_value REAL NOT NULL,
  preference_claimed TEXT,
  status TEXT NOT NULL CHECK (status IN ('arrived', 'entered', 'released')),
  status_note TEXT
);

CREATE TABLE documents (
  doc_id TEXT PRIMARY KEY,
  shipment_id TEXT NOT NULL REFERENCES shipments (shipment_id),
  doc_type TEXT NOT NULL CHECK (doc_type IN ('commercial_invoice', 'packing_list', 'bill_of_lading', 'certificate_of_origin')),
  page_count INTEGER NOT NULL,
  received_on TEXT NOT NULL
);

CREATE TABLE document_pages (
  doc_id TEXT NOT NULL REFERENCES documents (doc_id),
  page_no INTEGER NOT NULL,
  ocr_text TEXT NOT NULL,
  PRIMARY KEY (doc_id, page_no)
);

CREATE TABLE tariff_lines (
  hs_code TEXT PRIMARY KEY,
  chapter TEXT NOT NULL,
  description TEXT NOT NULL,
  unit TEXT NOT NULL,
  general_rate_pct REAL NOT NULL
);

CREATE TABLE special_rates (
  hs_code TEXT NOT NULL REFERENCES tariff_lines (hs_code),
  program TEXT NOT NULL,
  rate_pct REAL NOT NULL,
  PRIMARY KEY (hs_code, program)
);

CREATE TABLE entries (
  entry_id TEXT PRIMARY KEY,
  shipment_id TEXT NOT NULL REFERENCES shipments (shipment_id),
  importer_id TEXT NOT NULL REFERENCES importers (importer_id),
  filed_on TEXT NOT NULL,
  entered_value_usd REAL NOT NULL,
  duty_usd REAL NOT NULL,
  program TEXT,
  line_count INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('filed', 'liquidated'))
);

CREATE TABLE holds (
  hold_id TEXT PRIMARY KEY,
  shipment_id TEXT NOT NULL REFERENCES shipments (shipment_id),
  hold_type TEXT NOT NULL CHECK (hold_type IN ('documents', 'exam', 'valuation')),
  reason TEXT NOT NULL,
  placed_on TEXT NOT NULL,
  released_on TEXT,
  release_note TEXT
);
`;
