/**
 * The clinic schema: a multi-specialty outpatient clinic's providers, rooms, patients and their insurance
 * plans, the appointment book, and the billing ledger (charges per visit, patient payments).
 *
 * Scheduling rules (visit lengths, room requirements, clinic days, leave) and billing rules (coverage,
 * discounts, thresholds) deliberately live in workspace documents, not here: the appointment book stores
 * only the start time and the visit type, as practice-management systems with templated slots do.
 * `insurance_eligibility` is what the payers' eligibility service answers (coverage dates per member); it
 * is read only through `check_eligibility`.
 */
export const clinicSchemaSql = `
CREATE TABLE specialties (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  department_phone TEXT NOT NULL
);

CREATE TABLE providers (
  id INTEGER PRIMARY KEY,
  npi TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  credential TEXT NOT NULL CHECK (credential IN ('MD', 'DO', 'NP', 'PA')),
  specialty_id INTEGER NOT NULL REFERENCES specialties (id),
  email TEXT NOT NULL,
  hired_on TEXT NOT NULL
);

CREATE TABLE rooms (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL,
  room_type TEXT NOT NULL CHECK (room_type IN ('exam', 'procedure', 'imaging')),
  floor INTEGER NOT NULL,
  equipment TEXT NOT NULL
);

CREATE TABLE insurance_plans (
  id INTEGER PRIMARY KEY,
  plan_code TEXT NOT NULL,
  payer_name TEXT NOT NULL,
  plan_name TEXT NOT NULL,
  plan_type TEXT NOT NULL CHECK (plan_type IN ('commercial', 'medicare', 'medicaid')),
  payer_phone TEXT NOT NULL
);

CREATE TABLE patients (
  id INTEGER PRIMARY KEY,
  mrn TEXT NOT NULL UNIQUE,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,
  sex TEXT NOT NULL CHECK (sex IN ('F', 'M', 'X')),
  phone TEXT NOT NULL,
  email TEXT,
  city TEXT NOT NULL,
  insurance_plan_id INTEGER REFERENCES insurance_plans (id),
  member_id TEXT,
  scheduling_status TEXT NOT NULL DEFAULT 'standard'
    CHECK (scheduling_status IN ('standard', 'prepay_required', 'restricted')),
  status_reason TEXT,
  registered_on TEXT NOT NULL
);

CREATE TABLE appointments (
  id INTEGER PRIMARY KEY,
  patient_id INTEGER NOT NULL REFERENCES patients (id),
  provider_id INTEGER NOT NULL REFERENCES providers (id),
  room_id INTEGER REFERENCES rooms (id),
  visit_type TEXT NOT NULL,
  start_time TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('scheduled', 'completed', 'no_show', 'cancelled')),
  reason TEXT NOT NULL,
  cancel_reason TEXT
);
CREATE INDEX appointments_provider_time ON appointments (provider_id, start_time);

CREATE TABLE charges (
  id INTEGER PRIMARY KEY,
  appointment_id INTEGER NOT NULL REFERENCES appointments (id),
  patient_id INTEGER NOT NULL REFERENCES patients (id),
  service_date TEXT NOT NULL,
  code TEXT NOT NULL,
  description TEXT NOT NULL,
  category TEXT NOT NULL CHECK (category IN ('office_visit', 'procedure', 'imaging', 'lab', 'admin_fee')),
  amount REAL NOT NULL CHECK (amount > 0),
  claim_status TEXT NOT NULL CHECK (claim_status IN ('pending', 'adjudicated', 'patient_only'))
);

CREATE TABLE payments (
  id INTEGER PRIMARY KEY,
  patient_id INTEGER NOT NULL REFERENCES patients (id),
  received_on TEXT NOT NULL,
  amount REAL NOT NULL CHECK (amount > 0),
  method TEXT NOT NULL CHECK (method IN ('card', 'cash', 'check', 'online')),
  status TEXT NOT NULL CHECK (status IN ('posted', 'reversed')),
  reference TEXT NOT NULL
);

CREATE TABLE insurance_eligibility (
  patient_id INTEGER PRIMARY KEY REFERENCES patients (id),
  plan_code TEXT NOT NULL,
  member_id TEXT NOT NULL,
  coverage_start TEXT NOT NULL,
  coverage_end TEXT
);
`;
