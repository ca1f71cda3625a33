import type Database from "better-sqlite3";
import {
  addDays,
  isWeekend,
  weekdayIndex,
  type Check,
  check,
  defineTask,
  type GenerateContext,
  parseAnswerJson,
} from "../../../envs/index.js";
import {
  addBusinessMinutes,
  businessMinutesBetween,
  isoToMinutes,
  previousMonthRange,
} from "../business-time.js";
import { itSupportDomain } from "../domain.js";
import { holidayCalendar } from "../generate.js";
import { RESOLUTION_TARGET_HOURS, usesCalendarClock, type Priority, type Tier } from "../policy.js";
import { ORACLE_OPENING, flagOracle, snapshotFromHandbook, type FlagNearMiss } from "../oracle-cells.js";
import {
  TicketPlanter,
  readSnapshotMinutes,
  type TicketRow,
  readHolidays,
  TICKET_HISTORY_TOOLS,
} from "../task-support.js";
import { checkNamedItems } from "../ticket-checks.js";
import { statusEvent, type TicketEventRecord } from "../ticket-records.js";

const DAY = 24 * 60;

/** A planted resolved ticket, with its extra status changes between the first response and the resolution. */
type PlantedTicket = [
  tier: Tier,
  priority: Priority,
  createdAt: number,
  resolvedAt: number,
  pauses?: TicketEventRecord[],
];

/**
 * Plants one resolved ticket per rule of the SLA policy that a careless reading gets wrong: a company
 * holiday inside the ticket's life, a customer-pending pause, a vendor on-hold period (which does not
 * pause), a resolution exactly at the target, and a 24x7-clock P1 over a weekend.
 */
function prepare(context: GenerateContext): void {
  const { db, referenceDate } = context;
  const plant = new TicketPlanter(context);
  const holidayDates = holidayCalendar(context.seed, referenceDate);
  const holidays = new Set(holidayDates.map((holiday) => holiday.date));
  const wellnessDay = holidayDates.find((holiday) => holiday.name === "Company Wellness Day")?.date as string;
  const { start, end } = previousMonthRange(referenceDate);
  const monthStart = isoToMinutes(`${start}T00:00:00Z`);
  const { snapshot } = plant;
  const target = (priority: Priority, tier: Tier): number => RESOLUTION_TARGET_HOURS[priority][tier] * 60;
  const at = (date: string, time: string): number => isoToMinutes(`${date}T${time}:00Z`);
  const isWorkday = (date: string): boolean => !isWeekend(date) && !holidays.has(date);

  const planted: PlantedTicket[] = [];

  // Holiday: meets the target only because the wellness day is not a business day.
  let dayBefore = addDays(wellnessDay, -1);
  while (!isWorkday(dayBefore)) dayBefore = addDays(dayBefore, -1);
  const holidayCreated = at(dayBefore, "14:00");
  const holidayResolved = addBusinessMinutes(holidayCreated, target("P2", "silver") - 120, holidays);
  planted.push(["silver", "P2", holidayCreated, holidayResolved]);

  // Pending pause: 300 business minutes over the target in raw time, 600 of them paused.
  const pauseCreated = addBusinessMinutes(monthStart + DAY, 60, holidays);
  const pendingStart = addBusinessMinutes(pauseCreated, 1000, holidays);
  const pendingEnd = addBusinessMinutes(pendingStart, 600, holidays);
  const pauseResolved = addBusinessMinutes(pendingEnd, target("P3", "bronze") - 1300, holidays);
  planted.push([
    "bronze",
    "P3",
    pauseCreated,
    pauseResolved,
    [statusEvent(pendingStart, "open", "pending", null), statusEvent(pendingEnd, "pending", "open", null)],
  ]);

  // Exactly at the target: meets the SLA (the policy says strictly greater breaches).
  const exactCreated = addBusinessMinutes(monthStart + 9 * DAY, 90, holidays);
  planted.push([
    "gold",
    "P3",
    exactCreated,
    addBusinessMinutes(exactCreated, target("P3", "gold"), holidays),
  ]);

  // Vendor hold: does not pause, so the ticket breaches by 200 minutes.
  const holdCreated = addBusinessMinutes(monthStart + DAY, 120, holidays);
  const holdStart = addBusinessMinutes(holdCreated, 1500, holidays);
  const holdEnd = addBusinessMinutes(holdStart, 800, holidays);
  const holdResolved = addBusinessMinutes(holdEnd, target("P4", "silver") + 200 - 2300, holidays);
  planted.push([
    "silver",
    "P4",
    holdCreated,
    holdResolved,
    [statusEvent(holdStart, "open", "on_hold", null), statusEvent(holdEnd, "on_hold", "open", null)],
  ]);

  // 24x7 clock: a platinum P1 from Friday 16:00 to Monday 09:00 breaches in calendar hours only.
  let friday = addDays(start, (4 - weekdayIndex(start) + 7) % 7);
  while (!(isWorkday(friday) && isWorkday(addDays(friday, 3)) && addDays(friday, 3) < end))
    friday = addDays(friday, 7);
  planted.push(["platinum", "P1", at(friday, "16:00"), at(addDays(friday, 3), "09:00")]);

  // Reuse the generated tickets resolved last month whose creation is closest, keeping ids chronological.
  const serviceDesk = plant.team("Service Desk");
  for (const [tier, priority, createdAt, resolvedAt, pauses = []] of planted) {
    const id = plant.reuseId(createdAt, "resolved_at >= ? AND resolved_at < ?", [
      `${start}T00:00:00Z`,
      `${end}T00:00:00Z`,
    ]);
    const original = db.prepare("SELECT subject, category FROM tickets WHERE id = ?").get(id) as
      { subject: string; category: TicketRow["category"] } | undefined;
    const company = plant.company(tier);
    const agent = plant.worker(serviceDesk);
    const firstResponse = createdAt + 10;
    const record = plant.record(id, {
      subject: original?.subject ?? "Outgoing mail stuck in outbox",
      category: (original?.category ?? "email") as never,
      priority,
      companyId: company.id,
      teamId: serviceDesk,
      createdAt,
    });
    const closedAt = resolvedAt + 3 * DAY;
    Object.assign(record, {
      status: closedAt < snapshot ? "closed" : "resolved",
      assigneeAgentId: agent,
      firstResponseAt: firstResponse,
      resolvedAt,
      closedAt: closedAt < snapshot ? closedAt : null,
      resolutionCode: "fixed",
      events: [
        statusEvent(firstResponse, "new", "open", agent),
        ...pauses.map((event) => ({
          ...event,
          actorAgentId: event.toValue === "open" ? null : agent,
        })),
        { ...statusEvent(resolvedAt, "open", "resolved", agent), body: "Configuration corrected." },
      ],
    });
    plant.write(record);
  }
}

interface TicketWithTier extends TicketRow {
  support_tier: Tier;
}

/** The tickets resolved last month whose resolution time exceeds their target, per the SLA policy. */
export function expectedBreaches(db: Database.Database, holidays: ReadonlySet<string>): number[] {
  const snapshot = readSnapshotMinutes(db);
  const today = new Date(snapshot * 60_000).toISOString().slice(0, 10);
  const { start, end } = previousMonthRange(today);
  const tickets = db
    .prepare(
      `SELECT tickets.*, companies.support_tier FROM tickets JOIN companies ON companies.id = tickets.company_id
       WHERE resolved_at >= ? AND resolved_at < ? ORDER BY tickets.id`,
    )
    .all(`${start}T00:00:00Z`, `${end}T00:00:00Z`) as TicketWithTier[];
  const statusEvents = db.prepare(
    "SELECT created_at, from_value, to_value FROM ticket_events WHERE ticket_id = ? AND event_type = 'status_change' ORDER BY created_at, id",
  );
  const breached: number[] = [];
  for (const ticket of tickets) {
    const created = isoToMinutes(ticket.created_at);
    const resolved = isoToMinutes(ticket.resolved_at as string);
    const calendar = usesCalendarClock(ticket.priority, ticket.support_tier);
    const clock = (from: number, to: number): number =>
      calendar ? Math.max(0, to - from) : businessMinutesBetween(from, to, holidays);
    let paused = 0;
    let pendingSince: number | null = null;
    for (const event of statusEvents.all(ticket.id) as Array<{
      created_at: string;
      from_value: string;
      to_value: string;
    }>) {
      const time = isoToMinutes(event.created_at);
      if (event.to_value === "pending" && pendingSince === null) pendingSince = time;
      else if (event.from_value === "pending" && pendingSince !== null) {
        paused += clock(Math.max(pendingSince, created), Math.min(time, resolved));
        pendingSince = null;
      }
    }
    if (pendingSince !== null) paused += clock(Math.max(pendingSince, created), resolved);
    const elapsed = clock(created, resolved) - paused;
    if (elapsed > RESOLUTION_TARGET_HOURS[ticket.priority][ticket.support_tier] * 60)
      breached.push(ticket.id);
  }
  return breached;
}

/** The near-misses, each the oracle below with one switch on. */
const NEAR_MISSES: FlagNearMiss[] = [
  [
    "ignores-pending-pause",
    "ignorePendingPause",
    "Counts time spent waiting on the customer against the SLA.",
  ],
  ["ignores-holidays", "ignoreHolidays", "Treats company holidays as business days."],
  [
    "business-clock-for-p1",
    "businessClockForAll",
    "Measures gold/platinum P1 tickets in business hours instead of on the 24x7 clock.",
  ],
  ["breach-at-target", "breachAtTarget", "Counts a ticket resolved exactly at its target as a breach."],
  ["pauses-on-hold", "pauseOnHold", "Also pauses the clock while the ticket waits on a vendor (on_hold)."],
];

function cells(flags: string): string[] {
  return [
    `${ORACLE_OPENING}
policy = read_text("policies/sla-policy.md")
holidays_csv = read_text("calendars/holidays.csv")
print(policy)`,
    `${flags}

holidays = set() if IGNORE_HOLIDAYS else {row["date"] for row in csv.DictReader(io.StringIO(holidays_csv))}
${snapshotFromHandbook("snapshot")}
month_end = snapshot.replace(day=1, hour=0, minute=0, second=0)
month_start = (month_end - timedelta(days=1)).replace(day=1)

# Resolution targets: the table in section 3 of the policy.
section = policy.split("## 3.")[1].split("## 4.")[0]
tiers_order = ["bronze", "silver", "gold", "platinum"]
targets = {}
for priority, *cells_ in re.findall(r"\\| (P[1-4]) \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\|", section):
    for tier, cell in zip(tiers_order, cells_):
        number, unit = cell.strip().split()
        targets[(priority, tier)] = float(number) * (60 if unit == "h" else 1)
print(targets)

tickets = fetch_all("list_tickets", "tickets",
                    resolved_from=month_start.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    resolved_to=month_end.strftime("%Y-%m-%dT%H:%M:%SZ"))
tier_of = {company["id"]: company["support_tier"] for company in fetch_all("list_companies", "companies")}
print(len(tickets), "tickets resolved between", month_start, "and", month_end)`,
    `breached = []
for ticket in tickets:
    tier = tier_of[ticket["company_id"]]
    calendar_clock = (not BUSINESS_CLOCK_FOR_ALL) and ticket["priority"] == "P1" and tier in ("gold", "platinum")
    def clock(start, end):
        if calendar_clock:
            return max(0, int((end - start).total_seconds() // 60))
        return business_minutes(start, end, holidays)
    created, resolved = ts(ticket["created_at"]), ts(ticket["resolved_at"])
    events = fetch_all("list_ticket_events", "events", ticket_id=ticket["id"], event_type="status_change")
    pause_statuses = set() if IGNORE_PENDING_PAUSE else {"pending"}
    if PAUSE_ON_HOLD:
        pause_statuses.add("on_hold")
    paused, since = 0, None
    for event in events:
        moment = ts(event["created_at"])
        if event["to_value"] in pause_statuses and since is None:
            since = moment
        elif event["from_value"] in pause_statuses and since is not None:
            paused += clock(max(since, created), min(moment, resolved))
            since = None
    if since is not None:
        paused += clock(max(since, created), resolved)
    elapsed = clock(created, resolved) - paused
    limit = targets[(ticket["priority"], tier)]
    if elapsed > limit or (BREACH_AT_TARGET and elapsed == limit):
        breached.append(ticket["id"])
breached.sort()
print(json.dumps({"breached_ticket_ids": breached, "count": len(breached)}))`,
  ];
}

export const slaBreachesLastMonthTask = defineTask({
  id: "it_support.sla-breaches-last-month",
  domain: itSupportDomain,
  summary:
    "List the tickets resolved last calendar month that breached their resolution SLA, applying the policy's tier/priority targets, business hours, holidays, 24x7 clock and pause rules.",
  instruction:
    'I\'m preparing last month\'s SLA report. Using our SLA policy and the ticket history, find every ticket resolved during the previous calendar month (relative to today\'s data snapshot, see the service desk handbook) that breached its resolution target. Reply with only a JSON object {"breached_ticket_ids": [ticket ids in ascending order], "count": number}.',
  tools: [...TICKET_HISTORY_TOOLS],
  prepare,
  verify: ({ initial, answer }): Check[] => {
    const holidays = readHolidays(initial);
    const expected = expectedBreaches(initial.db, holidays);
    const parsed = parseAnswerJson(answer) as { breached_ticket_ids?: unknown; count?: unknown } | null;
    const rawIds = parsed && Array.isArray(parsed.breached_ticket_ids) ? parsed.breached_ticket_ids : null;
    const ids = rawIds?.map((value) => Number(String(value).replace(/[^0-9]/g, ""))) ?? null;
    return [
      check(
        "answer-format",
        rawIds !== null,
        rawIds !== null
          ? "answer has breached_ticket_ids"
          : `expected a JSON object with breached_ticket_ids, got: ${answer.slice(0, 200)}`,
      ),
      checkNamedItems("breached-tickets", ids, expected, "breached tickets"),
      check(
        "count",
        parsed !== null && Number(parsed.count) === expected.length,
        `expected count ${expected.length}, got ${String(parsed?.count)}`,
      ),
    ];
  },
  ...flagOracle(NEAR_MISSES, cells),
});
