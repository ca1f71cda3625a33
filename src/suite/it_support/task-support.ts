/** Helpers shared by the it_support tasks: reading the desk's "now" and planting tickets. */
import type Database from "better-sqlite3";
import { allRows, getRow, type GenerateContext, type StateView } from "../../envs/index.js";
import { isoToMinutes } from "./business-time.js";
import { holidayCalendar } from "./generate.js";
import type { Priority, Tier } from "./policy.js";
import { writeTicketRecord, type TicketRecord } from "./ticket-records.js";
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
    const row = getRow<{ id: number }>(this.context.db, "SELECT id FROM teams WHERE name = ?", name);
    if (!row) throw new Error(`no team named ${name}`);
    return row.id;
  }

  company(tier: Tier): { id: number } {
    const sql = "SELECT id FROM companies WHERE support_tier = ? ORDER BY id";
    return this.context.random.pick(allRows<{ id: number }>(this.context.db, sql, tier));
  }

  /** An active, non-lead agent of a team (the lead if the team has nobody else). */
  worker(teamId: number): number {
    const { db, random } = this.context;
    const workers = allRows<{ id: number }>(
      db,
      "SELECT id FROM agents WHERE team_id = ? AND status = 'active' AND role != 'lead' ORDER BY id",
      teamId,
    );
    if (workers.length > 0) return random.pick(workers).id;
    return getRow<{ id: number }>(db, "SELECT id FROM agents WHERE team_id = ? AND role = 'lead'", teamId)!
      .id;
  }

  /**
   * The id of the unused generated ticket (among those `whereSql` selects) created closest to `createdAt`, so
   * that a planted ticket takes its id and ids stay roughly chronological; a new id when none is left.
   */
  reuseId(createdAt: number, whereSql = "1 = 1", parameters: unknown[] = []): number {
    const { db } = this.context;
    const candidates = allRows<{ id: number; created_at: string }>(
      db,
      `SELECT id, created_at FROM tickets WHERE ${whereSql} ORDER BY id`,
      ...parameters,
    );
    let best: { id: number; distance: number } | null = null;
    for (const candidate of candidates) {
      if (this.used.has(candidate.id)) continue;
      const distance = Math.abs(isoToMinutes(candidate.created_at) - createdAt);
      if (best === null || distance < best.distance) best = { id: candidate.id, distance };
    }
    const id =
      best?.id ?? getRow<{ id: number }>(db, "SELECT COALESCE(MAX(id), 10000) + 1 AS id FROM tickets")!.id;
    this.used.add(id);
    return id;
  }

  /**
   * The shape every planted ticket starts from, raised by the company's first contact; callers override what
   * their scenario needs.
   */
  record(
    id: number,
    fields: Pick<TicketRecord, "subject" | "category" | "priority" | "companyId" | "teamId" | "createdAt">,
  ): TicketRecord {
    const requester = getRow<{ id: number }>(
      this.context.db,
      "SELECT id FROM customers WHERE company_id = ? ORDER BY id LIMIT 1",
      fields.companyId,
    )!;
    return {
      id,
      ...fields,
      requesterId: requester.id,
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

  write(record: TicketRecord): void {
    writeTicketRecord(this.context.db, record);
  }
}
