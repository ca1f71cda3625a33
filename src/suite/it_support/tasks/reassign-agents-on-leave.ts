import type Database from "better-sqlite3";
import {
  type Check,
  check,
  checkOtherTablesUnchanged,
  defineTask,
  getRow,
  type GenerateContext,
  mondayOf,
  type StateView,
} from "../../../envs/index.js";
import { addBusinessMinutes, minutesToIso } from "../business-time.js";
import { itSupportDomain } from "../domain.js";
import { planLeave } from "../leave-plan.js";
import { CATEGORIES, ESCALATION_TEAM_BY_CATEGORY, type Category, type Tier } from "../policy.js";
import { ORACLE_OPENING, flagOracle, snapshotFromHandbook, type FlagNearMiss } from "../oracle-cells.js";
import { TicketPlanter, readSnapshotMinutes, type TicketRow, holidayDates } from "../task-support.js";
import { checkTicketProblems, ticketWrites } from "../ticket-checks.js";
import { statusEvent, type TicketStatus } from "../ticket-records.js";
import { SUBJECTS } from "../vocabulary.js";
import { LEAVE_CALENDAR_PATH, parseLeaveCalendar, parseRota, rotaPath } from "../workspace-documents.js";

const DAY = 24 * 60;

/**
 * Makes sure every agent away today has at least two unresolved tickets, and that some of them are
 * waiting (pending, on_hold) so that "only open tickets" is visibly wrong. Only resolved history is
 * rewritten into backlog, so nobody else's workload changes.
 */
function prepare(context: GenerateContext): void {
  const { db, random, referenceDate } = context;
  const plant = new TicketPlanter(context);
  const holidays = holidayDates(context);
  const { snapshot } = plant;
  const plan = planLeave(db, context.seed, referenceDate, context.factors.rows);
  const countUnresolved = db.prepare(
    "SELECT COUNT(*) AS count FROM tickets WHERE assignee_agent_id = ? AND status IN ('new', 'open', 'pending', 'on_hold')",
  );
  const since = minutesToIso(snapshot - 40 * DAY);
  const companies = db.prepare("SELECT id, support_tier FROM companies ORDER BY id").all() as Array<{
    id: number;
    support_tier: Tier;
  }>;
  plan.awayToday.forEach(({ agentId }, index) => {
    const agent = plan.agents.find((candidate) => candidate.id === agentId);
    if (!agent) return;
    const existing = (countUnresolved.get(agentId) as { count: number }).count;
    const statuses: TicketStatus[] = [];
    if (index === 0) statuses.push("pending");
    if (index === 1) statuses.push("on_hold");
    while (existing + statuses.length < 2) statuses.push("open");
    for (const status of statuses) {
      const createdAt = addBusinessMinutes(snapshot - random.int(2, 12) * DAY, random.int(0, 300), holidays);
      const id = plant.reuseId(createdAt, "status IN ('resolved', 'closed') AND created_at >= ?", [since]);
      const enterprise = agent.teamName === "Enterprise Accounts";
      const ownCategories = CATEGORIES.filter(
        (category) => ESCALATION_TEAM_BY_CATEGORY[category] === agent.teamName,
      );
      const category: Category =
        ownCategories.length > 0
          ? random.pick(ownCategories)
          : random.pick(CATEGORIES.filter((item) => item !== "security"));
      const company = enterprise ? plant.company("platinum") : random.pick(companies);
      const serviceDesk = plant.team("Service Desk");
      const record = plant.record(id, {
        subject: random.pick(SUBJECTS[category]),
        category,
        priority: random.pick(["P2", "P3", "P3", "P4"] as const),
        companyId: company.id,
        teamId: agent.teamId,
        createdAt,
      });
      const firstResponse = createdAt + random.int(10, 60);
      record.status = status;
      record.firstResponseAt = firstResponse;
      record.assigneeAgentId = agentId;
      record.events.push(statusEvent(firstResponse, "new", "open", agentId));
      if (enterprise) {
        record.escalationLevel = 1;
        record.events.push({
          type: "escalated",
          actorAgentId: null,
          at: firstResponse + 30,
          fromValue: String(serviceDesk),
          toValue: String(agent.teamId),
          body: "Platinum customer: Enterprise Accounts owns the ticket.",
        });
      }
      if (status !== "open") record.events.push(statusEvent(firstResponse + 240, "open", status, agentId));
      plant.write(record);
    }
  });
}

/** Ticket id -> the agent id who must take it over, per the handbook's leave-coverage rule. */
export function expectedReassignments(state: StateView): Map<number, number> {
  const db = state.db;
  const today = minutesToIso(readSnapshotMinutes(db)).slice(0, 10);
  const entries = parseLeaveCalendar(state.readFile(LEAVE_CALENDAR_PATH));
  const current = entries.filter((entry) => entry.startDate <= today && today <= entry.endDate);
  const awayEmails = new Set(current.map((entry) => entry.agentEmail.toLowerCase()));
  const rota = parseRota(state.readFile(rotaPath(mondayOf(today))));
  const agentIdByEmail = new Map(
    (db.prepare("SELECT id, email FROM agents").all() as Array<{ id: number; email: string }>).map((row) => [
      row.email.toLowerCase(),
      row.id,
    ]),
  );
  const teamNames = new Map(
    (db.prepare("SELECT id, name FROM teams").all() as Array<{ id: number; name: string }>).map((row) => [
      row.id,
      row.name,
    ]),
  );
  const ticketsOf = db.prepare(
    "SELECT * FROM tickets WHERE assignee_agent_id = ? AND status IN ('new', 'open', 'pending', 'on_hold') ORDER BY id",
  );
  const expected = new Map<number, number>();
  for (const entry of current) {
    const agentId = agentIdByEmail.get(entry.agentEmail.toLowerCase());
    if (agentId === undefined) continue;
    const cover = entry.coverAgentEmail.toLowerCase();
    for (const ticket of ticketsOf.all(agentId) as TicketRow[]) {
      const onCall = rota.get(teamNames.get(ticket.team_id) ?? "")?.primaryEmail.toLowerCase() ?? "";
      const successor = cover !== "" && !awayEmails.has(cover) ? cover : onCall;
      const successorId = agentIdByEmail.get(successor);
      if (successorId !== undefined) expected.set(ticket.id, successorId);
    }
  }
  return expected;
}

function verifyReassignments(
  initial: Database.Database,
  final: Database.Database,
  expected: Map<number, number>,
): Check[] {
  const writes = ticketWrites(initial, final, expected.keys());
  const assigneeBefore = (id: number): string =>
    String(getRow(initial, "SELECT assignee_agent_id FROM tickets WHERE id = ?", id)?.assignee_agent_id);
  const problems = writes.problems(
    (id) => `ticket ${id} still with agent ${assigneeBefore(id)} (expected agent ${expected.get(id)})`,
    (id, _before, after) =>
      after.assignee_agent_id !== expected.get(id)
        ? [
            `ticket ${id} assigned to agent ${String(after.assignee_agent_id)}, expected agent ${expected.get(id)}`,
          ]
        : [],
    ["status", "team_id", "escalation_level", "priority", "resolved_at"],
  );
  const stray = writes.strayEvents;
  const { removed, changed } = writes.events;
  return [
    checkTicketProblems(
      "reassigned-tickets",
      problems,
      `all ${expected.size} tickets of absent agents reassigned correctly`,
    ),
    writes.nothingElse("reassigned"),
    check(
      "history-consistent",
      stray.length === 0 && removed.length === 0 && changed.length === 0,
      stray.length === 0
        ? "history only grew for the reassigned tickets"
        : `unexpected events on tickets ${stray.map((event) => String(event.ticket_id)).join(", ")}`,
    ),
    checkOtherTablesUnchanged(initial, final, ["tickets", "ticket_events"]),
  ];
}

/** The near-misses, each the oracle below with one switch on. */
const NEAR_MISSES: FlagNearMiss[] = [
  [
    "trusts-cover-on-leave",
    "trustCover",
    "Hands tickets to the named cover even when the cover is on leave too.",
  ],
  [
    "open-status-only",
    "openOnly",
    "Only moves tickets in status open, leaving pending and on_hold tickets with the absent agent.",
  ],
  [
    "end-date-exclusive",
    "endExclusive",
    "Treats the leave end date as exclusive, missing agents whose leave ends today.",
  ],
  [
    "secondary-on-call",
    "secondaryOnCall",
    "Falls back to the secondary on-call agent instead of the primary.",
  ],
  [
    "lead-fallback",
    "leadFallback",
    "Falls back to the team lead instead of the rota's primary on-call agent.",
  ],
];

function cells(flags: string): string[] {
  return [
    `${ORACLE_OPENING}
leave_rows = list(csv.DictReader(io.StringIO(read_text("staff/leave-calendar.csv"))))
print(handbook)`,
    `${flags}

${snapshotFromHandbook()}
today = now.date().isoformat()
monday = (now.date() - timedelta(days=now.weekday())).isoformat()
rota_text = read_text(f"rota/on-call-{monday}.md")
on_call = {}
for team, primary, secondary in re.findall(r"^\\| ([^|]+?) \\| [^|<]+<([^>]+)> \\| [^|<]+<([^>]+)> \\|$", rota_text, re.M):
    on_call[team] = secondary if SECONDARY_ON_CALL else primary
def on_leave(row):
    return row["start_date"] <= today and (today < row["end_date"] if END_EXCLUSIVE else today <= row["end_date"])
away = [row for row in leave_rows if on_leave(row)]
away_emails = {row["agent_email"].lower() for row in away}
agents = fetch_all("list_agents", "agents")
by_email = {agent["email"].lower(): agent for agent in agents}
teams = {team["id"]: team["name"] for team in fetch_all("list_teams", "teams")}
leads = {agent["team_id"]: agent for agent in agents if agent["role"] == "lead"}
print(monday, on_call)
print([(row["agent_email"], row["start_date"], row["end_date"], row["cover_agent_email"]) for row in away])`,
    `moves = []
for row in away:
    agent = by_email[row["agent_email"].lower()]
    tickets = fetch_all("list_tickets", "tickets", assignee_agent_id=agent["id"],
                        status="open" if OPEN_ONLY else "unresolved")
    cover = row["cover_agent_email"].lower()
    for ticket in tickets:
        if cover and (TRUST_COVER or cover not in away_emails):
            successor = by_email[cover]["id"]
        elif LEAD_FALLBACK:
            successor = leads[ticket["team_id"]]["id"]
        else:
            successor = by_email[on_call[teams[ticket["team_id"]]].lower()]["id"]
        moves.append((ticket["id"], agent["id"], successor))
for ticket_id, old, new in moves:
    result = tools.assign_ticket(ticket_id=ticket_id, agent_id=new, note=f"Agent {old} on leave today; coverage per leave calendar")
    print(ticket_id, old, "->", new, result["ticket"]["status"])`,
    `print("done")`,
  ];
}

export const reassignAgentsOnLeaveTask = defineTask({
  id: "it_support.reassign-agents-on-leave",
  domain: itSupportDomain,
  summary:
    "Reassign every unresolved ticket of agents on leave today to their cover, or to the team's primary on-call agent when the cover is missing or also away.",
  instruction:
    "Several agents are off today. Following the leave-coverage rules in the service desk handbook, reassign the unresolved tickets of everyone on leave today (as of the data snapshot) to whoever the rules say should take them. Don't touch anything else. Reply 'done' when finished.",
  tools: ["list_agents", "get_agent", "list_teams", "list_tickets", "get_ticket", "assign_ticket"],
  prepare,
  verify: ({ initial, final }): Check[] =>
    verifyReassignments(initial.db, final.db, expectedReassignments(initial)),
  ...flagOracle(NEAR_MISSES, cells),
});
