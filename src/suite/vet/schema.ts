/** The practice-management database. SOAP notes are stored as the clinicians typed them. */
export const vetSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE clinics (clinic_id TEXT PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, analyser TEXT NOT NULL);
CREATE TABLE vets (vet_id TEXT PRIMARY KEY, name TEXT NOT NULL, clinic_id TEXT NOT NULL REFERENCES clinics (clinic_id));
CREATE TABLE owners (owner_id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL);

CREATE TABLE patients (
  patient_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  owner_id TEXT NOT NULL REFERENCES owners (owner_id),
  clinic_id TEXT NOT NULL REFERENCES clinics (clinic_id),
  species TEXT NOT NULL CHECK (species IN ('dog', 'cat', 'rabbit')),
  breed TEXT NOT NULL,
  sex TEXT NOT NULL,
  birth_date TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'deceased', 'transferred'))
);

CREATE TABLE vaccinations (
  vaccination_id INTEGER PRIMARY KEY,
  patient_id TEXT NOT NULL REFERENCES patients (patient_id),
  vaccine TEXT NOT NULL,
  given_on TEXT NOT NULL,
  clinic_id TEXT NOT NULL,
  lot TEXT NOT NULL
);

CREATE TABLE appointments (
  appointment_id INTEGER PRIMARY KEY,
  patient_id TEXT NOT NULL REFERENCES patients (patient_id),
  clinic_id TEXT NOT NULL,
  starts_at TEXT NOT NULL,
  reason TEXT NOT NULL
);

CREATE TABLE visits (
  visit_id TEXT PRIMARY KEY,
  patient_id TEXT NOT NULL REFERENCES patients (patient_id),
  clinic_id TEXT NOT NULL,
  vet_id TEXT NOT NULL,
  visit_date TEXT NOT NULL,
  reason TEXT NOT NULL,
  soap_note TEXT NOT NULL
);

CREATE TABLE prescriptions (
  rx_id TEXT PRIMARY KEY,
  visit_id TEXT NOT NULL REFERENCES visits (visit_id),
  patient_id TEXT NOT NULL,
  drug TEXT NOT NULL,
  dose_mg REAL NOT NULL,
  frequency TEXT NOT NULL,
  prescribed_on TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'completed', 'on_hold')),
  hold_reason TEXT
);

CREATE TABLE lab_orders (
  lab_id TEXT PRIMARY KEY,
  patient_id TEXT NOT NULL REFERENCES patients (patient_id),
  clinic_id TEXT NOT NULL,
  panel TEXT NOT NULL,
  ordered_on TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'resulted'))
);

CREATE TABLE invoices (
  invoice_id TEXT PRIMARY KEY,
  visit_id TEXT NOT NULL REFERENCES visits (visit_id),
  owner_id TEXT NOT NULL,
  clinic_id TEXT NOT NULL,
  issued_on TEXT NOT NULL,
  total REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('issued', 'void'))
);

CREATE TABLE payments (
  payment_id INTEGER PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices (invoice_id),
  paid_on TEXT NOT NULL,
  amount REAL NOT NULL,
  method TEXT NOT NULL
);

CREATE TABLE reminders (
  reminder_id INTEGER PRIMARY KEY,
  patient_id TEXT NOT NULL REFERENCES patients (patient_id),
  kind TEXT NOT NULL CHECK (kind IN ('vaccine', 'lab_recheck', 'weight_check')),
  subject TEXT NOT NULL,
  due_on TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'sent', 'done')),
  created_on TEXT NOT NULL
);
`;
