import { threadMessagesTable } from "../../envs/index.js";

/** The project office's database. E-mail bodies are stored as their senders wrote them (own text and signature). */
export const constructionSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE projects (project_id TEXT PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, superintendent TEXT NOT NULL);

CREATE TABLE staff (email TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, project_id TEXT);

CREATE TABLE subcontractors (
  sub_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  trade TEXT NOT NULL,
  contact_name TEXT NOT NULL,
  contact_email TEXT NOT NULL
);

CREATE TABLE certificates (
  certificate_id INTEGER PRIMARY KEY,
  sub_id TEXT NOT NULL REFERENCES subcontractors (sub_id),
  coverage TEXT NOT NULL,
  insurer TEXT NOT NULL,
  policy_number TEXT NOT NULL,
  each_occurrence REAL NOT NULL,
  effective_on TEXT NOT NULL,
  expires_on TEXT NOT NULL
);

CREATE TABLE contracts (
  contract_id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (project_id),
  sub_id TEXT NOT NULL REFERENCES subcontractors (sub_id),
  scope TEXT NOT NULL,
  original_sum REAL NOT NULL,
  signed_on TEXT NOT NULL
);

CREATE TABLE sov_lines (
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  line_no INTEGER NOT NULL,
  description TEXT NOT NULL,
  scheduled_value REAL NOT NULL,
  PRIMARY KEY (contract_id, line_no)
);

CREATE TABLE change_orders (
  co_id TEXT PRIMARY KEY,
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  description TEXT NOT NULL,
  requested_amount REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  approved_amount REAL,
  decided_by TEXT,
  decided_on TEXT,
  thread_id TEXT NOT NULL
);

CREATE TABLE pay_apps (
  pay_app_id TEXT PRIMARY KEY,
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  app_no INTEGER NOT NULL,
  period_to TEXT NOT NULL,
  work_completed_to_date REAL NOT NULL,
  retainage_held REAL NOT NULL,
  previous_certified REAL NOT NULL,
  current_due REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('submitted', 'approved', 'paid', 'on_hold')),
  hold_reason TEXT
);

CREATE TABLE rfis (
  rfi_id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (project_id),
  subject TEXT NOT NULL,
  priority TEXT NOT NULL,
  sent_on TEXT NOT NULL,
  question TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'answered')),
  answered_on TEXT,
  answer TEXT
);

CREATE TABLE submittals (
  submittal_id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (project_id),
  spec_section TEXT NOT NULL,
  title TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('under_review', 'approved', 'approved_as_noted'))
);

CREATE TABLE submittal_revisions (
  submittal_id TEXT NOT NULL REFERENCES submittals (submittal_id),
  revision INTEGER NOT NULL,
  submitted_on TEXT NOT NULL,
  returned_on TEXT,
  action TEXT,
  PRIMARY KEY (submittal_id, revision)
);

CREATE TABLE email_threads (
  thread_id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (project_id),
  subject TEXT NOT NULL
);

${threadMessagesTable("email_messages", "email_threads")}
`;
