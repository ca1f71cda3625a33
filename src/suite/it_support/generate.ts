import {
  addDays,
  isWeekend,
  mondayOf,
  nthWeekdayOfMonth,
  insertDrafts,
  personName,
  slug,
  toCsv,
  weekdayIndex,
  weightedPick,
  type GenerateContext,
} from "../../envs/index.js";
import { createSeededRandom, hashString, type SeededRandom } from "../../core/index.js";
import {
  addBusinessMinutes,
  businessMinutesBetween,
  dateOfMinutes,
  isBusinessMinute,
  isoToMinutes,
  minutesToIso,
  previousMonthRange,
} from "./business-time.js";
import {
  DESK_EMAIL_DOMAIN,
  RESOLUTION_TARGET_HOURS,
  SNAPSHOT_TIME_OF_DAY,
  TEAM_NAMES,
  escalationTeamFor,
  renderEscalationMatrix,
  renderHandbook,
  renderRefreshPolicy,
  renderSlaPolicy,
  usesCalendarClock,
  type Category,
  type Priority,
  type TeamName,
  type Tier,
} from "./policy.js";
import { planLeave, type PlannedAgent } from "./leave-plan.js";
import {
  statusAt,
  statusEvent,
  ticketEvent,
  writeTicketRecord,
  type ResolutionCode,
  type TicketEventRecord,
  type TicketRecord,
} from "./ticket-records.js";
import {
  ASSET_MODELS,
  COMMENTS,
  INDUSTRIES,
  JOB_TITLES,
  RESOLUTION_NOTES,
  ROOT_CAUSES,
  SUBJECTS,
} from "./vocabulary.js";
import {
  ESCALATION_MATRIX_PATH,
  HANDBOOK_PATH,
  HOLIDAYS_PATH,
  LEAVE_CALENDAR_PATH,
  REFRESH_POLICY_PATH,
  SLA_POLICY_PATH,
  renderHolidays,
  renderLeaveCalendar,
  renderRota,
  rotaPath,
  type Holiday,
  type RotaLine,
} from "./workspace-documents.js";

const MINUTES_PER_DAY = 24 * 60;
/** How far back the ticket history goes; longer than the refresh policy's 180-day window on purpose. */
const HISTORY_DAYS = 240;
const BASE_TICKETS = 118;
/** Share of tickets raised in the last three weeks: the desk's current backlog. */
const RECENT_SHARE = 0.2;
const RECENT_DAYS = 21;

/** The columns of the weekly ticket exports. */
const EXPORT_COLUMNS =
  "ticket_id, created_at, company, requester_email, priority, category, team, assignee_email, status_at_export";

/** Relative frequencies of generated values. */
const ASSET_TYPE_WEIGHTS = {
  laptop: 40,
  desktop: 18,
  server: 8,
  printer: 10,
  switch: 8,
  firewall: 6,
  phone: 10,
};
const ASSET_STATUS_WEIGHTS = { in_service: 86, in_repair: 5, replacement_pending: 5, retired: 4 };
const CATEGORY_WEIGHTS: Record<Category, number> = {
  network: 15,
  hardware: 22,
  software: 24,
  access: 15,
  email: 10,
  security: 6,
  database: 8,
};
const RESOLUTION_CODE_WEIGHTS: Record<ResolutionCode, number> = {
  fixed: 60,
  workaround: 15,
  duplicate: 8,
  user_error: 9,
  no_fault_found: 8,
};

interface AgentRow {
  id: number;
  fullName: string;
  email: string;
  teamId: number;
  teamName: TeamName;
  role: "agent" | "senior" | "lead";
  status: "active" | "inactive";
  /** Inactive agents stopped taking tickets at this minute. */
  leftAt: number | null;
}

interface CompanyRow {
  id: number;
  name: string;
  tier: Tier;
  customerIds: number[];
  assets: Array<{ id: number; type: string }>;
}

interface Assignment {
  at: number;
  teamId: number;
  agentId: number | null;
  level: number;
}

/** A key of `weights` drawn with probability proportional to its weight. */
function weightedKey<T extends string>(random: SeededRandom, weights: Record<T, number>): T {
  return weightedPick(random, Object.keys(weights) as T[], Object.values<number>(weights));
}

/** A fixed-date holiday falling on a weekend is observed on the nearest weekday. */
function observed(date: string): string {
  const weekday = weekdayIndex(date);
  if (weekday === 5) return addDays(date, -1);
  if (weekday === 6) return addDays(date, 1);
  return date;
}

/**
 * The company holiday calendar: the usual US set for the years around "today", plus a company-wide
 * wellness day placed on a weekday of last month so that monthly SLA figures depend on the calendar. It
 * draws from its own seeded stream so that task preparations can rebuild it without reading the workspace.
 */
export function holidayCalendar(seed: number, referenceDate: string): Holiday[] {
  const random = createSeededRandom(hashString(`it_support:holidays:${seed}`));
  const year = Number(referenceDate.slice(0, 4));
  const holidays: Holiday[] = [];
  for (const current of [year - 1, year, year + 1]) {
    holidays.push(
      { date: observed(`${current}-01-01`), name: "New Year's Day" },
      { date: nthWeekdayOfMonth(current, 1, 0, 3), name: "Martin Luther King Jr. Day" },
      { date: nthWeekdayOfMonth(current, 2, 0, 3), name: "Presidents' Day" },
      { date: nthWeekdayOfMonth(current, 5, 0, -1), name: "Memorial Day" },
      { date: observed(`${current}-06-19`), name: "Juneteenth" },
      { date: observed(`${current}-07-04`), name: "Independence Day" },
      { date: nthWeekdayOfMonth(current, 9, 0, 1), name: "Labor Day" },
      { date: nthWeekdayOfMonth(current, 11, 3, 4), name: "Thanksgiving Day" },
      { date: addDays(nthWeekdayOfMonth(current, 11, 3, 4), 1), name: "Day after Thanksgiving" },
      { date: observed(`${current}-12-25`), name: "Christmas Day" },
    );
  }
  const taken = new Set(holidays.map((holiday) => holiday.date));
  const { start, end } = previousMonthRange(referenceDate);
  const candidates: string[] = [];
  // Days 4-24 keep the wellness day away from month edges, so tickets spanning it stay in the month.
  for (let day = addDays(start, 3); day < addDays(start, 24) && day < end; day = addDays(day, 1)) {
    if (!isWeekend(day) && !taken.has(day) && !taken.has(addDays(day, -1))) candidates.push(day);
  }
  holidays.push({ date: random.pick(candidates), name: "Company Wellness Day" });
  return holidays.sort((left, right) => left.date.localeCompare(right.date));
}

/**
 * Fills the desk's database (teams, agents, companies, contacts, assets, tickets with their history cut at
 * the snapshot) and writes the workspace: fixed policies and calendars, plus weekly exports, postmortems,
 * on-call rotas and shift handovers scaled by `factors.files`.
 */
export function generateItSupport(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate } = context;
  const rows = factors.rows;
  const snapshotIso = `${referenceDate}T${SNAPSHOT_TIME_OF_DAY}Z`;
  const snapshot = isoToMinutes(snapshotIso);
  const today = referenceDate;

  const insertSetting = db.prepare("INSERT INTO service_desk_settings (key, value) VALUES (?, ?)");
  insertSetting.run("snapshot_at", snapshotIso);
  insertSetting.run("timezone", "UTC");
  insertSetting.run("desk_name", "Northbeam IT Services — Managed Service Desk");

  const holidays = holidayCalendar(context.seed, referenceDate);
  const holidaySet = new Set(holidays.map((holiday) => holiday.date));

  // Teams
  const insertTeam = db.prepare("INSERT INTO teams (id, name, queue_email, tier_level) VALUES (?, ?, ?, ?)");
  const teamIds = new Map<TeamName, number>();
  TEAM_NAMES.forEach((name, index) => {
    const id = index + 1;
    teamIds.set(name, id);
    const level =
      index === 0 ? "L1" : name === "Enterprise Accounts" || name === "Security Operations" ? "L3" : "L2";
    insertTeam.run(id, name, `${slug(name)}@${DESK_EMAIL_DOMAIN}`, level);
  });
  const teamId = (name: TeamName): number => teamIds.get(name) as number;

  // Agents
  const agents: AgentRow[] = [];
  const usedEmails = new Set<string>();
  for (const name of TEAM_NAMES) {
    const size = name === "Service Desk" ? 5 + 2 * rows : 2 + rows;
    for (let index = 0; index < size; index += 1) {
      const person = personName(faker, DESK_EMAIL_DOMAIN, usedEmails);
      agents.push({
        id: agents.length + 1,
        fullName: person.fullName,
        email: person.email,
        teamId: teamId(name),
        teamName: name,
        role: index === 0 ? "lead" : random.chance(0.3) ? "senior" : "agent",
        status: "active",
        leftAt: null,
      });
    }
  }
  const inactiveCount = Math.max(1, Math.round(1 + rows / 2));
  for (const agent of random
    .shuffle(agents.filter((candidate) => candidate.role !== "lead"))
    .slice(0, inactiveCount)) {
    agent.status = "inactive";
    agent.leftAt = snapshot - random.int(100, 200) * MINUTES_PER_DAY;
  }
  insertDrafts(db, "agents", "id, full_name, email, team_id, role, status, hired_on", agents, () => ({
    hired_on: addDays(today, -random.int(300, 3000)),
  }));
  const agentById = new Map(agents.map((agent) => [agent.id, agent]));

  // Companies, their contacts and assets
  const companyCount = 14 * rows;
  const tierSlots: Tier[] = [
    "platinum",
    "platinum",
    "gold",
    "gold",
    "gold",
    "silver",
    "silver",
    "bronze",
    "bronze",
  ];
  while (tierSlots.length < companyCount) {
    tierSlots.push(weightedKey(random, { bronze: 35, silver: 30, gold: 25, platinum: 10 }));
  }
  const tiers = random.shuffle(tierSlots.slice(0, companyCount));
  const companies: CompanyRow[] = [];
  const usedCompanyNames = new Set<string>();
  const insertCompany = db.prepare(
    "INSERT INTO companies (id, name, industry, support_tier, contract_start, account_manager) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insertCustomer = db.prepare(
    "INSERT INTO customers (id, company_id, full_name, email, job_title) VALUES (?, ?, ?, ?, ?)",
  );
  const insertAsset = db.prepare(
    `INSERT INTO assets (id, asset_tag, company_id, asset_type, model, serial_number, purchased_on, warranty_expires_on, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let customerId = 0;
  let assetId = 0;
  const assetTagBase = random.int(20, 60) * 1000;
  for (let index = 0; index < companyCount; index += 1) {
    let name = faker.company.name();
    while (usedCompanyNames.has(name)) name = faker.company.name();
    usedCompanyNames.add(name);
    const company: CompanyRow = {
      id: index + 1,
      name,
      tier: tiers[index] as Tier,
      customerIds: [],
      assets: [],
    };
    companies.push(company);
    insertCompany.run(
      company.id,
      name,
      random.pick(INDUSTRIES),
      company.tier,
      addDays(today, -random.int(200, 2200)),
      faker.person.fullName(),
    );
    const domain = `${slug(name).slice(0, 18)}.com`;
    for (let contact = random.int(2, 4); contact > 0; contact -= 1) {
      const person = personName(faker, domain, usedEmails);
      customerId += 1;
      company.customerIds.push(customerId);
      insertCustomer.run(customerId, company.id, person.fullName, person.email, random.pick(JOB_TITLES));
    }
    for (let count = random.int(3, 6); count > 0; count -= 1) {
      assetId += 1;
      const type = weightedKey(random, ASSET_TYPE_WEIGHTS);
      const purchased = addDays(today, -random.int(60, 2300));
      const warrantyYears =
        type === "server" ? random.pick([3, 5]) : type === "printer" ? 1 : random.pick([1, 3, 3, 3]);
      const status = weightedKey(random, ASSET_STATUS_WEIGHTS);
      company.assets.push({ id: assetId, type });
      insertAsset.run(
        assetId,
        `NB-${assetTagBase + assetId * 7}`,
        company.id,
        type,
        random.pick(ASSET_MODELS[type] as readonly string[]),
        faker.string.alphanumeric({ length: 10, casing: "upper" }),
        purchased,
        addDays(purchased, 365 * warrantyYears),
        status,
      );
    }
  }

  // Tickets
  const ticketCount = BASE_TICKETS * rows;
  const createdTimes: number[] = [];
  for (let index = 0; index < ticketCount; index += 1) {
    const spanDays = random.chance(RECENT_SHARE) ? RECENT_DAYS : HISTORY_DAYS;
    const draw = (): number => snapshot - random.int(60, spanDays * MINUTES_PER_DAY);
    let created = draw();
    // Most tickets arrive during business hours; re-draw a few times to get there.
    if (random.chance(0.8)) {
      for (let attempt = 0; attempt < 6 && !isBusinessMinute(created, holidaySet); attempt += 1)
        created = draw();
    }
    createdTimes.push(Math.min(created, snapshot - 5));
  }
  createdTimes.sort((left, right) => left - right);

  const records: TicketRecord[] = [];
  const assignmentsByTicket = new Map<number, Assignment[]>();
  const eligibleAgents = (team: number, at: number): AgentRow[] => {
    const pool = agents.filter(
      (agent) =>
        agent.teamId === team &&
        agent.role !== "lead" &&
        (agent.leftAt === null || at < agent.leftAt - 30 * MINUTES_PER_DAY),
    );
    return pool.length > 0 ? pool : agents.filter((agent) => agent.teamId === team && agent.role === "lead");
  };

  createdTimes.forEach((created, index) => {
    const company = random.pick(companies);
    const category = weightedKey(random, CATEGORY_WEIGHTS);
    const priority = weightedKey<Priority>(random, { P1: 5, P2: 18, P3: 47, P4: 30 });
    const calendarClock = usesCalendarClock(priority, company.tier);
    const advance = (from: number, minutes: number): number =>
      calendarClock ? from + minutes : addBusinessMinutes(from, minutes, holidaySet);
    const clockBetween = (from: number, to: number): number =>
      calendarClock ? to - from : businessMinutesBetween(from, to, holidaySet);

    let assetIdForTicket: number | null = null;
    const deviceTypes =
      category === "hardware"
        ? ["laptop", "desktop", "printer", "phone", "server"]
        : category === "network"
          ? ["switch", "firewall"]
          : ["laptop", "desktop"];
    const devices = company.assets.filter((asset) => deviceTypes.includes(asset.type));
    const linkChance = category === "hardware" ? 0.9 : category === "network" ? 0.5 : 0.2;
    if (devices.length > 0 && random.chance(linkChance)) assetIdForTicket = random.pick(devices).id;

    const initialTeam =
      category === "security"
        ? teamId("Security Operations")
        : category === "database" && (priority === "P1" || priority === "P2") && random.chance(0.5)
          ? teamId("Database Administration")
          : random.chance(0.85)
            ? teamId("Service Desk")
            : teamId(escalationTeamFor(category, "bronze"));

    // The creation itself is the ticket's created_at; the history starts with the first response.
    const events: TicketEventRecord[] = [];
    const assignments: Assignment[] = [{ at: created, teamId: initialTeam, agentId: null, level: 0 }];
    const firstAgent = random.pick(eligibleAgents(initialTeam, created)).id;
    const responseDelay =
      priority === "P1" ? random.int(5, 30) : priority === "P2" ? random.int(10, 90) : random.int(15, 300);
    const firstResponse = advance(created, responseDelay);
    assignments.push({ at: firstResponse, teamId: initialTeam, agentId: firstAgent, level: 0 });
    events.push(statusEvent(firstResponse, "new", "open", firstAgent));

    const targetMinutes = RESOLUTION_TARGET_HOURS[priority][company.tier] * 60;
    // Recent tickets are the backlog: slower work and longer waits keep many of them unresolved today.
    const backlog = created > snapshot - RECENT_DAYS * MINUTES_PER_DAY;
    const ratio = backlog
      ? 0.4 + random.next() * 1.2
      : random.chance(0.14)
        ? 1.03 + random.next() * 0.8
        : 0.12 + random.next() * 0.83;
    const activeMinutes = Math.round(ratio * targetMinutes);
    const remaining = Math.max(20, activeMinutes - clockBetween(created, firstResponse));
    const pauseCount = weightedKey(random, { "0": 62, "1": 28, "2": 10 });
    const chunks: number[] = [];
    const cuts = Array.from({ length: Number(pauseCount) }, () => random.next()).sort((a, b) => a - b);
    let previousCut = 0;
    for (const cut of [...cuts, 1]) {
      chunks.push(Math.max(5, Math.round((cut - previousCut) * remaining)));
      previousCut = cut;
    }
    const escalationChance = { P1: 0.35, P2: 0.2, P3: 0.06, P4: 0.03 }[priority];
    const escalates = random.chance(escalationChance);
    let currentAgent = firstAgent;
    let currentTeam = initialTeam;
    let cursor = firstResponse;
    chunks.forEach((chunk, chunkIndex) => {
      cursor = advance(cursor, chunk);
      if (chunkIndex === 0 && escalates) {
        const target = teamId(escalationTeamFor(category, company.tier));
        const reason = random.pick([
          "Needs L2 expertise.",
          "Exceeded escalation threshold.",
          "Customer requested escalation.",
        ]);
        events.push(
          ticketEvent("escalated", cursor, currentAgent, {
            fromValue: String(currentTeam),
            toValue: String(target),
            body: reason,
          }),
        );
        assignments.push({ at: cursor, teamId: target, agentId: null, level: 1 });
        const newAgent = random.pick(eligibleAgents(target, cursor)).id;
        const assignedAt = cursor + random.int(10, 90);
        events.push(ticketEvent("assigned", assignedAt, null, { toValue: String(newAgent) }));
        assignments.push({ at: assignedAt, teamId: target, agentId: newAgent, level: 1 });
        cursor = Math.max(cursor, assignedAt);
        currentTeam = target;
        currentAgent = newAgent;
      }
      if (chunkIndex < chunks.length - 1) {
        const pauseStatus = random.chance(0.75) ? "pending" : "on_hold";
        events.push(statusEvent(cursor, "open", pauseStatus, currentAgent));
        cursor += random.int(60, (backlog ? 8 : 3) * MINUTES_PER_DAY);
        events.push(
          statusEvent(cursor, pauseStatus, "open", pauseStatus === "pending" ? null : currentAgent),
        );
      }
    });
    const resolved = cursor;
    events.push({
      ...statusEvent(resolved, "open", "resolved", currentAgent),
      body: random.pick(RESOLUTION_NOTES),
    });
    // Auto-closure three days after resolution is a field update by the system, not a history event.
    const closed = resolved + 3 * MINUTES_PER_DAY;
    if (random.chance(0.25)) {
      const at = firstResponse + Math.floor(random.next() * (resolved - firstResponse));
      const actor = [...assignments].reverse().find((entry) => entry.at <= at)?.agentId ?? currentAgent;
      events.push(ticketEvent("comment", at, actor, { body: random.pick(COMMENTS) }));
    }

    // Cut the history at the snapshot: whatever happens later has not happened yet.
    const visible = events.filter((event) => event.at < snapshot).sort((left, right) => left.at - right.at);
    const state = [...assignments].filter((entry) => entry.at < snapshot).pop() as Assignment;
    const record: TicketRecord = {
      id: 10001 + index,
      subject: random.pick(SUBJECTS[category]),
      category,
      priority,
      status: "new",
      channel: weightedKey(random, { email: 35, portal: 35, phone: 20, chat: 10 }),
      companyId: company.id,
      requesterId: random.pick(company.customerIds),
      assetId: assetIdForTicket,
      teamId: state.teamId,
      assigneeAgentId: state.agentId,
      escalationLevel: state.level,
      createdAt: created,
      firstResponseAt: firstResponse < snapshot ? firstResponse : null,
      resolvedAt: resolved < snapshot ? resolved : null,
      closedAt: closed < snapshot ? closed : null,
      resolutionCode: resolved < snapshot ? weightedKey(random, RESOLUTION_CODE_WEIGHTS) : null,
      events: visible,
    };
    record.status = statusAt(record, snapshot - 1) ?? "new";
    records.push(record);
    assignmentsByTicket.set(record.id, assignments);
  });
  for (const record of records) writeTicketRecord(db, record);

  // Leave calendar (leave-plan.ts plants the coverage scenarios).
  const leavePlan = planLeave(db, context.seed, today, rows);
  const leaveEntries = leavePlan.entries;
  const workers = leavePlan.workers;
  const leadOf = (teamId: number): AgentRow =>
    agents.find((agent) => agent.teamId === teamId && agent.role === "lead") as AgentRow;
  const deskLead = leadOf(teamId("Service Desk"));

  // On-call rota: 2 x files weeks around today; nobody on leave during a week is on call that week.
  const currentMonday = mondayOf(today);
  const rotaWeeks = Array.from({ length: 2 * factors.files }, (_, index) =>
    addDays(currentMonday, 7 * (index - (2 * factors.files - 2))),
  );
  rotaWeeks.forEach((monday, weekIndex) => {
    const sunday = addDays(monday, 6);
    const away = new Set(
      leaveEntries
        .filter((entry) => entry.startDate <= sunday && entry.endDate >= monday)
        .map((entry) => entry.agentEmail),
    );
    const lines: RotaLine[] = TEAM_NAMES.map((name, teamIndex) => {
      const pool = workers.filter((agent) => agent.teamName === name && !away.has(agent.email));
      const lead = leadOf(teamId(name));
      const primary = pool.length > 0 ? (pool[(weekIndex + teamIndex) % pool.length] as PlannedAgent) : lead;
      // With nobody else available the team lead is primary and the Service Desk lead backs them up.
      const secondary =
        pool.length > 1
          ? (pool[(weekIndex + teamIndex + 1) % pool.length] as PlannedAgent)
          : pool.length === 1
            ? lead
            : deskLead;
      return {
        team: name,
        primaryName: primary.fullName,
        primaryEmail: primary.email,
        secondaryName: secondary.fullName,
        secondaryEmail: secondary.email,
      };
    });
    const notes = [
      "Phone bridge for P1 incidents: +1 555 0100, PIN 4417.",
      `Swaps must be agreed with the team lead and noted here before ${addDays(monday, -2)}.`,
      random.pick([
        "Change freeze Thursday 18:00 to Monday 08:00 for the data-centre move.",
        "Patch Tuesday: expect a spike of software tickets on Wednesday.",
        "Quarterly DR test on Saturday; Database Administration secondary must be reachable.",
        "No special events planned this week.",
      ]),
    ];
    context.writeFile(rotaPath(monday), renderRota(monday, lines, notes));
  });

  // Fixed documents
  context.writeFile(HANDBOOK_PATH, renderHandbook(snapshotIso));
  context.writeFile(SLA_POLICY_PATH, renderSlaPolicy(addDays(today, -400)));
  context.writeFile(ESCALATION_MATRIX_PATH, renderEscalationMatrix());
  context.writeFile(REFRESH_POLICY_PATH, renderRefreshPolicy());
  context.writeFile(HOLIDAYS_PATH, renderHolidays(holidays));
  context.writeFile(LEAVE_CALENDAR_PATH, renderLeaveCalendar(leaveEntries));

  // Scaled documents: weekly exports, postmortems and shift handovers.
  const companyById = new Map(companies.map((company) => [company.id, company]));
  const teamName = (id: number): string => TEAM_NAMES[id - 1] ?? "";
  const customerEmails = new Map(
    (db.prepare("SELECT id, email FROM customers").all() as Array<{ id: number; email: string }>).map(
      (row) => [row.id, row.email],
    ),
  );
  for (let week = 0; week < 3 * factors.files; week += 1) {
    const monday = addDays(currentMonday, -7 * (week + 1));
    const weekStart = isoToMinutes(`${monday}T00:00:00Z`);
    const weekEnd = weekStart + 7 * MINUTES_PER_DAY;
    const exported = records
      .filter((record) => record.createdAt >= weekStart && record.createdAt < weekEnd)
      .map((record) => {
        const state = (assignmentsByTicket.get(record.id) ?? [])
          .filter((entry) => entry.at < weekEnd)
          .pop() as Assignment;
        return [
          record.id,
          minutesToIso(record.createdAt),
          companyById.get(record.companyId)?.name ?? "",
          customerEmails.get(record.requesterId) ?? "",
          record.priority,
          record.category,
          teamName(state.teamId),
          state.agentId === null ? "" : (agentById.get(state.agentId)?.email ?? ""),
          statusAt(record, weekEnd - 1) ?? "",
        ];
      });
    context.writeFile(`exports/tickets-week-${monday}.csv`, toCsv(EXPORT_COLUMNS.split(", "), exported));
  }

  const majorIncidents = records
    .filter((record) => record.resolvedAt !== null && (record.priority === "P1" || record.priority === "P2"))
    .sort((left, right) => right.createdAt - left.createdAt || right.id - left.id)
    .slice(0, 2 * factors.files);
  majorIncidents.forEach((record, index) => {
    const company = companyById.get(record.companyId) as CompanyRow;
    const year = dateOfMinutes(record.createdAt).slice(0, 4);
    const number = String(majorIncidents.length - index).padStart(3, "0");
    const lead = leadOf(record.teamId);
    const timeline = record.events.map((event) => {
      const who =
        event.actorAgentId === null ? "customer/system" : (agentById.get(event.actorAgentId)?.fullName ?? "");
      const what =
        event.type === "status_change"
          ? `status ${event.fromValue} -> ${event.toValue}`
          : event.type === "escalated"
            ? `escalated to ${teamName(Number(event.toValue))}`
            : event.type === "assigned"
              ? `assigned to ${agentById.get(Number(event.toValue))?.fullName ?? ""}`
              : event.type === "comment"
                ? `note: ${event.body ?? ""}`
                : "ticket logged";
      return `- ${minutesToIso(event.at)} — ${what} (${who})`;
    });
    timeline.unshift(`- ${minutesToIso(record.createdAt)} — ticket logged (customer)`);
    const durationHours = (((record.resolvedAt as number) - record.createdAt) / 60).toFixed(1);
    context.writeFile(
      `postmortems/PM-${year}-${number}.md`,
      `# Postmortem PM-${year}-${number}: ${record.subject}

- Ticket: #${record.id} (${record.priority}, ${record.category})
- Customer: ${company.name} (${company.tier} tier)
- Detected: ${minutesToIso(record.createdAt)}
- Resolved: ${minutesToIso(record.resolvedAt as number)} (${durationHours} calendar hours after detection)
- Incident owner: ${lead.fullName}, ${lead.teamName}

## Summary

${record.subject} affected users at ${company.name}. Service was restored by ${teamName(record.teamId)}.

## Timeline (UTC)

${timeline.join("\n")}

## Root cause

${ROOT_CAUSES[record.category]}

## What went well / what did not

- Monitoring raised the alert before most users noticed.
- ${random.pick(["The customer contact list was out of date.", "The runbook step for failover was missing.", "Hand-over between shifts lost context."])}

## Action items

- [ ] ${random.pick(["Add alerting on certificate expiry", "Update the runbook", "Review vendor escalation contacts", "Automate the failover check"])} — owner: ${lead.fullName}
- [ ] Share this postmortem with the account manager — owner: ${deskLead.fullName}

_Blameless format. SLA figures in this document are informal; the SLA policy and the ticket history are authoritative._
`,
    );
  });

  const handoverDays: string[] = [];
  for (let day = addDays(today, -1); handoverDays.length < factors.files; day = addDays(day, -1)) {
    if (!isWeekend(day) && !holidaySet.has(day)) handoverDays.push(day);
  }
  for (const day of handoverDays) {
    const at = isoToMinutes(`${day}T18:00:00Z`);
    const openThen = records.filter((record) => {
      const status = statusAt(record, at);
      return status !== null && status !== "resolved" && status !== "closed";
    });
    const urgent = openThen
      .filter((record) => record.priority === "P1" || record.priority === "P2")
      .slice(-12)
      .map(
        (record) =>
          `- #${record.id} ${record.priority} ${record.subject} — ${statusAt(record, at)} (${companyById.get(record.companyId)?.name ?? ""})`,
      );
    const byTeam = new Map<string, number>();
    for (const record of openThen) {
      const state = (assignmentsByTicket.get(record.id) ?? [])
        .filter((entry) => entry.at <= at)
        .pop() as Assignment;
      byTeam.set(teamName(state.teamId), (byTeam.get(teamName(state.teamId)) ?? 0) + 1);
    }
    context.writeFile(
      `handover/shift-handover-${day}.md`,
      `# Shift handover — ${day} 18:00 UTC

Outgoing shift lead: ${random.pick(workers.filter((agent) => !leaveEntries.some((entry) => entry.agentEmail === agent.email && entry.startDate <= day && day <= entry.endDate))).fullName}

## Unresolved tickets by team at handover

${[...byTeam.entries()].map(([name, count]) => `- ${name}: ${count}`).join("\n")}

## P1/P2 to watch

${urgent.length > 0 ? urgent.join("\n") : "- none"}

## Notes

- ${random.pick(COMMENTS)}
- Ticket counts above are informal; always check the live ticket queue before acting.
`,
    );
  }
}
