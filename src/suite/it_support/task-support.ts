/** Helpers shared by the it_support tasks: reading the desk's "now" and planting tickets. */
import type Database from "better-sqlite3";
import { allRows, getRow, type GenerateContext, type StateView } from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { isoToMinutes } from "./business-time.js";
import { holidayCalendar } from "./generate.js";
import type { Priority, Tier } from "./policy.js";
import { writeTicketRecord, type TicketEventRecord, type TicketRecord } from "./ticket-records.js";
import { HOLIDAYS_PATH, parseHolidays } from "./workspace-documents.js";

export interface TicketRow {
  id: number;
  subject: string;
  category: string;
  priority: Priority;
  status: string;
  channel: string;
  company_id: number;
  requester_id: number;
  asset_id: number | null;
  team_id: number;
  assignee_agent_id: number | null;
  escalation_level: number;
  created_at: string;
  first_response_at: string | null;
  resolved_at: string | null;
  closed_at: string | null;
  resolution_code: string | null;
  updated_at: string;
}

export interface CompanyRow {
  id: number;
  name: string;
  support_tier: Tier;
}

/** The tools a task over the ticket history reads with: tickets, their events and the customer companies. */
export const TICKET_HISTORY_TOOLS = [
  "list_tickets",
  "get_ticket",
  "list_ticket_events",
  "list_companies",
  "get_company",
];

/** The snapshot instant ("now") the generator recorded, as minutes since the epoch. */
export function readSnapshotMinutes(db: Database.Database): number {
  const row = getRow<{ value: string }>(
    db,
    "SELECT value FROM service_desk_settings WHERE key = 'snapshot_at'",
  );
  if (!row) throw new Error("service_desk_settings has no snapshot_at");
  return isoToMinutes(row.value);
}

/** The instance's holiday dates, rebuilt from its seed (for `prepare`). */
export function holidayDates(context: GenerateContext): Set<string> {
  return new Set(holidayCalendar(context.seed, context.referenceDate).map((holiday) => holiday.date));
}

/** The holiday dates of the workspace calendar the agent reads (for verifiers). */
export function readHolidays(state: StateView): Set<string> {
  return parseHolidays(state.readFile(HOLIDAYS_PATH));
}

export function companiesByTier(db: Database.Database, tier: Tier): CompanyRow[] {
  return allRows<CompanyRow>(
    db,
    "SELECT id, name, support_tier FROM companies WHERE support_tier = ? ORDER BY id",
    tier,
  );
}

function firstCustomerOf(db: Database.Database, companyId: number): number {
  return getRow<{ id: number }>(
    db,
    "SELECT id FROM customers WHERE company_id = ? ORDER BY id LIMIT 1",
    companyId,
  )!.id;
}

/** An active, non-lead agent of a team (the lead if the team has nobody else). */
export function workerOf(db: Database.Database, teamId: number, random: SeededRandom): number {
  const workers = allRows<{ id: number }>(
    db,
    "SELECT id FROM agents WHERE team_id = ? AND status = 'active' AND role != 'lead' ORDER BY id",
    teamId,
  );
  if (workers.length > 0) return random.pick(workers).id;
  return getRow<{ id: number }>(db, "SELECT id FROM agents WHERE team_id = ? AND role = 'lead'", teamId)!.id;
}

export function teamIdByName(db: Database.Database, name: string): number {
  const row = getRow<{ id: number }>(db, "SELECT id FROM teams WHERE name = ?", name);
  if (!row) throw new Error(`no team named ${name}`);
  return row.id;
}

export function nextTicketId(db: Database.Database): number {
  return getRow<{ id: number }>(db, "SELECT COALESCE(MAX(id), 10000) + 1 AS id FROM tickets")!.id;
}

/** A status-change event. */
export function statusEvent(at: number, from: string, to: string, actor: number | null): TicketEventRecord {
  return { type: "status_change", actorAgentId: actor, at, fromValue: from, toValue: to, body: null };
}

/**
 * The shape every planted ticket starts from, raised by the company's first contact; callers override what
 * their scenario needs.
 */
export function baseRecord(
  db: Database.Database,
  id: number,
  fields: Pick<TicketRecord, "subject" | "category" | "priority" | "companyId" | "teamId" | "createdAt">,
): TicketRecord {
  return {
    id,
    ...fields,
    requesterId: firstCustomerOf(db, fields.companyId),
    status: "new",
    channel: "email",
    assetId: null,
    assigneeAgentId: null,
    escalationLevel: 0,
    firstResponseAt: null,
    resolvedAt: null,
    closedAt: null,
    resolutionCode: null,
    events: [],
  };
}

/**
 * Picks the generated ticket created closest to `createdAt` (not yet used), so that a planted ticket can
 * take its id and ids stay roughly chronological. Falls back to a new id.
 */
export function closestTicketId(
  db: Database.Database,
  createdAt: number,
  used: Set<number>,
  whereSql = "1 = 1",
  parameters: unknown[] = [],
): number {
  const candidates = db
    .prepare(`SELECT id, created_at FROM tickets WHERE ${whereSql} ORDER BY id`)
    .all(...parameters) as Array<{ id: number; created_at: string }>;
  let best: { id: number; distance: number } | null = null;
  for (const candidate of candidates) {
    if (used.has(candidate.id)) continue;
    const distance = Math.abs(isoToMinutes(candidate.created_at) - createdAt);
    if (best === null || distance < best.distance) best = { id: candidate.id, distance };
  }
  const id = best?.id ?? nextTicketId(db);
  used.add(id);
  return id;
}

/**
 * What a task's `prepare` plants its scenario tickets with: the snapshot, teams, companies of a tier and
 * their workers drawn from the context's random stream, ids taken over from generated tickets (each once)
 * and records written with their history.
 */
export class TicketPlanter {
  readonly snapshot: number;
  private readonly used = new Set<number>();

  constructor(private readonly context: GenerateContext) {
    this.snapshot = readSnapshotMinutes(context.db);
  }

  team(name: string): number {
    return teamIdByName(this.context.db, name);
  }

  company(tier: Tier): CompanyRow {
    return this.context.random.pick(companiesByTier(this.context.db, tier));
  }

  worker(teamId: number): number {
    return workerOf(this.context.db, teamId, this.context.random);
  }

  /** The id of the unused generated ticket created closest to `createdAt` (see `closestTicketId`). */
  reuseId(createdAt: number, whereSql?: string, parameters?: unknown[]): number {
    return closestTicketId(this.context.db, createdAt, this.used, whereSql, parameters);
  }

  record(id: number, fields: Parameters<typeof baseRecord>[2]): TicketRecord {
    return baseRecord(this.context.db, id, fields);
  }

  write(record: TicketRecord): void {
    writeTicketRecord(this.context.db, record);
  }
}
