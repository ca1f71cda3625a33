/**
 * The oncall schema: a software team's services and engineers, the pager's pages, the deploy history,
 * incidents with their free-text timelines and events, postmortem action items, the paging system's
 * schedule overrides, and the log store (one row per raw log line, as the log API pages them).
 *
 * The on-call rotation, the SLO and paging policies, monitoring exports, postmortems and override requests
 * are workspace documents: rules live only there, as on a team's shared drive.
 */
export const oncallSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE engineers (
  engineer_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  handle TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  team TEXT NOT NULL
);

CREATE TABLE services (
  service TEXT PRIMARY KEY,
  team TEXT NOT NULL,
  tier INTEGER NOT NULL CHECK (tier IN (1, 2, 3)),
  runtime TEXT NOT NULL
);

CREATE TABLE pages (
  page_id TEXT PRIMARY KEY,
  service TEXT NOT NULL REFERENCES services (service),
  alert_name TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('sev1', 'sev2', 'sev3')),
  fired_at TEXT NOT NULL,
  acked_at TEXT,
  acked_by TEXT,
  resolved_at TEXT,
  assigned_to TEXT,
  summary TEXT NOT NULL
);

CREATE TABLE deploys (
  deploy_id TEXT PRIMARY KEY,
  service TEXT NOT NULL REFERENCES services (service),
  version TEXT NOT NULL,
  deployed_at TEXT NOT NULL,
  utc_day TEXT NOT NULL,
  deployed_by TEXT NOT NULL,
  change_summary TEXT NOT NULL
);
CREATE INDEX deploys_service ON deploys (service, utc_day);

CREATE TABLE incidents (
  incident_id TEXT PRIMARY KEY,
  service TEXT NOT NULL REFERENCES services (service),
  severity TEXT NOT NULL CHECK (severity IN ('sev1', 'sev2', 'sev3')),
  title TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('triggered', 'acknowledged', 'resolved')),
  page_id TEXT REFERENCES pages (page_id),
  opened_at TEXT NOT NULL,
  escalated_to TEXT,
  escalated_at TEXT,
  resolved_at TEXT,
  timeline TEXT NOT NULL
);

CREATE TABLE incident_events (
  event_id INTEGER PRIMARY KEY,
  incident_id TEXT NOT NULL REFERENCES incidents (incident_id),
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  actor TEXT,
  note TEXT
);

CREATE TABLE action_items (
  action_item_id TEXT PRIMARY KEY,
  incident_id TEXT NOT NULL REFERENCES incidents (incident_id),
  title TEXT NOT NULL,
  owner_id TEXT NOT NULL REFERENCES engineers (engineer_id),
  due_date TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'done'))
);

CREATE TABLE schedule_overrides (
  override_id TEXT PRIMARY KEY,
  team TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('primary', 'secondary')),
  engineer_id TEXT NOT NULL REFERENCES engineers (engineer_id),
  starts_at TEXT NOT NULL,
  ends_at TEXT NOT NULL
);

CREATE TABLE log_lines (
  service TEXT NOT NULL,
  log_date TEXT NOT NULL,
  line_no INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (service, log_date, line_no)
) WITHOUT ROWID;
`;
