/** The IT service desk: teams and agents working tickets raised by customer contacts about their assets. */
export const itSupportSchemaSql = `
CREATE TABLE service_desk_settings (
  key TEXT NOT NULL,
  value TEXT NOT NULL
);

CREATE TABLE teams (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  queue_email TEXT NOT NULL,
  tier_level TEXT NOT NULL CHECK (tier_level IN ('L1', 'L2', 'L3'))
);

CREATE TABLE agents (
  id INTEGER PRIMARY KEY,
  full_name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  team_id INTEGER NOT NULL REFERENCES teams(id),
  role TEXT NOT NULL CHECK (role IN ('agent', 'senior', 'lead')),
  status TEXT NOT NULL CHECK (status IN ('active', 'inactive')),
  hired_on TEXT NOT NULL
);

CREATE TABLE companies (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  industry TEXT NOT NULL,
  support_tier TEXT NOT NULL CHECK (support_tier IN ('bronze', 'silver', 'gold', 'platinum')),
  contract_start TEXT NOT NULL,
  account_manager TEXT NOT NULL
);

CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  full_name TEXT NOT NULL,
  email TEXT NOT NULL,
  job_title TEXT NOT NULL
);

CREATE TABLE assets (
  id INTEGER PRIMARY KEY,
  asset_tag TEXT NOT NULL UNIQUE,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  asset_type TEXT NOT NULL CHECK (asset_type IN ('laptop', 'desktop', 'server', 'printer', 'switch', 'firewall', 'phone')),
  model TEXT NOT NULL,
  serial_number TEXT NOT NULL,
  purchased_on TEXT NOT NULL,
  warranty_expires_on TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('in_service', 'in_repair', 'replacement_pending', 'retired'))
);

CREATE TABLE tickets (
  id INTEGER PRIMARY KEY,
  subject TEXT NOT NULL,
  category TEXT NOT NULL CHECK (category IN ('network', 'hardware', 'software', 'access', 'email', 'security', 'database')),
  priority TEXT NOT NULL CHECK (priority IN ('P1', 'P2', 'P3', 'P4')),
  status TEXT NOT NULL CHECK (status IN ('new', 'open', 'pending', 'on_hold', 'resolved', 'closed')),
  channel TEXT NOT NULL CHECK (channel IN ('email', 'phone', 'portal', 'chat')),
  company_id INTEGER NOT NULL REFERENCES companies(id),
  requester_id INTEGER NOT NULL REFERENCES customers(id),
  asset_id INTEGER REFERENCES assets(id),
  team_id INTEGER NOT NULL REFERENCES teams(id),
  assignee_agent_id INTEGER REFERENCES agents(id),
  escalation_level INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  first_response_at TEXT,
  resolved_at TEXT,
  closed_at TEXT,
  resolution_code TEXT CHECK (resolution_code IN ('fixed', 'workaround', 'duplicate', 'user_error', 'no_fault_found')),
  updated_at TEXT NOT NULL
);
CREATE INDEX tickets_created ON tickets(created_at);

CREATE TABLE ticket_events (
  id INTEGER PRIMARY KEY,
  ticket_id INTEGER NOT NULL REFERENCES tickets(id),
  event_type TEXT NOT NULL CHECK (event_type IN ('created', 'assigned', 'status_change', 'comment', 'escalated')),
  actor_agent_id INTEGER REFERENCES agents(id),
  created_at TEXT NOT NULL,
  from_value TEXT,
  to_value TEXT,
  body TEXT
);
CREATE INDEX ticket_events_ticket ON ticket_events(ticket_id);

-- The hardware vendors' warranty portal, as mirrored for the desk: filled by the tasks that use it.
CREATE TABLE vendor_warranties (
  asset_tag TEXT PRIMARY KEY,
  vendor TEXT NOT NULL,
  plan TEXT NOT NULL,
  coverage_ends_on TEXT NOT NULL
);
`;
