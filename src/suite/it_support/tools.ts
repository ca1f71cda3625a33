import type Database from "better-sqlite3";
import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";

const TICKET_STATUSES = ["new", "open", "pending", "on_hold", "resolved", "closed"] as const;
const UNRESOLVED = ["new", "open", "pending", "on_hold"];
const CATEGORY_VALUES = [
  "network",
  "hardware",
  "software",
  "access",
  "email",
  "security",
  "database",
] as const;
const RESOLUTION_CODES = ["fixed", "workaround", "duplicate", "user_error", "no_fault_found"] as const;

/** Allowed status transitions of the ticket workflow (resolved tickets may be reopened). */
const TRANSITIONS: Record<string, readonly string[]> = {
  new: ["open", "pending", "on_hold", "resolved"],
  open: ["pending", "on_hold", "resolved"],
  pending: ["open", "resolved"],
  on_hold: ["open", "resolved"],
  resolved: ["open", "closed"],
  closed: [],
};

const pageSchema = z.number().int().min(1).default(1).describe("Page number, starting at 1");
const perPageSchema = z.number().int().min(1).max(50).default(20).describe("Items per page (1-50)");
const timestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?$/, "expected an ISO date or UTC timestamp")
  .optional();

type Row = Record<string, unknown>;

interface Page<T> {
  items: T[];
  total: number;
}

function paginate(
  db: Database.Database,
  fromSql: string,
  whereClauses: string[],
  parameters: unknown[],
  orderBy: string,
  select: string,
  page: number,
  perPage: number,
): Page<Row> {
  const where = whereClauses.length > 0 ? ` WHERE ${whereClauses.join(" AND ")}` : "";
  const total = (
    db.prepare(`SELECT COUNT(*) AS total FROM ${fromSql}${where}`).get(...parameters) as { total: number }
  ).total;
  const items = db
    .prepare(`SELECT ${select} FROM ${fromSql}${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
    .all(...parameters, perPage, (page - 1) * perPage) as Row[];
  return { items, total };
}

function pageResult(key: string, result: Page<Row>, page: number, perPage: number): Record<string, unknown> {
  return {
    [key]: result.items,
    page,
    per_page: perPage,
    total: result.total,
    has_more: page * perPage < result.total,
  };
}

/** Normalises a date bound so that `2025-05-01` and `2025-05-01T00:00:00Z` compare the same way. */
function timestampBound(value: string): string {
  if (value.length === 10) return `${value}T00:00:00Z`;
  if (value.length === 16) return `${value}:00Z`;
  return value.endsWith("Z") ? value : `${value}Z`;
}

/** Writes are stamped with the desk's snapshot time, so that episodes are reproducible. */
function deskNow(db: Database.Database): string {
  const row = db.prepare("SELECT value FROM service_desk_settings WHERE key = 'snapshot_at'").get() as
    { value: string } | undefined;
  return row?.value ?? "1970-01-01T00:00:00Z";
}

function requireTicket(db: Database.Database, ticketId: number): Row {
  const ticket = db.prepare("SELECT * FROM tickets WHERE id = ?").get(ticketId) as Row | undefined;
  if (!ticket) throw new ToolFailure(`ticket ${ticketId} not found; use list_tickets to find ticket ids`);
  return ticket;
}

function requireAgent(db: Database.Database, agentId: number): Row {
  const agent = db.prepare("SELECT * FROM agents WHERE id = ?").get(agentId) as Row | undefined;
  if (!agent) throw new ToolFailure(`agent ${agentId} not found; use list_agents to find agent ids`);
  return agent;
}

function requireTeam(db: Database.Database, teamId: number): Row {
  const team = db.prepare("SELECT * FROM teams WHERE id = ?").get(teamId) as Row | undefined;
  if (!team) throw new ToolFailure(`team ${teamId} not found; use list_teams to find team ids`);
  return team;
}

function insertEvent(
  db: Database.Database,
  ticketId: number,
  eventType: string,
  actorAgentId: number | null,
  fromValue: string | null,
  toValue: string | null,
  body: string | null,
): number {
  const result = db
    .prepare(
      `INSERT INTO ticket_events (ticket_id, event_type, actor_agent_id, created_at, from_value, to_value, body)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(ticketId, eventType, actorAgentId, deskNow(db), fromValue, toValue, body);
  return Number(result.lastInsertRowid);
}

const TICKET_SUMMARY_COLUMNS = `id, subject, category, priority, status, company_id, requester_id, asset_id, team_id,
  assignee_agent_id, escalation_level, created_at, first_response_at, resolved_at, resolution_code`;

const listTickets = defineTool({
  name: "list_tickets",
  description:
    "Search tickets with optional filters, ordered by id. Paginated: returns `tickets` (summaries) plus `page`, `per_page`, `total`, `has_more`. Date filters compare UTC timestamps: *_from is inclusive, *_to is exclusive.",
  kind: "read",
  inputSchema: z.object({
    status: z
      .enum([...TICKET_STATUSES, "unresolved"])
      .optional()
      .describe("Only tickets in this status; 'unresolved' means new, open, pending or on_hold"),
    priority: z.enum(["P1", "P2", "P3", "P4"]).optional().describe("Only tickets of this priority"),
    category: z.enum(CATEGORY_VALUES).optional().describe("Only tickets of this category"),
    team_id: z.number().int().optional().describe("Only tickets in this team's queue"),
    assignee_agent_id: z.number().int().optional().describe("Only tickets assigned to this agent"),
    company_id: z.number().int().optional().describe("Only tickets raised by this customer company"),
    asset_id: z.number().int().optional().describe("Only tickets linked to this asset"),
    escalation_level: z.number().int().min(0).optional().describe("Only tickets at this escalation level"),
    created_from: timestampSchema.describe("Created at or after this UTC date/timestamp"),
    created_to: timestampSchema.describe("Created strictly before this UTC date/timestamp"),
    resolved_from: timestampSchema.describe("Resolved at or after this UTC date/timestamp"),
    resolved_to: timestampSchema.describe("Resolved strictly before this UTC date/timestamp"),
    page: pageSchema,
    per_page: perPageSchema,
  }),
  handler: (input, { db }: ToolContext) => {
    const clauses: string[] = [];
    const parameters: unknown[] = [];
    if (input.status === "unresolved") clauses.push(`status IN ('new', 'open', 'pending', 'on_hold')`);
    else if (input.status) {
      clauses.push("status = ?");
      parameters.push(input.status);
    }
    const equalities: Array<[string, unknown]> = [
      ["priority", input.priority],
      ["category", input.category],
      ["team_id", input.team_id],
      ["assignee_agent_id", input.assignee_agent_id],
      ["company_id", input.company_id],
      ["asset_id", input.asset_id],
      ["escalation_level", input.escalation_level],
    ];
    for (const [column, value] of equalities) {
      if (value === undefined) continue;
      clauses.push(`${column} = ?`);
      parameters.push(value);
    }
    const ranges: Array<[string, string, string | undefined]> = [
      ["created_at", ">=", input.created_from],
      ["created_at", "<", input.created_to],
      ["resolved_at", ">=", input.resolved_from],
      ["resolved_at", "<", input.resolved_to],
    ];
    for (const [column, operator, value] of ranges) {
      if (value === undefined) continue;
      clauses.push(`${column} ${operator} ?`);
      parameters.push(timestampBound(value));
    }
    const result = paginate(
      db,
      "tickets",
      clauses,
      parameters,
      "id",
      TICKET_SUMMARY_COLUMNS,
      input.page,
      input.per_page,
    );
    return pageResult("tickets", result, input.page, input.per_page);
  },
});

const getTicket = defineTool({
  name: "get_ticket",
  description:
    "Get one ticket with all its fields, the requester's name and e-mail, the company name, the team name and the assignee's name.",
  kind: "read",
  inputSchema: z.object({ ticket_id: z.number().int().describe("The ticket id") }),
  handler: ({ ticket_id }, { db }: ToolContext) => {
    const ticket = requireTicket(db, ticket_id);
    const extra = db
      .prepare(
        `SELECT customers.full_name AS requester_name, customers.email AS requester_email,
           companies.name AS company_name, teams.name AS team_name, agents.full_name AS assignee_name
         FROM tickets
         JOIN customers ON customers.id = tickets.requester_id
         JOIN companies ON companies.id = tickets.company_id
         JOIN teams ON teams.id = tickets.team_id
         LEFT JOIN agents ON agents.id = tickets.assignee_agent_id
         WHERE tickets.id = ?`,
      )
      .get(ticket_id) as Row;
    return { ticket: { ...ticket, ...extra } };
  },
});

const listTicketEvents = defineTool({
  name: "list_ticket_events",
  description:
    "List ticket history events (created, assigned, status_change, comment, escalated), oldest first. For status_change events `from_value`/`to_value` are statuses; for escalated they are team ids; for assigned they are agent ids. Paginated: returns `events` plus `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    ticket_id: z.number().int().optional().describe("Only events of this ticket"),
    event_type: z
      .enum(["created", "assigned", "status_change", "comment", "escalated"])
      .optional()
      .describe("Only events of this type"),
    created_from: timestampSchema.describe("Events at or after this UTC date/timestamp"),
    created_to: timestampSchema.describe("Events strictly before this UTC date/timestamp"),
    page: pageSchema,
    per_page: perPageSchema,
  }),
  handler: (input, { db }: ToolContext) => {
    const clauses: string[] = [];
    const parameters: unknown[] = [];
    if (input.ticket_id !== undefined) {
      clauses.push("ticket_id = ?");
      parameters.push(input.ticket_id);
    }
    if (input.event_type) {
      clauses.push("event_type = ?");
      parameters.push(input.event_type);
    }
    if (input.created_from) {
      clauses.push("created_at >= ?");
      parameters.push(timestampBound(input.created_from));
    }
    if (input.created_to) {
      clauses.push("created_at < ?");
      parameters.push(timestampBound(input.created_to));
    }
    const result = paginate(
      db,
      "ticket_events",
      clauses,
      parameters,
      "created_at, id",
      "id, ticket_id, event_type, actor_agent_id, created_at, from_value, to_value, body",
      input.page,
      input.per_page,
    );
    return pageResult("events", result, input.page, input.per_page);
  },
});

const AGENT_COLUMNS = "id, full_name, email, team_id, role, status, hired_on";

const listAgents = defineTool({
  name: "list_agents",
  description:
    "List service desk agents, ordered by id. Paginated: returns `agents` plus `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    team_id: z.number().int().optional().describe("Only agents of this team"),
    role: z.enum(["agent", "senior", "lead"]).optional().describe("Only agents with this role"),
    status: z.enum(["active", "inactive"]).optional().describe("Only active or only inactive agents"),
    email: z.string().optional().describe("Only the agent with this e-mail address (case-insensitive)"),
    page: pageSchema,
    per_page: perPageSchema,
  }),
  handler: (input, { db }: ToolContext) => {
    const clauses: string[] = [];
    const parameters: unknown[] = [];
    for (const [column, value] of [
      ["team_id", input.team_id],
      ["role", input.role],
      ["status", input.status],
    ] as Array<[string, unknown]>) {
      if (value === undefined) continue;
      clauses.push(`${column} = ?`);
      parameters.push(value);
    }
    if (input.email !== undefined) {
      clauses.push("lower(email) = lower(?)");
      parameters.push(input.email.trim());
    }
    const result = paginate(
      db,
      "agents",
      clauses,
      parameters,
      "id",
      AGENT_COLUMNS,
      input.page,
      input.per_page,
    );
    return pageResult("agents", result, input.page, input.per_page);
  },
});

const getAgent = defineTool({
  name: "get_agent",
  description: "Get one agent, with their team's name and how many unresolved tickets are assigned to them.",
  kind: "read",
  inputSchema: z.object({ agent_id: z.number().int().describe("The agent id") }),
  handler: ({ agent_id }, { db }: ToolContext) => {
    const agent = requireAgent(db, agent_id);
    const team = requireTeam(db, Number(agent.team_id));
    const open = db
      .prepare(
        "SELECT COUNT(*) AS count FROM tickets WHERE assignee_agent_id = ? AND status IN ('new', 'open', 'pending', 'on_hold')",
      )
      .get(agent_id) as { count: number };
    return { agent: { ...agent, team_name: team.name, unresolved_ticket_count: open.count } };
  },
});

const listTeams = defineTool({
  name: "list_teams",
  description:
    "List support teams (queues), ordered by id. Paginated: returns `teams` plus `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({ page: pageSchema, per_page: perPageSchema }),
  handler: ({ page, per_page }, { db }: ToolContext) =>
    pageResult(
      "teams",
      paginate(db, "teams", [], [], "id", "id, name, queue_email, tier_level", page, per_page),
      page,
      per_page,
    ),
});

const COMPANY_COLUMNS = "id, name, industry, support_tier, contract_start, account_manager";

const listCompanies = defineTool({
  name: "list_companies",
  description:
    "List customer companies with their support tier, ordered by id. Paginated: returns `companies` plus `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    support_tier: z
      .enum(["bronze", "silver", "gold", "platinum"])
      .optional()
      .describe("Only companies on this support tier"),
    name_contains: z
      .string()
      .optional()
      .describe("Only companies whose name contains this text (case-insensitive)"),
    page: pageSchema,
    per_page: perPageSchema,
  }),
  handler: (input, { db }: ToolContext) => {
    const clauses: string[] = [];
    const parameters: unknown[] = [];
    if (input.support_tier) {
      clauses.push("support_tier = ?");
      parameters.push(input.support_tier);
    }
    if (input.name_contains) {
      clauses.push("lower(name) LIKE ?");
      parameters.push(`%${input.name_contains.toLowerCase()}%`);
    }
    const result = paginate(
      db,
      "companies",
      clauses,
      parameters,
      "id",
      COMPANY_COLUMNS,
      input.page,
      input.per_page,
    );
    return pageResult("companies", result, input.page, input.per_page);
  },
});

const getCompany = defineTool({
  name: "get_company",
  description:
    "Get one customer company, with its support tier and its contacts (customers who raise tickets).",
  kind: "read",
  inputSchema: z.object({ company_id: z.number().int().describe("The company id") }),
  handler: ({ company_id }, { db }: ToolContext) => {
    const company = db.prepare(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = ?`).get(company_id) as
      Row | undefined;
    if (!company)
      throw new ToolFailure(`company ${company_id} not found; use list_companies to find company ids`);
    const contacts = db
      .prepare("SELECT id, full_name, email, job_title FROM customers WHERE company_id = ? ORDER BY id")
      .all(company_id);
    return { company: { ...company, contacts } };
  },
});

const ASSET_COLUMNS =
  "id, asset_tag, company_id, asset_type, model, serial_number, purchased_on, warranty_expires_on, status";

const listAssets = defineTool({
  name: "list_assets",
  description:
    "List customer assets (devices under management), ordered by id. Paginated: returns `assets` plus `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    company_id: z.number().int().optional().describe("Only assets of this company"),
    asset_type: z
      .enum(["laptop", "desktop", "server", "printer", "switch", "firewall", "phone"])
      .optional()
      .describe("Only assets of this type"),
    status: z
      .enum(["in_service", "in_repair", "replacement_pending", "retired"])
      .optional()
      .describe("Only assets in this lifecycle status"),
    asset_tag: z.string().optional().describe("Only the asset with this tag, e.g. 'NB-40123'"),
    page: pageSchema,
    per_page: perPageSchema,
  }),
  handler: (input, { db }: ToolContext) => {
    const clauses: string[] = [];
    const parameters: unknown[] = [];
    for (const [column, value] of [
      ["company_id", input.company_id],
      ["asset_type", input.asset_type],
      ["status", input.status],
    ] as Array<[string, unknown]>) {
      if (value === undefined) continue;
      clauses.push(`${column} = ?`);
      parameters.push(value);
    }
    if (input.asset_tag !== undefined) {
      clauses.push("upper(asset_tag) = upper(?)");
      parameters.push(input.asset_tag.trim());
    }
    const result = paginate(
      db,
      "assets",
      clauses,
      parameters,
      "id",
      ASSET_COLUMNS,
      input.page,
      input.per_page,
    );
    return pageResult("assets", result, input.page, input.per_page);
  },
});

const getAsset = defineTool({
  name: "get_asset",
  description:
    "Get one asset with its purchase date, warranty expiry and lifecycle status, plus its company name.",
  kind: "read",
  inputSchema: z.object({ asset_id: z.number().int().describe("The asset id") }),
  handler: ({ asset_id }, { db }: ToolContext) => {
    const asset = db
      .prepare(
        `SELECT ${ASSET_COLUMNS.split(", ")
          .map((column) => `assets.${column}`)
          .join(", ")}, companies.name AS company_name
         FROM assets JOIN companies ON companies.id = assets.company_id WHERE assets.id = ?`,
      )
      .get(asset_id) as Row | undefined;
    if (!asset) throw new ToolFailure(`asset ${asset_id} not found; use list_assets to find asset ids`);
    return { asset };
  },
});

const assignTicket = defineTool({
  name: "assign_ticket",
  description:
    "Assign an unresolved ticket to an active agent of the ticket's team. Records an 'assigned' event. Returns the updated ticket summary.",
  kind: "write",
  inputSchema: z.object({
    ticket_id: z.number().int().describe("The ticket to assign"),
    agent_id: z
      .number()
      .int()
      .describe("The agent who takes the ticket (must be active and in the ticket's team)"),
    note: z.string().default("").describe("Optional reason recorded on the assignment event"),
  }),
  handler: ({ ticket_id, agent_id, note }, { db }: ToolContext) => {
    const ticket = requireTicket(db, ticket_id);
    if (!UNRESOLVED.includes(String(ticket.status))) {
      throw new ToolFailure(
        `ticket ${ticket_id} is ${String(ticket.status)}; only unresolved tickets can be assigned`,
      );
    }
    const agent = requireAgent(db, agent_id);
    if (agent.status !== "active")
      throw new ToolFailure(`agent ${agent_id} is inactive and cannot take tickets`);
    if (agent.team_id !== ticket.team_id) {
      throw new ToolFailure(
        `agent ${agent_id} belongs to team ${String(agent.team_id)} but ticket ${ticket_id} is in team ${String(ticket.team_id)}'s queue; pick an agent of that team`,
      );
    }
    if (ticket.assignee_agent_id === agent_id) {
      throw new ToolFailure(`ticket ${ticket_id} is already assigned to agent ${agent_id}`);
    }
    const now = deskNow(db);
    db.prepare("UPDATE tickets SET assignee_agent_id = ?, updated_at = ? WHERE id = ?").run(
      agent_id,
      now,
      ticket_id,
    );
    insertEvent(
      db,
      ticket_id,
      "assigned",
      null,
      ticket.assignee_agent_id === null ? null : String(ticket.assignee_agent_id),
      String(agent_id),
      note === "" ? null : note,
    );
    return {
      ticket: db.prepare(`SELECT ${TICKET_SUMMARY_COLUMNS} FROM tickets WHERE id = ?`).get(ticket_id) as Row,
    };
  },
});

const escalateTicket = defineTool({
  name: "escalate_ticket",
  description:
    "Escalate an unresolved ticket to a team: moves it to that team's queue unassigned, raises its escalation level by one and records an 'escalated' event with the reason. The status is unchanged. Returns the updated ticket summary.",
  kind: "write",
  inputSchema: z.object({
    ticket_id: z.number().int().describe("The ticket to escalate"),
    team_id: z.number().int().describe("The team that receives the escalation"),
    reason: z.string().min(3).describe("Why the ticket is escalated (recorded on the event)"),
  }),
  handler: ({ ticket_id, team_id, reason }, { db }: ToolContext) => {
    const ticket = requireTicket(db, ticket_id);
    if (!UNRESOLVED.includes(String(ticket.status))) {
      throw new ToolFailure(
        `ticket ${ticket_id} is ${String(ticket.status)}; only unresolved tickets can be escalated`,
      );
    }
    requireTeam(db, team_id);
    const now = deskNow(db);
    db.prepare(
      "UPDATE tickets SET team_id = ?, assignee_agent_id = NULL, escalation_level = escalation_level + 1, updated_at = ? WHERE id = ?",
    ).run(team_id, now, ticket_id);
    insertEvent(db, ticket_id, "escalated", null, String(ticket.team_id), String(team_id), reason);
    return {
      ticket: db.prepare(`SELECT ${TICKET_SUMMARY_COLUMNS} FROM tickets WHERE id = ?`).get(ticket_id) as Row,
    };
  },
});

const updateTicketStatus = defineTool({
  name: "update_ticket_status",
  description:
    "Move a ticket through its workflow (new -> open/pending/on_hold/resolved; open -> pending/on_hold/resolved; pending/on_hold -> open/resolved; resolved -> open/closed). Resolving requires a resolution_code. Records a 'status_change' event. Returns the updated ticket summary.",
  kind: "write",
  inputSchema: z.object({
    ticket_id: z.number().int().describe("The ticket to update"),
    status: z.enum(TICKET_STATUSES).describe("The new status"),
    resolution_code: z
      .enum(RESOLUTION_CODES)
      .optional()
      .describe("Required when the new status is 'resolved'"),
    note: z.string().default("").describe("Optional note recorded on the status-change event"),
  }),
  handler: ({ ticket_id, status, resolution_code, note }, { db }: ToolContext) => {
    const ticket = requireTicket(db, ticket_id);
    const current = String(ticket.status);
    const allowed = TRANSITIONS[current] ?? [];
    if (!allowed.includes(status)) {
      throw new ToolFailure(
        `cannot move ticket ${ticket_id} from '${current}' to '${status}'; allowed: ${allowed.length > 0 ? allowed.join(", ") : "none (closed is final)"}`,
      );
    }
    if (status === "resolved" && !resolution_code)
      throw new ToolFailure("resolving a ticket requires a resolution_code");
    const now = deskNow(db);
    db.prepare(
      `UPDATE tickets SET status = ?, updated_at = ?,
         first_response_at = COALESCE(first_response_at, ?),
         resolved_at = CASE WHEN ? = 'resolved' THEN ? WHEN ? = 'open' THEN NULL ELSE resolved_at END,
         resolution_code = CASE WHEN ? = 'resolved' THEN ? WHEN ? = 'open' THEN NULL ELSE resolution_code END,
         closed_at = CASE WHEN ? = 'closed' THEN ? ELSE closed_at END
       WHERE id = ?`,
    ).run(
      status,
      now,
      now,
      status,
      now,
      status,
      status,
      resolution_code ?? null,
      status,
      status,
      now,
      ticket_id,
    );
    insertEvent(
      db,
      ticket_id,
      "status_change",
      ticket.assignee_agent_id === null ? null : Number(ticket.assignee_agent_id),
      current,
      status,
      note === "" ? null : note,
    );
    return {
      ticket: db.prepare(`SELECT ${TICKET_SUMMARY_COLUMNS} FROM tickets WHERE id = ?`).get(ticket_id) as Row,
    };
  },
});

const addTicketComment = defineTool({
  name: "add_ticket_comment",
  description: "Add an internal comment to a ticket's history. Returns the new event.",
  kind: "write",
  inputSchema: z.object({
    ticket_id: z.number().int().describe("The ticket to comment on"),
    body: z.string().min(1).describe("The comment text"),
    agent_id: z.number().int().optional().describe("The agent writing the comment, if any"),
  }),
  handler: ({ ticket_id, body, agent_id }, { db }: ToolContext) => {
    requireTicket(db, ticket_id);
    if (agent_id !== undefined) requireAgent(db, agent_id);
    const eventId = insertEvent(db, ticket_id, "comment", agent_id ?? null, null, null, body);
    db.prepare("UPDATE tickets SET updated_at = ? WHERE id = ?").run(deskNow(db), ticket_id);
    return {
      event: db
        .prepare(
          "SELECT id, ticket_id, event_type, actor_agent_id, created_at, body FROM ticket_events WHERE id = ?",
        )
        .get(eventId) as Row,
    };
  },
});

export const itSupportTools: DomainTool[] = [
  listTickets,
  getTicket,
  listTicketEvents,
  listAgents,
  getAgent,
  listTeams,
  listCompanies,
  getCompany,
  listAssets,
  getAsset,
  assignTicket,
  escalateTicket,
  updateTicketStatus,
  addTicketComment,
] as DomainTool[];
