import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import {
  allRows,
  defineGetTool,
  defineListTool,
  getRow,
  insertRow,
  isoDateSchema,
  requireEntity,
  requireRow,
  updateEntity,
  when,
  withSilentFailures,
  withTransientFailures,
  optionalChoice,
  optionalDate,
  optionalText,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { NOW } from "./clock.js";
import { actionItemId, engineerId, incidentId, overrideId, pageId } from "./ids.js";
import { LOG_DATES, LOG_PAGE_LINES, SEVERITIES, TEAMS } from "./world.js";

const serviceSchema = z.string().regex(/^[a-z][a-z0-9-]+$/, "expected a service name like checkout-api");
const utcSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, "expected a UTC timestamp like 2025-07-05T01:00:00Z");

const listServices = defineListTool({
  name: "list_services",
  description:
    "List the service catalog: service name, owning team, tier (1 most critical) and runtime, ordered by name. Paginated: returns `services`, `page`, `per_page`, `total`, `has_more`.",
  key: "services",
  from: "services",
  orderBy: "service",
});

const listEngineers = defineListTool({
  name: "list_engineers",
  description:
    "List engineers (id, name, chat handle without the @, e-mail, team), ordered by id. Paginated: returns `engineers`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    team: optionalChoice(TEAMS, "Only engineers of this team"),
    handle: optionalText("Only the engineer with this handle (without the @)"),
  },
  key: "engineers",
  from: "engineers",
  where: ({ team, handle }) => [when(team, "team = ?"), when(handle?.replace(/^@/, ""), "handle = ?")],
  orderBy: "engineer_id",
});

const PAGE_STATUS =
  "CASE WHEN resolved_at IS NOT NULL THEN 'resolved' WHEN acked_at IS NOT NULL THEN 'acknowledged' ELSE 'triggered' END";

const listPages = defineListTool({
  name: "list_pages",
  description:
    "List pages (alerts that paged someone) matching all given filters, ordered by page id (the order they fired). Times are UTC. Summaries only: acknowledgement and resolution times are on get_page. `assigned_to` is an engineer id or null. Paginated: returns `pages`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    service: serviceSchema.optional().describe("Only pages of this service"),
    severity: optionalChoice(SEVERITIES, "Only pages of this severity"),
    alert_name: optionalText("Only pages of this alert, e.g. HighErrorRate"),
    fired_from: optionalDate("Only pages fired on or after this UTC day, YYYY-MM-DD"),
    fired_to: optionalDate("Only pages fired on or before this UTC day, YYYY-MM-DD"),
    unassigned: z.boolean().optional().describe("true: only pages without an assignee"),
  },
  key: "pages",
  from: "pages",
  select: `page_id, service, alert_name, severity, fired_at, ${PAGE_STATUS} AS status, assigned_to`,
  where: (input) => [
    when(input.service, "service = ?"),
    when(input.severity, "severity = ?"),
    when(input.alert_name, "alert_name = ?"),
    when(input.fired_from, "substr(fired_at, 1, 10) >= ?"),
    when(input.fired_to, "substr(fired_at, 1, 10) <= ?"),
    input.unassigned === true ? "assigned_to IS NULL" : null,
  ],
  orderBy: "page_id",
});

const getPage = defineGetTool({
  name: "get_page",
  description:
    'Get one page in full: fired, acknowledged and resolved times (UTC; null when it did not happen), who acknowledged, the assignee and the alert summary. Returns `page`; when the replica times out it returns `status` "error" and no page instead (ask again).',
  input: { page_id: pageId.schema("The page") },
  key: "page",
  from: "pages",
  select: `*, ${PAGE_STATUS} AS status`,
  notFound: pageId,
});

const assignPage = defineTool({
  name: "assign_page",
  description: "Set the assignee of a page (the engineer responsible for it). Returns the updated `page`.",
  kind: "write",
  inputSchema: z.object({
    page_id: pageId.schema("The page"),
    engineer_id: engineerId.schema("The engineer"),
  }),
  handler: ({ page_id, engineer_id }, { db }: ToolContext) => {
    requireEntity(db, "pages", pageId, page_id);
    requireEntity(db, "engineers", engineerId, engineer_id);
    return { page: updateEntity(db, "pages", pageId, page_id, { assigned_to: engineer_id }) };
  },
});

const listDeploys = defineListTool({
  name: "list_deploys",
  description:
    "List deploys matching all given filters, newest first. `deployed_at` is printed by the deploy system in the deployer's local time with its UTC offset; `deployed_by` is a handle. Paginated: returns `deploys`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    service: serviceSchema.optional().describe("Only deploys of this service"),
    date_from: optionalDate("Only deploys on or after this UTC day, YYYY-MM-DD"),
    date_to: optionalDate("Only deploys on or before this UTC day, YYYY-MM-DD"),
  },
  key: "deploys",
  from: "deploys",
  select: "deploy_id, service, version, deployed_at, deployed_by, change_summary",
  where: { service: "=", date_from: "utc_day >= ?", date_to: "utc_day <= ?" },
  orderBy: "deploy_id DESC",
});

const listIncidents = defineListTool({
  name: "list_incidents",
  description:
    "List incidents matching all given filters, ordered by incident id. `status` is triggered (nobody acknowledged yet), acknowledged or resolved; `escalated_to` is an engineer id or null. The timeline is on get_incident. Paginated: returns `incidents`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["triggered", "acknowledged", "resolved"], "Only incidents in this status"),
    severity: optionalChoice(SEVERITIES, "Only incidents of this severity"),
    service: serviceSchema.optional().describe("Only incidents of this service"),
  },
  key: "incidents",
  from: "incidents",
  select: "incident_id, service, severity, title, status, page_id, opened_at, escalated_to, resolved_at",
  where: { status: "=", severity: "=", service: "=" },
  orderBy: "incident_id",
});

const getIncident = defineGetTool({
  name: "get_incident",
  description:
    "Get one incident with its free-text `timeline` (one entry per line, as responders and the bot wrote them, each in its writer's time zone) and its structured `events`. Returns `incident`, `events`.",
  input: { incident_id: incidentId.schema("The incident") },
  key: "incident",
  from: "incidents",
  notFound: incidentId,
  related: {
    events: "SELECT at, kind, actor, note FROM incident_events WHERE incident_id = ? ORDER BY event_id",
  },
});

const escalateIncident = defineTool({
  name: "escalate_incident",
  description: `Escalate a triggered incident to an engineer (the time of escalation is now, ${NOW}). An incident is escalated at most once. Returns the updated \`incident\`.`,
  kind: "write",
  inputSchema: z.object({
    incident_id: incidentId.schema("The incident"),
    engineer_id: engineerId.schema("Who it escalates to"),
  }),
  handler: ({ incident_id, engineer_id }, { db }: ToolContext) => {
    const incident = requireEntity(db, "incidents", incidentId, incident_id);
    requireEntity(db, "engineers", engineerId, engineer_id);
    if (incident.status !== "triggered")
      throw new ToolFailure(
        `incident ${incident_id} is ${String(incident.status)}; only triggered incidents are escalated`,
      );
    if (incident.escalated_to !== null)
      throw new ToolFailure(
        `incident ${incident_id} was already escalated to ${String(incident.escalated_to)}`,
      );
    updateEntity(db, "incidents", incidentId, incident_id, { escalated_to: engineer_id, escalated_at: NOW });
    insertRow(db, "incident_events", {
      incident_id,
      at: NOW,
      kind: "escalated",
      actor: engineer_id,
      note: null,
    });
    const select =
      "SELECT incident_id, status, escalated_to, escalated_at FROM incidents WHERE incident_id = ?";
    return { incident: getRow(db, select, incident_id) };
  },
});

const listActionItems = defineListTool({
  name: "list_action_items",
  description:
    "List postmortem action items in the tracker, ordered by id. Paginated: returns `action_items`, `page`, `per_page`, `total`, `has_more`.",
  filters: { incident_id: incidentId.schema("Only items of this incident").optional() },
  key: "action_items",
  from: "action_items",
  where: { incident_id: "=" },
  orderBy: "action_item_id",
});

const fileActionItem = defineTool({
  name: "file_action_item",
  description:
    'File a postmortem action item in the tracker (status open). Returns `action_item`; on a write conflict it returns `status` "error" and saves nothing (file it again).',
  kind: "write",
  inputSchema: z.object({
    incident_id: incidentId.schema("The incident the postmortem is about"),
    title: z.string().min(3).max(200).describe("What has to be done"),
    owner_id: engineerId.schema("The engineer who owns it"),
    due_date: isoDateSchema.describe("Due date, YYYY-MM-DD"),
  }),
  handler: ({ incident_id, title, owner_id, due_date }, { db }: ToolContext) => {
    requireEntity(db, "incidents", incidentId, incident_id);
    requireEntity(db, "engineers", engineerId, owner_id);
    const row = { action_item_id: actionItemId.next(db, "action_items"), incident_id, title: title.trim() };
    return { action_item: insertRow(db, "action_items", { ...row, owner_id, due_date, status: "open" }) };
  },
});

const listOverrides = defineListTool({
  name: "list_overrides",
  description:
    "List the schedule overrides entered in the paging system (times UTC), ordered by id. Paginated: returns `overrides`, `page`, `per_page`, `total`, `has_more`.",
  filters: { team: optionalChoice(TEAMS, "Only overrides of this team") },
  key: "overrides",
  from: "schedule_overrides",
  where: { team: "=" },
  orderBy: "override_id",
});

const setScheduleOverride = defineTool({
  name: "set_schedule_override",
  description:
    "Enter a schedule override in the paging system: the engineer takes the team's role from `starts_at` until `ends_at` (UTC, e.g. 2025-07-05T01:00:00Z). Returns `override`.",
  kind: "write",
  inputSchema: z.object({
    team: z.enum(TEAMS).describe("The team"),
    role: z.enum(["primary", "secondary"]).describe("The role covered"),
    engineer_id: engineerId.schema("The engineer who covers"),
    starts_at: utcSchema.describe("Start, UTC"),
    ends_at: utcSchema.describe("End, UTC"),
  }),
  handler: ({ team, role, engineer_id, starts_at, ends_at }, { db }: ToolContext) => {
    const engineer = requireEntity(db, "engineers", engineerId, engineer_id);
    if (engineer.team !== team)
      throw new ToolFailure(`${engineer_id} is on team ${String(engineer.team)}, not ${team}`);
    if (ends_at <= starts_at)
      throw new ToolFailure(`ends_at ${ends_at} must be after starts_at ${starts_at}`);
    const row = {
      override_id: overrideId.next(db, "schedule_overrides"),
      team,
      role,
      engineer_id,
      starts_at,
      ends_at,
    };
    return { override: insertRow(db, "schedule_overrides", row) };
  },
});

const LOG_PAGE =
  "SELECT text FROM log_lines WHERE service = ? AND log_date = ? AND line_no > ? ORDER BY line_no LIMIT ?";

const fetchLogs = defineTool({
  name: "fetch_logs",
  description: `Fetch one page (${LOG_PAGE_LINES} raw lines, oldest first) of a service's log for one UTC day. The log store keeps ${LOG_DATES[0]} to ${LOG_DATES[LOG_DATES.length - 1]}. Lines are whatever the service wrote: nginx access lines, JSON events, syslog lines, multi-line stack traces (a trace may continue on the next page). Returns \`service\`, \`date\`, \`page\`, \`lines\`, \`has_more\`; a query that timed out returns \`status\` "partial" (fetch the page again).`,
  kind: "read",
  inputSchema: z.object({
    service: serviceSchema.describe("The service"),
    date: isoDateSchema.describe("The UTC day, YYYY-MM-DD"),
    page: z.number().int().min(1).default(1).describe("Page number, starting at 1"),
  }),
  handler: ({ service, date, page }, { db }: ToolContext) => {
    const missing = `service '${service}' not found; use list_services to find service names`;
    requireRow(db, "SELECT service FROM services WHERE service = ?", [service], missing);
    if (!(LOG_DATES as readonly string[]).includes(date))
      throw new ToolFailure(`no logs for ${date}; the log store keeps ${LOG_DATES.join(", ")}`);
    const after = (page - 1) * LOG_PAGE_LINES;
    const rows = allRows<{ text: string }>(db, LOG_PAGE, service, date, after, LOG_PAGE_LINES + 1);
    const lines = rows.slice(0, LOG_PAGE_LINES).map((row) => row.text);
    return { service, date, page, lines, has_more: rows.length > LOG_PAGE_LINES };
  },
});

/** Page details the replica times out on (once each); the generator makes one of them a late page. */
export const replicaTimesOut = (id: string): boolean => Number(id.slice(3)) % 6 === 4;
/** Action item titles the tracker answers with a write conflict (once each); the generator plants one. */
export const trackerConflicts = (title: string): boolean => title.length % 2 === 0;

/** The oncall domain's tools, in the order agents see them. */
export const oncallTools: DomainTool[] = [
  listServices,
  listEngineers,
  // The pager's API is rate limited: the first request for a listing's first page gets a 429.
  withTransientFailures(listPages, {
    when: (input) => input.page === 1,
    message: "429 Too Many Requests: list_pages is rate limited, retry the same call",
  }),
  // Page details come from a replica that sometimes times out and says so in the body.
  withSilentFailures(getPage, { when: (input) => replicaTimesOut(input.page_id) }),
  assignPage,
  withTransientFailures(listDeploys, { when: (input) => input.service === "payments-api" }),
  listIncidents,
  withTransientFailures(getIncident, { when: (input) => Number(input.incident_id.slice(4)) % 5 === 2 }),
  escalateIncident,
  listActionItems,
  // The tracker answers a write conflict with an error body and saves nothing; the same call then succeeds.
  withSilentFailures(fileActionItem, {
    when: (input) => trackerConflicts(input.title),
    body: (input) => ({
      status: "error",
      error: `write conflict on incident ${input.incident_id}: action item not saved, retry`,
    }),
  }),
  listOverrides,
  withTransientFailures(setScheduleOverride, {
    when: (input) => input.role === "primary",
    message: "429 Too Many Requests: set_schedule_override is rate limited, retry the same call",
  }),
  // A log shard is slow on the 29th: page 2 of that day first comes back empty and marked partial.
  withSilentFailures(fetchLogs, {
    when: (input) => input.date === LOG_DATES[1] && input.page === 2,
    body: (input) => ({
      service: input.service,
      date: input.date,
      page: input.page,
      status: "partial",
      error: "query timed out on shard logs-3; results are incomplete, retry",
      lines: [],
      has_more: false,
    }),
  }),
] as DomainTool[];
