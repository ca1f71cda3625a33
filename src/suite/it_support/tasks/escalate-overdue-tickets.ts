import type Database from "better-sqlite3";
import {
  check,
  checkOtherTablesUnchanged,
  defineTask,
  parseAnswerJson,
  type Check,
  type GenerateContext,
} from "../../../envs/index.js";
import { businessMinutesBetween, isoToMinutes, subtractBusinessMinutes } from "../business-time.js";
import { itSupportDomain } from "../domain.js";
import {
  escalationTeamFor,
  escalationThresholdMinutes,
  type Category,
  type Priority,
  type TeamName,
  type Tier,
} from "../policy.js";
import { ORACLE_OPENING, flagOracle, snapshotFromHandbook, type FlagNearMiss } from "../oracle-cells.js";
import {
  TicketPlanter,
  readSnapshotMinutes,
  type TicketRow,
  holidayDates,
  readHolidays,
  TICKET_HISTORY_TOOLS,
} from "../task-support.js";
import { checkAnswerTicketIds, checkTicketProblems, ticketWrites } from "../ticket-checks.js";
import { statusEvent, ticketEvent, type TicketStatus } from "../ticket-records.js";

/** A planted ticket; its age is in business minutes before the snapshot, `escalatedTo` once escalated. */
type PlantedOpenTicket = [
  tier: Tier,
  priority: Priority,
  category: Category,
  subject: string,
  status: TicketStatus,
  ageMinutes: number,
  escalatedTo?: TeamName,
];

/**
 * Plants open tickets on each edge of the escalation matrix: a platinum ticket past its halved
 * threshold, a pending ticket (never escalated for age), a ticket already escalated, a ticket younger
 * than its threshold in business hours but older in calendar hours, a platinum security ticket (goes to
 * Security Operations, not Enterprise Accounts), a ticket exactly at its threshold and a new P1.
 */
function prepare(context: GenerateContext): void {
  const plant = new TicketPlanter(context);
  const { snapshot } = plant;
  const holidays = holidayDates(context);
  const planted: PlantedOpenTicket[] = [
    ["platinum", "P3", "software", "CRM reports time out", "open", 720],
    ["bronze", "P3", "access", "Shared mailbox permissions", "pending", 2400],
    ["silver", "P2", "software", "Payroll export fails with error 500", "open", 1800, "Application Support"],
    ["gold", "P2", "network", "VPN drops every few minutes", "open", 300],
    ["platinum", "P2", "security", "Unusual sign-in from abroad", "open", 1200],
    ["silver", "P3", "hardware", "Docking station not detecting monitors", "open", 960],
    ["bronze", "P1", "email", "Outgoing mail stuck in outbox", "new", 200],
  ];
  const serviceDesk = plant.team("Service Desk");
  const recent = new Date((snapshot - 45 * 24 * 60) * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  for (const [tier, priority, category, subject, status, ageMinutes, escalatedTo] of planted) {
    const createdAt = subtractBusinessMinutes(snapshot, ageMinutes, holidays);
    const id = plant.reuseId(createdAt, "created_at >= ?", [recent]);
    const company = plant.company(tier);
    const record = plant.record(id, {
      subject,
      category,
      priority,
      companyId: company.id,
      teamId: serviceDesk,
      createdAt,
    });
    record.channel = "portal";
    record.status = status;
    if (status !== "new") {
      const agent = plant.worker(serviceDesk);
      const firstResponse = Math.min(createdAt + 20, snapshot - 1);
      record.firstResponseAt = firstResponse;
      record.assigneeAgentId = agent;
      record.events.push(statusEvent(firstResponse, "new", "open", agent));
      if (status === "pending")
        record.events.push(statusEvent(Math.min(firstResponse + 60, snapshot - 1), "open", "pending", agent));
      if (escalatedTo) {
        const target = plant.team(escalatedTo);
        const escalatedAt = Math.min(firstResponse + 90, snapshot - 2);
        const newAgent = plant.worker(target);
        const escalation = {
          fromValue: String(serviceDesk),
          toValue: String(target),
          body: "Needs L2 expertise.",
        };
        record.events.push(
          ticketEvent("escalated", escalatedAt, agent, escalation),
          ticketEvent("assigned", escalatedAt + 1, null, { toValue: String(newAgent) }),
        );
        record.teamId = target;
        record.assigneeAgentId = newAgent;
        record.escalationLevel = 1;
      }
    }
    plant.write(record);
  }
}

/** Ticket id -> the team id it must be escalated to, per the escalation matrix. */
export function expectedEscalations(
  db: Database.Database,
  holidays: ReadonlySet<string>,
): Map<number, number> {
  const snapshot = readSnapshotMinutes(db);
  const teamIds = new Map(
    (db.prepare("SELECT id, name FROM teams").all() as Array<{ id: number; name: string }>).map((row) => [
      row.name,
      row.id,
    ]),
  );
  const tickets = db
    .prepare(
      `SELECT tickets.*, companies.support_tier FROM tickets JOIN companies ON companies.id = tickets.company_id
       WHERE status IN ('new', 'open') AND escalation_level = 0 ORDER BY tickets.id`,
    )
    .all() as Array<TicketRow & { support_tier: Tier }>;
  const expected = new Map<number, number>();
  for (const ticket of tickets) {
    const age = businessMinutesBetween(isoToMinutes(ticket.created_at), snapshot, holidays);
    if (age > escalationThresholdMinutes(ticket.priority, ticket.support_tier)) {
      expected.set(
        ticket.id,
        teamIds.get(escalationTeamFor(ticket.category as Category, ticket.support_tier)) as number,
      );
    }
  }
  return expected;
}

function verifyEscalations(
  initial: Database.Database,
  final: Database.Database,
  expected: Map<number, number>,
): Check[] {
  const writes = ticketWrites(initial, final, expected.keys());
  const problems = writes.problems(
    (id) => `ticket ${id} was not escalated (expected team ${expected.get(id)})`,
    (id, before, after) => {
      const teamId = expected.get(id);
      const level = Number(before.escalation_level) + 1;
      return [
        ...(after.team_id !== teamId
          ? [`ticket ${id} went to team ${String(after.team_id)}, expected team ${teamId}`]
          : []),
        ...(after.escalation_level !== level
          ? [`ticket ${id} has escalation level ${String(after.escalation_level)}, expected ${level}`]
          : []),
        ...(after.assignee_agent_id !== null ? [`ticket ${id} should be unassigned in the new queue`] : []),
      ];
    },
    ["status", "priority", "category", "company_id", "created_at", "resolved_at"],
  );
  const strayEvents = writes.strayEvents.map(
    (event) => `${String(event.event_type)} on ticket ${String(event.ticket_id)}`,
  );
  const escalated = new Set(
    writes.events.added
      .filter((event) => event.event_type === "escalated")
      .map((event) => Number(event.ticket_id)),
  );
  const missingEvents = [...expected.keys()].filter((id) => !escalated.has(id));
  const { removed, changed } = writes.events;
  return [
    checkTicketProblems(
      "escalated-tickets",
      problems,
      `all ${expected.size} overdue tickets escalated to the right team`,
    ),
    writes.nothingElse("escalated"),
    check(
      "escalation-history",
      missingEvents.length === 0 && strayEvents.length === 0 && removed.length === 0 && changed.length === 0,
      missingEvents.length === 0 && strayEvents.length === 0
        ? "each escalation is recorded in the ticket history"
        : `missing escalation events for [${missingEvents.join(", ")}]; unexpected events: ${strayEvents.slice(0, 5).join(", ")}`,
    ),
    checkOtherTablesUnchanged(initial, final, ["tickets", "ticket_events"]),
  ];
}

/** The near-misses, each the oracle below with one switch on. */
const NEAR_MISSES: FlagNearMiss[] = [
  ["no-platinum-halving", "noPlatinumHalving", "Uses the normal thresholds for platinum customers."],
  ["includes-waiting-tickets", "includeWaiting", "Also escalates pending and on_hold tickets."],
  ["re-escalates", "ignoreEscalationLevel", "Escalates tickets that were already escalated once."],
  ["calendar-hours", "calendarHours", "Measures age in calendar hours instead of business hours."],
  [
    "platinum-security-to-enterprise",
    "platinumSecurityToEnterprise",
    "Sends platinum security tickets to Enterprise Accounts instead of Security Operations.",
  ],
  ["escalates-at-threshold", "escalateAtThreshold", "Escalates tickets exactly at their threshold."],
  ["answers-without-escalating", "skipWrites", "Reports the right tickets but never escalates them."],
];

function cells(flags: string): string[] {
  return [
    `${ORACLE_OPENING}
matrix = read_text("policies/escalation-matrix.md")
holidays = {row["date"] for row in csv.DictReader(io.StringIO(read_text("calendars/holidays.csv")))}
print(matrix)`,
    `${flags}

${snapshotFromHandbook()}
thresholds = {p: (float(a) * 60, float(b) * 60) for p, a, b in
              re.findall(r"\\| (P[1-4]) \\| ([0-9.]+) business hours \\| ([0-9.]+) business hours \\|", matrix)}
routing = dict(re.findall(r"\\| (network|hardware|software|access|email|security|database) \\| ([^|]+?) \\|", matrix))
team_ids = {team["name"]: team["id"] for team in fetch_all("list_teams", "teams")}
tier_of = {company["id"]: company["support_tier"] for company in fetch_all("list_companies", "companies")}
statuses = ["new", "open"] + (["pending", "on_hold"] if INCLUDE_WAITING else [])
candidates = []
for status in statuses:
    filters = {"status": status} if IGNORE_ESCALATION_LEVEL else {"status": status, "escalation_level": 0}
    candidates += fetch_all("list_tickets", "tickets", **filters)
print(thresholds, routing, len(candidates))`,
    `plan = []
for ticket in sorted(candidates, key=lambda t: t["id"]):
    tier = tier_of[ticket["company_id"]]
    normal, platinum = thresholds[ticket["priority"]]
    limit = normal if (tier != "platinum" or NO_PLATINUM_HALVING) else platinum
    created = ts(ticket["created_at"])
    age = (now - created).total_seconds() / 60 if CALENDAR_HOURS else business_minutes(created, now, holidays)
    if not (age > limit or (ESCALATE_AT_THRESHOLD and age == limit)):
        continue
    if ticket["category"] == "security" and not (tier == "platinum" and PLATINUM_SECURITY_TO_ENTERPRISE):
        team = "Security Operations"
    elif tier == "platinum":
        team = "Enterprise Accounts"
    else:
        team = routing[ticket["category"]]
    plan.append((ticket["id"], team, age, limit))
for ticket_id, team, age, limit in plan:
    print(ticket_id, team, age, limit)
    if not SKIP_WRITES:
        tools.escalate_ticket(ticket_id=ticket_id, team_id=team_ids[team],
                              reason=f"Age {age / 60:.1f} business hours exceeds the {limit / 60:g} h threshold")`,
    `print(json.dumps({"escalated_ticket_ids": [ticket_id for ticket_id, *_ in plan]}))`,
  ];
}

export const escalateOverdueTicketsTask = defineTask({
  id: "it_support.escalate-overdue-tickets",
  domain: itSupportDomain,
  summary:
    "Escalate every open ticket past its escalation threshold (business hours, halved for platinum) to the team the escalation matrix names, with its exceptions.",
  instruction:
    'Please run the escalation review on the queue as of the data snapshot time in the service desk handbook: escalate every ticket that the escalation matrix says must be escalated, to the team the matrix names, and leave everything else alone. Reply with only a JSON object {"escalated_ticket_ids": [ticket ids in ascending order]}.',
  tools: [...TICKET_HISTORY_TOOLS, "list_teams", "escalate_ticket"],
  prepare,
  verify: ({ initial, final, answer }): Check[] => {
    const holidays = readHolidays(initial);
    const expected = expectedEscalations(initial.db, holidays);
    const parsed = parseAnswerJson(answer) as { escalated_ticket_ids?: unknown } | null;
    const ids = Array.isArray(parsed?.escalated_ticket_ids) ? parsed.escalated_ticket_ids.map(Number) : null;
    const expectedIds = [...expected.keys()].sort((left, right) => left - right);
    return [
      ...verifyEscalations(initial.db, final.db, expected),
      checkAnswerTicketIds("escalated_ticket_ids", ids, expectedIds, answer),
    ];
  },
  ...flagOracle(NEAR_MISSES, cells),
});
