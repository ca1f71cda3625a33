import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const elevatorId = defineIdFormat({
  field: "elevator_id",
  entity: "elevator",
  pattern: /^ELV-\d{2}$/,
  example: "ELV-01",
  listTool: "list_elevators",
});
export const memberId = defineIdFormat({
  field: "member_id",
  entity: "member",
  prefix: "M-",
  digits: 4,
  listTool: "list_members",
});
export const contractId = defineIdFormat({
  field: "contract_id",
  entity: "contract",
  prefix: "C-",
  digits: 5,
  listTool: "list_contracts",
});
export const ticketId = defineIdFormat({
  field: "ticket_id",
  entity: "scale ticket",
  prefix: "T-",
  digits: 6,
  listTool: "list_tickets",
});
export const binId = defineIdFormat({
  field: "bin_id",
  entity: "bin",
  prefix: "B-",
  digits: 4,
  listTool: "list_bins",
});

/**
 * The cooperative's grain accounting system: elevators, member farmers, grain contracts, the scale tickets
 * keyed from the scale house (weights normalised to pounds, settled bushels computed by the grading system),
 * the tickets' applications to contracts, storage bins and their temperature alerts.
 *
 * Rules (discount schedule, delivery rules, aeration policy, patronage) and the raw scale journals and bin
 * monitoring exports are workspace documents.
 */
export const coopSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE elevators (
  elevator_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  town TEXT NOT NULL,
  scale_units TEXT NOT NULL CHECK (scale_units IN ('lb', 'kg'))
);

CREATE TABLE members (
  member_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  farm TEXT NOT NULL,
  home_elevator TEXT NOT NULL REFERENCES elevators (elevator_id),
  patron_status TEXT NOT NULL CHECK (patron_status IN ('member', 'non-member')),
  joined_on TEXT NOT NULL
);

CREATE TABLE contracts (
  contract_id TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES members (member_id),
  elevator_id TEXT NOT NULL REFERENCES elevators (elevator_id),
  crop TEXT NOT NULL CHECK (crop IN ('corn', 'soybeans')),
  contract_type TEXT NOT NULL CHECK (contract_type IN ('forward', 'basis', 'deferred_price')),
  bushels INTEGER NOT NULL,
  price REAL,
  signed_on TEXT NOT NULL,
  delivery_start TEXT NOT NULL,
  delivery_end TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'filled', 'cancelled'))
);

CREATE TABLE tickets (
  ticket_id TEXT PRIMARY KEY,
  elevator_id TEXT NOT NULL REFERENCES elevators (elevator_id),
  member_id TEXT NOT NULL REFERENCES members (member_id),
  crop TEXT NOT NULL,
  ticket_date TEXT NOT NULL,
  gross_lb INTEGER NOT NULL,
  tare_lb INTEGER NOT NULL,
  net_lb INTEGER NOT NULL,
  moisture REAL NOT NULL,
  test_weight REAL NOT NULL,
  fm REAL NOT NULL,
  net_bu REAL NOT NULL,
  designation TEXT NOT NULL CHECK (designation IN ('contract', 'spot', 'storage')),
  status TEXT NOT NULL CHECK (status IN ('active', 'void'))
);

CREATE TABLE applications (
  application_id INTEGER PRIMARY KEY,
  ticket_id TEXT NOT NULL REFERENCES tickets (ticket_id),
  contract_id TEXT NOT NULL REFERENCES contracts (contract_id),
  bushels REAL NOT NULL,
  applied_on TEXT NOT NULL
);

CREATE TABLE bins (
  bin_id TEXT PRIMARY KEY,
  elevator_id TEXT NOT NULL REFERENCES elevators (elevator_id),
  crop TEXT,
  capacity_bu INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('filled', 'empty'))
);

CREATE TABLE bin_alerts (
  alert_id INTEGER PRIMARY KEY,
  bin_id TEXT NOT NULL REFERENCES bins (bin_id),
  raised_on TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
  note TEXT NOT NULL
);
`;
