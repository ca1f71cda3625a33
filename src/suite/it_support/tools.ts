import type Database from "better-sqlite3";
import { z } from "zod";
import {
  allRows,
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  listPage,
  pagingFields,
  requireRow,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type Row,
  type SqlCondition,
  type ToolContext,
  optionalInt,
  optionalChoice,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { CATEGORIES, PRIORITIES, TIERS, UNRESOLVED_STATUSES } from "./policy.js";

const TICKET_STATUSES = ["new", "open", "pending", "on_hold", "resolved", "closed"] as const;
const UNRESOLVED: readonly string[] = UNRESOLVED_STATUSES;
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

const timestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?$/, "expected an ISO date or UTC timestamp")
  .optional();

/** One `column = ?` condition per filter the model set, in the order given. */
function equalTo(input: Record<string, unknown>, ...columns: string[]): SqlCondition[] {
  return columns.map((column) => when(input[column], `${column} = ?`));
}

/** Normalises a date bound so that `2025-05-01` and `2025-05-01T00:00:00Z` compare the same way. */
function timestampBound(value: string): string {
  if (value.length === 10) return `${value}T00:00:00Z`;
  if (value.length === 16) return `${value}:00Z`;
  return value.endsWith("Z") ? value : `${value}Z`;
}

/** Writes are stamped with the desk's snapshot time, so that episodes are reproducible. */
function deskNow(db: Database.Database): string {
  const row = getRow<{ value: string }>(
    db,
    "SELECT value FROM service_desk_settings WHERE key = 'snapshot_at'",
  );
  return row?.value ?? "1970-01-01T00:00:00Z";
}

/** The row of a ticket, agent or team, or the error that points to its list tool. */
function requireById(db: Database.Database, entity: "ticket" | "agent" | "team", id: number): Row {
  return requireRow(
    db,
    `SELECT * FROM ${entity}s WHERE id = ?`,
    [id],
    `${entity} ${id} not found; use list_${entity}s to find ${entity} ids`,
  );
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
  const result = cachedStatement(
    db,
    `INSERT INTO ticket_events (ticket_id, event_type, actor_agent_id, created_at, from_value, to_value, body)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(ticketId, eventType, actorAgentId, deskNow(db), fromValue, toValue, body);
  return Number(result.lastInsertRowid);
}

const TICKET_SUMMARY_COLUMNS = `id, subject, category, priority, status, company_id, requester_id, asset_id, team_id,
  assignee_agent_id, escalation_level, created_at, first_response_at, resolved_at, resolution_code`;

/** What a write tool returns: the ticket's summary as it is now. */
function ticketSummary(db: Database.Database, ticketId: number): { ticket: Row | undefined } {
  return { ticket: getRow(db, `SELECT ${TICKET_SUMMARY_COLUMNS} FROM tickets WHERE id = ?`, ticketId) };
}

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
    priority: optionalChoice(PRIORITIES, "Only tickets of this priority"),
    category: optionalChoice(CATEGORIES, "Only tickets of this category"),
    team_id: optionalInt("Only tickets in this team's queue"),
    assignee_agent_id: optionalInt("Only tickets assigned to this agent"),
    company_id: optionalInt("Only tickets raised by this customer company"),
    asset_id: optionalInt("Only tickets linked to this asset"),
    escalation_level: z.number().int().min(0).optional().describe("Only tickets at this escalation level"),
    created_from: timestampSchema.describe("Created at or after this UTC date/timestamp"),
    created_to: timestampSchema.describe("Created strictly before this UTC date/timestamp"),
    resolved_from: timestampSchema.describe("Resolved at or after this UTC date/timestamp"),
    resolved_to: timestampSchema.describe("Resolved strictly before this UTC date/timestamp"),
    ...pagingFields,
  }),
  handler: (input, { db }: ToolContext) => {
    const bound = (value: string | undefined): string | undefined =>
      value === undefined ? undefined : timestampBound(value);
    const where: SqlCondition[] = [
      input.status === "unresolved"
        ? `status IN ('new', 'open', 'pending', 'on_hold')`
        : when(input.status, "status = ?"),
      ...equalTo(
        input,
        "priority",
        "category",
        "team_id",
        "assignee_agent_id",
        "company_id",
        "asset_id",
        "escalation_level",
      ),
      when(bound(input.created_from), "created_at >= ?"),
      when(bound(input.created_to), "created_at < ?"),
      when(bound(input.resolved_from), "resolved_at >= ?"),
      when(bound(input.resolved_to), "resolved_at < ?"),
    ];
    return listPage(db, {
      key: "tickets",
      from: "tickets",
      select: TICKET_SUMMARY_COLUMNS,
      where,
      orderBy: "id",
      page: input.page,
      perPage: input.per_page,
    });
  },
});

const getTicket = defineGetTool({
  name: "get_ticket",
  description:
    "Get one ticket with all its fields, the requester's name and e-mail, the company name, the team name and the assignee's name.",
  input: { ticket_id: z.number().int().describe("The ticket id") },
  key: "ticket",
  from: `tickets
    JOIN customers ON customers.id = tickets.requester_id
    JOIN companies ON companies.id = tickets.company_id
    JOIN teams ON teams.id = tickets.team_id
    LEFT JOIN agents ON agents.id = tickets.assignee_agent_id`,
  select: `tickets.*, customers.full_name AS requester_name, customers.email AS requester_email,
    companies.name AS company_name, teams.name AS team_name, agents.full_name AS assignee_name`,
  idColumn: "tickets.id",
  notFound: (ticketId) => `ticket ${ticketId} not found; use list_tickets to find ticket ids`,
});

const listTicketEvents = defineListTool({
  name: "list_ticket_events",
  description:
    "List ticket history events (created, assigned, status_change, comment, escalated), oldest first. For status_change events `from_value`/`to_value` are statuses; for escalated they are team ids; for assigned they are agent ids. Paginated: returns `events` plus `page`, `per_page`, `total`, `has_more`.",
  filters: {
    ticket_id: optionalInt("Only events of this ticket"),
    event_type: z
      .enum(["created", "assigned", "status_change", "comment", "escalated"])
      .optional()
      .describe("Only events of this type"),
    created_from: timestampSchema.describe("Events at or after this UTC date/timestamp"),
    created_to: timestampSchema.describe("Events strictly before this UTC date/timestamp"),
  },
  key: "events",
  from: "ticket_events",
  select: "id, ticket_id, event_type, actor_agent_id, created_at, from_value, to_value, body",
  where: (input) => [
    ...equalTo(input, "ticket_id", "event_type"),
    when(input.created_from && timestampBound(input.created_from), "created_at >= ?"),
    when(input.created_to && timestampBound(input.created_to), "created_at < ?"),
  ],
  orderBy: "created_at, id",
});

const AGENT_COLUMNS = "id, full_name, email, team_id, role, status, hired_on";

const listAgents = defineListTool({
  name: "list_agents",
  description:
    "List service desk agents, ordered by id. Paginated: returns `agents` plus `page`, `per_page`, `total`, `has_more`.",
  filters: {
    team_id: optionalInt("Only agents of this team"),
    role: optionalChoice(["agent", "senior", "lead"], "Only agents with this role"),
    status: optionalChoice(["active", "inactive"], "Only active or only inactive agents"),
    email: z.string().optional().describe("Only the agent with this e-mail address (case-insensitive)"),
  },
  key: "agents",
  from: "agents",
  select: AGENT_COLUMNS,
  where: (input) => [
    ...equalTo(input, "team_id", "role", "status"),
    when(input.email?.trim(), "lower(email) = lower(?)"),
  ],
  orderBy: "id",
});

const getAgent = defineTool({
  name: "get_agent",
  description: "Get one agent, with their team's name and how many unresolved tickets are assigned to them.",
  kind: "read",
  inputSchema: z.object({ agent_id: z.number().int().describe("The agent id") }),
  handler: ({ agent_id }, { db }: ToolContext) => {
    const agent = requireById(db, "agent", agent_id);
    const team = requireById(db, "team", Number(agent.team_id));
    const open = getRow<{ count: number }>(
      db,
      "SELECT COUNT(*) AS count FROM tickets WHERE assignee_agent_id = ? AND status IN ('new', 'open', 'pending', 'on_hold')",
      agent_id,
    )!;
    return { agent: { ...agent, team_name: team.name, unresolved_ticket_count: open.count } };
  },
});

const listTeams = defineListTool({
  name: "list_teams",
  description:
    "List support teams (queues), ordered by id. Paginated: returns `teams` plus `page`, `per_page`, `total`, `has_more`.",
  key: "teams",
  from: "teams",
  select: "id, name, queue_email, tier_level",
  orderBy: "id",
});

const COMPANY_COLUMNS = "id, name, industry, support_tier, contract_start, account_manager";

const listCompanies = defineListTool({
  name: "list_companies",
  description:
    "List customer companies with their support tier, ordered by id. Paginated: returns `companies` plus `page`, `per_page`, `total`, `has_more`.",
  filters: {
    support_tier: optionalChoice(TIERS, "Only companies on this support tier"),
    name_contains: z
      .string()
      .optional()
      .describe("Only companies whose name contains this text (case-insensitive)"),
  },
  key: "companies",
  from: "companies",
  select: COMPANY_COLUMNS,
  where: (input) => [
    when(input.support_tier, "support_tier = ?"),
    when(input.name_contains ? `%${input.name_contains.toLowerCase()}%` : undefined, "lower(name) LIKE ?"),
  ],
  orderBy: "id",
});

const getCompany = defineTool({
  name: "get_company",
  description:
    "Get one customer company, with its support tier and its contacts (customers who raise tickets).",
  kind: "read",
  inputSchema: z.object({ company_id: z.number().int().describe("The company id") }),
  handler: ({ company_id }, { db }: ToolContext) => {
    const company = requireRow(
      db,
      `SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = ?`,
      [company_id],
      `company ${company_id} not found; use list_companies to find company ids`,
    );
    const contacts = allRows(
      db,
      "SELECT id, full_name, email, job_title FROM customers WHERE company_id = ? ORDER BY id",
      company_id,
    );
    return { company: { ...company, contacts } };
  },
});

const ASSET_COLUMNS =
  "id, asset_tag, company_id, asset_type, model, serial_number, purchased_on, warranty_expires_on, status";

const listAssets = defineListTool({
  name: "list_assets",
  description:
    "List customer assets (devices under management), ordered by id. Paginated: returns `assets` plus `page`, `per_page`, `total`, `has_more`.",
  filters: {
    company_id: optionalInt("Only assets of this company"),
    asset_type: z
      .enum(["laptop", "desktop", "server", "printer", "switch", "firewall", "phone"])
      .optional()
      .describe("Only assets of this type"),
    status: z
      .enum(["in_service", "in_repair", "replacement_pending", "retired"])
      .optional()
      .describe("Only assets in this lifecycle status"),
    asset_tag: z.string().optional().describe("Only the asset with this tag, e.g. 'NB-40123'"),
  },
  key: "assets",
  from: "assets",
  select: ASSET_COLUMNS,
  where: (input) => [
    ...equalTo(input, "company_id", "asset_type", "status"),
    when(input.asset_tag?.trim(), "upper(asset_tag) = upper(?)"),
  ],
  orderBy: "id",
});

const getAsset = defineGetTool({
  name: "get_asset",
  description:
    "Get one asset with its purchase date, warranty expiry and lifecycle status, plus its company name.",
  input: { asset_id: z.number().int().describe("The asset id") },
  key: "asset",
  from: "assets JOIN companies ON companies.id = assets.company_id",
  select: `${ASSET_COLUMNS.split(", ")
    .map((column) => `assets.${column}`)
    .join(", ")}, companies.name AS company_name`,
  idColumn: "assets.id",
  notFound: (assetId) => `asset ${assetId} not found; use list_assets to find asset ids`,
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
    const ticket = requireById(db, "ticket", ticket_id);
    if (!UNRESOLVED.includes(String(ticket.status))) {
      throw new ToolFailure(
        `ticket ${ticket_id} is ${String(ticket.status)}; only unresolved tickets can be assigned`,
      );
    }
    const agent = requireById(db, "agent", agent_id);
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
    cachedStatement(db, "UPDATE tickets SET assignee_agent_id = ?, updated_at = ? WHERE id = ?").run(
      agent_id,
      now,
      ticket_id,
    );
    const previous = ticket.assignee_agent_id === null ? null : String(ticket.assignee_agent_id);
    insertEvent(db, ticket_id, "assigned", null, previous, String(agent_id), note || null);
    return ticketSummary(db, ticket_id);
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
    const ticket = requireById(db, "ticket", ticket_id);
    if (!UNRESOLVED.includes(String(ticket.status))) {
      throw new ToolFailure(
        `ticket ${ticket_id} is ${String(ticket.status)}; only unresolved tickets can be escalated`,
      );
    }
    requireById(db, "team", team_id);
    const now = deskNow(db);
    cachedStatement(
      db,
      "UPDATE tickets SET team_id = ?, assignee_agent_id = NULL, escalation_level = escalation_level + 1, updated_at = ? WHERE id = ?",
    ).run(team_id, now, ticket_id);
    insertEvent(db, ticket_id, "escalated", null, String(ticket.team_id), String(team_id), reason);
    return ticketSummary(db, ticket_id);
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
    const ticket = requireById(db, "ticket", ticket_id);
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
    cachedStatement(
      db,
      `UPDATE tickets SET status = @status, updated_at = @now,
         first_response_at = COALESCE(first_response_at, @now),
         resolved_at = CASE WHEN @status = 'resolved' THEN @now WHEN @status = 'open' THEN NULL ELSE resolved_at END,
         resolution_code = CASE WHEN @status = 'resolved' THEN @code WHEN @status = 'open' THEN NULL
           ELSE resolution_code END,
         closed_at = CASE WHEN @status = 'closed' THEN @now ELSE closed_at END
       WHERE id = @id`,
    ).run({ status, now, code: resolution_code ?? null, id: ticket_id });
    const actor = ticket.assignee_agent_id === null ? null : Number(ticket.assignee_agent_id);
    insertEvent(db, ticket_id, "status_change", actor, current, status, note || null);
    return ticketSummary(db, ticket_id);
  },
});

const addTicketComment = defineTool({
  name: "add_ticket_comment",
  description: "Add an internal comment to a ticket's history. Returns the new event.",
  kind: "write",
  inputSchema: z.object({
    ticket_id: z.number().int().describe("The ticket to comment on"),
    body: z.string().min(1).describe("The comment text"),
    agent_id: optionalInt("The agent writing the comment, if any"),
  }),
  handler: ({ ticket_id, body, agent_id }, { db }: ToolContext) => {
    requireById(db, "ticket", ticket_id);
    if (agent_id !== undefined) requireById(db, "agent", agent_id);
    const eventId = insertEvent(db, ticket_id, "comment", agent_id ?? null, null, null, body);
    cachedStatement(db, "UPDATE tickets SET updated_at = ? WHERE id = ?").run(deskNow(db), ticket_id);
    return {
      event: getRow(
        db,
        "SELECT id, ticket_id, event_type, actor_agent_id, created_at, body FROM ticket_events WHERE id = ?",
        eventId,
      ),
    };
  },
});

/**
 * The reporting API reads a replica and is rate limited: every second page of an export answers 429 the
 * first time it is asked for.
 */
const exportStatusChanges = withTransientFailures(
  defineTool({
    name: "export_status_changes",
    description:
      "Reporting API: every ticket status change in a time range, oldest first, with the ticket's current team, priority and creation time. Paginated: returns `changes` [{event_id, ticket_id, changed_at, from_status, to_status, ticket_team_id, ticket_priority, ticket_created_at}] plus `page`, `per_page`, `total`, `has_more`. The API is rate limited: a 429 answer means retry the same call.",
    kind: "read",
    inputSchema: z.object({
      changed_from: timestampSchema.describe("Changes at or after this UTC date/timestamp"),
      changed_to: timestampSchema.describe("Changes strictly before this UTC date/timestamp"),
      ...pagingFields,
    }),
    handler: ({ changed_from, changed_to, page, per_page }, { db }: ToolContext) =>
      listPage(db, {
        key: "changes",
        from: "ticket_events e JOIN tickets t ON t.id = e.ticket_id",
        select: `e.id AS event_id, e.ticket_id, e.created_at AS changed_at, e.from_value AS from_status,
          e.to_value AS to_status, t.team_id AS ticket_team_id, t.priority AS ticket_priority,
          t.created_at AS ticket_created_at`,
        where: [
          "e.event_type = 'status_change'",
          when(changed_from && timestampBound(changed_from), "e.created_at >= ?"),
          when(changed_to && timestampBound(changed_to), "e.created_at < ?"),
        ],
        orderBy: "e.created_at, e.id",
        page,
        perPage: per_page,
      }),
  }),
  {
    when: (input) => input.page % 2 === 0,
    message: "429 Too Many Requests: reporting API rate limit reached, retry the same call",
  },
);

/**
 * The vendors' warranty portal sits behind a gateway that times out on cold records and reports it in the
 * body: the first lookup of a tag whose number ends in 1, 4 or 7 answers `status: "error"`.
 */
const getVendorWarranty = withSilentFailures(
  defineTool({
    name: "get_vendor_warranty",
    description:
      "Look up an asset's warranty in the hardware vendor's portal (includes extended plans bought after purchase, which the asset register does not show). Returns `status` ('ok'), `asset_tag`, `vendor`, `plan` and `coverage_ends_on` (last covered day). When the portal cannot answer, `status` is 'error' and `error` says why.",
    kind: "read",
    inputSchema: z.object({ asset_tag: z.string().min(1).describe("Asset tag, e.g. 'NB-40123'") }),
    handler: ({ asset_tag }, { db }: ToolContext) => {
      const tag = asset_tag.trim().toUpperCase();
      const warranty = requireRow(
        db,
        "SELECT asset_tag, vendor, plan, coverage_ends_on FROM vendor_warranties WHERE asset_tag = ?",
        [tag],
        `no vendor warranty record for asset '${asset_tag}'; check the tag with list_assets or get_asset`,
      );
      return { status: "ok", ...warranty };
    },
  }),
  {
    when: (input) => /[147]$/.test(input.asset_tag.trim()),
    body: (input) => ({
      status: "error",
      error: `vendor portal gateway timeout for ${input.asset_tag.trim().toUpperCase()}; try again`,
    }),
  },
);

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
  exportStatusChanges,
  getVendorWarranty,
] as DomainTool[];
