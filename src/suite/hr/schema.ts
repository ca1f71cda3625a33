/**
 * The HR and payroll database: organisation, people, time, leave and pay. The big tables are keyed by integer ids
 * (rowid aliases) so that no second b-tree per table is needed.
 *
 * 1 KB pages, as in the other small-database domains: with the default 4 KB every table, even an empty one,
 * costs a 4 KB root page, which dominates a v0 file.
 */
export const hrSchemaSql = `
PRAGMA page_size = 1024;
CREATE TABLE departments (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  cost_center TEXT NOT NULL,
  location TEXT NOT NULL,
  head_employee_id TEXT REFERENCES employees(id)
);

CREATE TABLE positions (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  department_id INTEGER NOT NULL REFERENCES departments(id),
  grade TEXT NOT NULL,
  flsa_status TEXT NOT NULL CHECK (flsa_status IN ('exempt', 'non_exempt')),
  pay_type TEXT NOT NULL CHECK (pay_type IN ('salaried', 'hourly'))
);

CREATE TABLE employees (
  id TEXT PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  department_id INTEGER NOT NULL REFERENCES departments(id),
  position_id INTEGER NOT NULL REFERENCES positions(id),
  manager_id TEXT REFERENCES employees(id),
  employment_type TEXT NOT NULL CHECK (employment_type IN ('full_time', 'part_time', 'contractor')),
  fte REAL NOT NULL CHECK (fte > 0 AND fte <= 1),
  status TEXT NOT NULL CHECK (status IN ('active', 'on_leave', 'terminated')),
  hire_date TEXT NOT NULL,
  termination_date TEXT,
  annual_salary REAL,
  hourly_rate REAL,
  compensation_effective_date TEXT NOT NULL,
  work_location TEXT NOT NULL
);

CREATE TABLE timesheet_entries (
  id INTEGER PRIMARY KEY,
  employee_id TEXT NOT NULL REFERENCES employees(id),
  work_date TEXT NOT NULL,
  hours REAL NOT NULL CHECK (hours > 0 AND hours <= 16),
  project_code TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('submitted', 'approved', 'rejected'))
);
CREATE INDEX timesheet_entries_date ON timesheet_entries(work_date);

CREATE TABLE leave_balances (
  id INTEGER PRIMARY KEY,
  employee_id TEXT NOT NULL REFERENCES employees(id),
  year INTEGER NOT NULL,
  leave_type TEXT NOT NULL CHECK (leave_type IN ('annual', 'sick')),
  entitlement_days REAL NOT NULL,
  carried_over_days REAL NOT NULL DEFAULT 0,
  used_days REAL NOT NULL DEFAULT 0
);

CREATE TABLE leave_requests (
  id INTEGER PRIMARY KEY,
  employee_id TEXT NOT NULL REFERENCES employees(id),
  leave_type TEXT NOT NULL CHECK (leave_type IN ('annual', 'sick', 'unpaid', 'parental')),
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  days REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'cancelled')),
  submitted_at TEXT NOT NULL,
  decision_note TEXT
);

CREATE TABLE payroll_runs (
  id TEXT PRIMARY KEY,
  period_start TEXT NOT NULL,
  period_end TEXT NOT NULL,
  pay_date TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'finalized', 'paid')),
  employee_count INTEGER,
  total_gross REAL
);

CREATE TABLE payslips (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES payroll_runs(id),
  employee_id TEXT NOT NULL REFERENCES employees(id),
  regular_hours REAL NOT NULL,
  overtime_hours REAL NOT NULL,
  regular_pay REAL NOT NULL,
  overtime_pay REAL NOT NULL,
  gross_pay REAL NOT NULL,
  tax_withheld REAL NOT NULL,
  benefits_deduction REAL NOT NULL,
  net_pay REAL NOT NULL
);

-- Right-to-work documents on file (the verification vendor's records); empty unless a task plants them.
CREATE TABLE work_authorizations (
  employee_id TEXT PRIMARY KEY REFERENCES employees(id),
  document_type TEXT NOT NULL,
  document_last4 TEXT NOT NULL,
  expires_on TEXT,
  verified_on TEXT NOT NULL
);
`;
