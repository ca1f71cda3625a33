/** Helpers shared by the it_support tasks: reading the desk's "now", planting tickets, Python snippets. */
import type Database from "better-sqlite3";
import { PYTHON_WORKSPACE_HELPERS, type NearMiss } from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { isoToMinutes } from "./business-time.js";
import type { Priority, Tier } from "./policy.js";
import type { TicketEventRecord, TicketRecord } from "./ticket-records.js";

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

/** The snapshot instant ("now") the generator recorded, as minutes since the epoch. */
export function readSnapshotMinutes(db: Database.Database): number {
  const row = db.prepare("SELECT value FROM service_desk_settings WHERE key = 'snapshot_at'").get() as
    { value: string } | undefined;
  if (!row) throw new Error("service_desk_settings has no snapshot_at");
  return isoToMinutes(row.value);
}

export function companiesByTier(db: Database.Database, tier: Tier): CompanyRow[] {
  return db
    .prepare("SELECT id, name, support_tier FROM companies WHERE support_tier = ? ORDER BY id")
    .all(tier) as CompanyRow[];
}

export function firstCustomerOf(db: Database.Database, companyId: number): number {
  return (
    db.prepare("SELECT id FROM customers WHERE company_id = ? ORDER BY id LIMIT 1").get(companyId) as {
      id: number;
    }
  ).id;
}

/** An active, non-lead agent of a team (the lead if the team has nobody else). */
export function workerOf(db: Database.Database, teamId: number, random: SeededRandom): number {
  const workers = db
    .prepare("SELECT id FROM agents WHERE team_id = ? AND status = 'active' AND role != 'lead' ORDER BY id")
    .all(teamId) as Array<{ id: number }>;
  if (workers.length > 0) return random.pick(workers).id;
  return (
    db.prepare("SELECT id FROM agents WHERE team_id = ? AND role = 'lead'").get(teamId) as { id: number }
  ).id;
}

export function teamIdByName(db: Database.Database, name: string): number {
  const row = db.prepare("SELECT id FROM teams WHERE name = ?").get(name) as { id: number } | undefined;
  if (!row) throw new Error(`no team named ${name}`);
  return row.id;
}

export function nextTicketId(db: Database.Database): number {
  return (db.prepare("SELECT COALESCE(MAX(id), 10000) + 1 AS id FROM tickets").get() as { id: number }).id;
}

/** A status-change event. */
export function statusEvent(at: number, from: string, to: string, actor: number | null): TicketEventRecord {
  return { type: "status_change", actorAgentId: actor, at, fromValue: from, toValue: to, body: null };
}

/** The shape every planted ticket starts from; callers override what their scenario needs. */
export function baseRecord(
  id: number,
  fields: Pick<
    TicketRecord,
    "subject" | "category" | "priority" | "companyId" | "requesterId" | "teamId" | "createdAt"
  >,
): TicketRecord {
  return {
    id,
    ...fields,
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

/** Python helpers for the oracles: reading a whole paginated listing and counting business minutes. */
export const PYTHON_HELPERS = `
import json, re, csv, io
from datetime import datetime, timedelta, timezone

${PYTHON_WORKSPACE_HELPERS}

def ts(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))

def business_minutes(start, end, holidays):
    """Minutes inside Mon-Fri 08:00-18:00 UTC, holidays excluded, between start and end."""
    if end <= start:
        return 0
    total = 0
    day = datetime(start.year, start.month, start.day, tzinfo=timezone.utc)
    while day < end:
        if day.weekday() < 5 and day.date().isoformat() not in holidays:
            opening = max(start, day + timedelta(hours=8))
            closing = min(end, day + timedelta(hours=18))
            if closing > opening:
                total += int((closing - opening).total_seconds() // 60)
        day += timedelta(days=1)
    return total
`;

/** The oracles' opening lines: the helpers, the drive's file list and the handbook (it states the snapshot). */
export const ORACLE_OPENING = `${PYTHON_HELPERS}
print([entry["path"] for entry in tools.list_files()["files"]])
handbook = read_text("policies/service-desk-handbook.md")`;

/** Python that reads the snapshot instant the handbook states into the variable `name`. */
export function snapshotFromHandbook(name = "now"): string {
  return `${name} = ts(re.search(r"captured at \\*\\*([0-9T:\\-]+Z)\\*\\*", handbook).group(1))`;
}

/** The switches of an oracle whose near-misses each turn one of them on. */
export type OracleFlags<Flag extends string> = Partial<Record<Flag, boolean>>;

/** The switches as Python constants, one a line: `noAgeRule: true` becomes `NO_AGE_RULE = True`. */
export function pythonFlags<Flag extends string>(flags: readonly Flag[], options: OracleFlags<Flag>): string {
  const constant = (flag: string): string => flag.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
  return flags.map((flag) => `${constant(flag)} = ${options[flag] ? "True" : "False"}`).join("\n");
}

/** One near-miss per `[id, flag, description]` row: the oracle's cells with that one switch on. */
export function flagNearMisses<Flag extends string>(
  cells: (options: OracleFlags<Flag>) => string[],
  rows: ReadonlyArray<readonly [id: string, flag: Flag, description: string]>,
): NearMiss[] {
  return rows.map(([id, flag, description]) => ({
    id,
    description,
    cells: cells({ [flag]: true } as OracleFlags<Flag>),
  }));
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
