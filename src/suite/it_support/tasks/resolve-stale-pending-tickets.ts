import type Database from "better-sqlite3";
import {
  check,
  checkOtherTablesUnchanged,
  defineTask,
  type Check,
  type GenerateContext,
} from "../../../envs/index.js";
import {
  businessMinutesBetween,
  isoToMinutes,
  minutesToIso,
  subtractBusinessMinutes,
} from "../business-time.js";
import { itSupportDomain } from "../domain.js";
import {
  STALE_PENDING_BUSINESS_HOURS,
  STALE_PENDING_RESOLUTION_CODE,
  type Category,
  type Priority,
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
import { SUBJECTS } from "../vocabulary.js";

/**
 * A planted waiting ticket: its waiting status at the snapshot, the business minutes before the snapshot of
 * each entry into that status (the last one stays) and of its creation.
 */
type PlantedWait = [
  tier: Tier,
  priority: Priority,
  category: Category,
  status: TicketStatus,
  waitsSince: number[],
  ageMinutes: number,
];

/**
 * Plants waiting tickets on each edge of the stale-pending rule: long enough, waiting again only
 * recently (the clock restarts at the last entry into pending), platinum and P1 exceptions, exactly at
 * the limit, longer in calendar hours than in business hours, and a vendor hold (not covered).
 */
function prepare(context: GenerateContext): void {
  const { random } = context;
  const plant = new TicketPlanter(context);
  const { snapshot } = plant;
  const holidays = holidayDates(context);
  const limit = STALE_PENDING_BUSINESS_HOURS * 60;
  const planted: PlantedWait[] = [
    ["bronze", "P3", "software", "pending", [limit + 1200], limit + 1500],
    ["silver", "P2", "access", "pending", [limit + 600, 1200], limit + 2400],
    ["platinum", "P3", "email", "pending", [limit + 2000], limit + 2100],
    ["gold", "P1", "network", "pending", [limit + 1000], limit + 1100],
    ["silver", "P4", "hardware", "pending", [limit], limit + 300],
    ["gold", "P3", "software", "pending", [1800], 2000],
    ["bronze", "P4", "database", "on_hold", [limit + 1800], limit + 2000],
    ["silver", "P3", "access", "pending", [limit + 180], limit + 900],
  ];
  // More stale tickets at larger scales, so the clean-up grows with the queue.
  for (let index = 0; index < context.factors.rows; index += 1) {
    const waited = limit + random.int(60, 3000);
    planted.push([
      random.pick(["bronze", "silver", "gold"] as const),
      random.pick(["P2", "P3", "P4"] as const),
      random.pick(["software", "access", "email", "hardware"] as const),
      "pending",
      [waited],
      waited + random.int(30, 600),
    ]);
  }
  const serviceDesk = plant.team("Service Desk");
  const since = minutesToIso(snapshot - 60 * 24 * 60);
  for (const [tier, priority, category, status, waitsSince, ageMinutes] of planted) {
    const createdAt = subtractBusinessMinutes(snapshot, ageMinutes, holidays);
    const id = plant.reuseId(createdAt, "status IN ('resolved', 'closed') AND created_at >= ?", [since]);
    const company = plant.company(tier);
    const agent = plant.worker(serviceDesk);
    const record = plant.record(id, {
      subject: random.pick(SUBJECTS[category]),
      category,
      priority,
      companyId: company.id,
      teamId: serviceDesk,
      createdAt,
    });
    const firstResponse = createdAt + 15;
    record.status = status;
    record.firstResponseAt = firstResponse;
    record.assigneeAgentId = agent;
    record.events.push(statusEvent(firstResponse, "new", "open", agent));
    waitsSince.forEach((minutesAgo, index) => {
      const entered = subtractBusinessMinutes(snapshot, minutesAgo, holidays);
      record.events.push(statusEvent(entered, "open", status, agent));
      const next = waitsSince[index + 1];
      if (next !== undefined) {
        // The customer answered, the agent asked again: back to open, later pending again.
        const answered = subtractBusinessMinutes(snapshot, Math.round((minutesAgo + next) / 2), holidays);
        record.events.push(statusEvent(answered, status, "open", null));
      }
    });
    const lastWait = subtractBusinessMinutes(snapshot, waitsSince.at(-1) as number, holidays);
    const note = "Asked the customer for a screenshot of the error.";
    record.events.push(ticketEvent("comment", lastWait + 1, agent, { body: note }));
    plant.write(record);
  }
}

/** Pending tickets that the stale-pending rule resolves now. */
export function expectedStaleTickets(db: Database.Database, holidays: ReadonlySet<string>): number[] {
  const snapshot = readSnapshotMinutes(db);
  const tickets = db
    .prepare(
      `SELECT tickets.*, companies.support_tier FROM tickets JOIN companies ON companies.id = tickets.company_id
       WHERE status = 'pending' ORDER BY tickets.id`,
    )
    .all() as Array<TicketRow & { support_tier: Tier }>;
  const lastPending = db.prepare(
    `SELECT MAX(created_at) AS at FROM ticket_events WHERE ticket_id = ? AND event_type = 'status_change' AND to_value = 'pending'`,
  );
  return tickets
    .filter((ticket) => ticket.support_tier !== "platinum" && ticket.priority !== "P1")
    .filter((ticket) => {
      const entered = (lastPending.get(ticket.id) as { at: string | null }).at ?? ticket.created_at;
      return (
        businessMinutesBetween(isoToMinutes(entered), snapshot, holidays) > STALE_PENDING_BUSINESS_HOURS * 60
      );
    })
    .map((ticket) => ticket.id);
}

function verifyResolutions(
  initial: Database.Database,
  final: Database.Database,
  expected: number[],
): Check[] {
  const writes = ticketWrites(initial, final, expected);
  const code = STALE_PENDING_RESOLUTION_CODE;
  const problems = writes.problems(
    (id) => `ticket ${id} is still pending`,
    (id, _before, after) => {
      const found: string[] = [];
      if (after.status !== "resolved")
        found.push(`ticket ${id} is ${String(after.status)}, expected resolved`);
      if (after.resolution_code !== code)
        found.push(`ticket ${id} has resolution code ${String(after.resolution_code)}, expected ${code}`);
      if (after.resolved_at === null) found.push(`ticket ${id} has no resolved_at`);
      return found;
    },
    ["assignee_agent_id", "team_id", "escalation_level", "priority", "created_at"],
  );
  const stray = writes.strayEvents;
  const resolvedEvents = new Set(
    writes.events.added
      .filter((event) => event.event_type === "status_change" && event.to_value === "resolved")
      .map((event) => Number(event.ticket_id)),
  );
  const unrecorded = expected.filter((id) => !resolvedEvents.has(id));
  const { removed, changed } = writes.events;
  return [
    checkTicketProblems(
      "stale-tickets-resolved",
      problems,
      `all ${expected.length} stale pending tickets resolved`,
    ),
    writes.nothingElse("resolved"),
    check(
      "history-recorded",
      unrecorded.length === 0 && stray.length === 0 && removed.length === 0 && changed.length === 0,
      unrecorded.length === 0 && stray.length === 0
        ? "each resolution is recorded in the ticket history"
        : `missing resolution events for [${unrecorded.join(", ")}]; events on other tickets: [${stray.map((event) => String(event.ticket_id)).join(", ")}]`,
    ),
    checkOtherTablesUnchanged(initial, final, ["tickets", "ticket_events"]),
  ];
}

/** The near-misses, each the oracle below with one switch on. */
const NEAR_MISSES: FlagNearMiss[] = [
  [
    "clock-from-first-pending",
    "fromFirstPending",
    "Measures the wait from the first time the ticket went pending, not the last.",
  ],
  ["calendar-hours", "calendarHours", "Counts calendar hours instead of business hours."],
  ["ignores-exceptions", "ignoreExceptions", "Also resolves platinum customers' and P1 tickets."],
  ["resolves-at-limit", "resolveAtLimit", "Resolves tickets that waited exactly the limit."],
  ["includes-on-hold", "includeOnHold", "Also resolves tickets on hold with a vendor."],
];

function cells(flags: string): string[] {
  return [
    `${ORACLE_OPENING}
holidays = {row["date"] for row in csv.DictReader(io.StringIO(read_text("calendars/holidays.csv")))}
print(handbook)`,
    `${flags}

${snapshotFromHandbook()}
limit = float(re.search(r"more than ([0-9.]+) business hours", handbook).group(1)) * 60
code = re.search(r"resolve it with resolution code \`([a-z_]+)\`", handbook).group(1)
tier_of = {company["id"]: company["support_tier"] for company in fetch_all("list_companies", "companies")}
waiting = fetch_all("list_tickets", "tickets", status="pending")
if INCLUDE_ON_HOLD:
    waiting += fetch_all("list_tickets", "tickets", status="on_hold")
print(limit, code, len(waiting), "waiting tickets")`,
    `stale = []
for ticket in waiting:
    if not IGNORE_EXCEPTIONS and (tier_of[ticket["company_id"]] == "platinum" or ticket["priority"] == "P1"):
        continue
    events = fetch_all("list_ticket_events", "events", ticket_id=ticket["id"], event_type="status_change")
    entries = [ts(event["created_at"]) for event in events if event["to_value"] == ticket["status"]]
    since = (entries[0] if FROM_FIRST_PENDING else entries[-1]) if entries else ts(ticket["created_at"])
    waited = (now - since).total_seconds() / 60 if CALENDAR_HOURS else business_minutes(since, now, holidays)
    if waited > limit or (RESOLVE_AT_LIMIT and waited == limit):
        stale.append((ticket["id"], waited))
for ticket_id, waited in stale:
    result = tools.update_ticket_status(ticket_id=ticket_id, status="resolved", resolution_code=code,
                                        note="No response from customer")
    print(ticket_id, round(waited / 60, 1), result["ticket"]["status"])`,
    `print(json.dumps({"resolved_ticket_ids": sorted(ticket_id for ticket_id, _ in stale)}))`,
  ];
}

export const resolveStalePendingTicketsTask = defineTask({
  id: "it_support.resolve-stale-pending-tickets",
  domain: itSupportDomain,
  summary:
    "Resolve pending tickets that have waited on the customer past the handbook's business-hours limit, with its exceptions and resolution code.",
  instruction:
    'Clean up the pending queue: apply the handbook\'s rule for stale pending tickets as of the data snapshot and resolve every ticket it covers, exactly as the rule says. Leave all other tickets as they are. Reply with only a JSON object {"resolved_ticket_ids": [ticket ids in ascending order]}.',
  tools: [...TICKET_HISTORY_TOOLS, "update_ticket_status"],
  prepare,
  verify: ({ initial, final, answer }): Check[] => {
    const holidays = readHolidays(initial);
    const expected = expectedStaleTickets(initial.db, holidays);
    const match = answer.match(/\[([^\]]*)\]/);
    const ids = match
      ? (match[1] ?? "")
          .split(",")
          .map((item) => Number(item.trim()))
          .filter((id) => id > 0)
      : null;
    return [
      ...verifyResolutions(initial.db, final.db, expected),
      checkAnswerTicketIds("resolved_ticket_ids", ids, expected, answer),
    ];
  },
  ...flagOracle(NEAR_MISSES, cells),
});
