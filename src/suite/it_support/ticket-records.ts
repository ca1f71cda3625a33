import type Database from "better-sqlite3";
import { cachedStatement, camelCaseName, getRow } from "../../envs/index.js";
import { minutesToIso } from "./business-time.js";
import type { Category, Priority } from "./policy.js";

export type TicketStatus = "new" | "open" | "pending" | "on_hold" | "resolved" | "closed";
export type EventType = "created" | "assigned" | "status_change" | "comment" | "escalated";
export type ResolutionCode = "fixed" | "workaround" | "duplicate" | "user_error" | "no_fault_found";

export interface TicketEventRecord {
  type: EventType;
  actorAgentId: number | null;
  /** Minutes since the epoch (UTC). */
  at: number;
  fromValue: string | null;
  toValue: string | null;
  body: string | null;
}

/** A ticket with its full history, as the generator and the task preparations build it. */
export interface TicketRecord {
  id: number;
  subject: string;
  category: Category;
  priority: Priority;
  status: TicketStatus;
  channel: "email" | "phone" | "portal" | "chat";
  companyId: number;
  requesterId: number;
  assetId: number | null;
  teamId: number;
  assigneeAgentId: number | null;
  escalationLevel: number;
  createdAt: number;
  firstResponseAt: number | null;
  resolvedAt: number | null;
  closedAt: number | null;
  resolutionCode: ResolutionCode | null;
  events: TicketEventRecord[];
}

/** A history event; `body` and the from/to values default to null. */
export function ticketEvent(
  type: EventType,
  at: number,
  actorAgentId: number | null,
  fields: Partial<Pick<TicketEventRecord, "fromValue" | "toValue" | "body">> = {},
): TicketEventRecord {
  return { type, actorAgentId, at, fromValue: null, toValue: null, body: null, ...fields };
}

/** A status-change event. */
export function statusEvent(at: number, from: string, to: string, actor: number | null): TicketEventRecord {
  return ticketEvent("status_change", at, actor, { fromValue: from, toValue: to });
}

const TICKET_COLUMNS =
  `id, subject, category, priority, status, channel, company_id, requester_id, asset_id, team_id,
  assignee_agent_id, escalation_level, created_at, first_response_at, resolved_at, closed_at, resolution_code,
  updated_at`.split(/,\s*/);

function isoOrNull(minutes: number | null): string | null {
  return minutes === null ? null : minutesToIso(minutes);
}

/**
 * Inserts a ticket, or rewrites an existing one in place (same id, history replaced), so that task
 * preparations can reshape a generated ticket without breaking the chronological order of ids.
 */
export function writeTicketRecord(db: Database.Database, record: TicketRecord): void {
  const events = [...record.events].sort((left, right) => left.at - right.at);
  const fields: Record<string, unknown> = {
    ...record,
    createdAt: minutesToIso(record.createdAt),
    firstResponseAt: isoOrNull(record.firstResponseAt),
    resolvedAt: isoOrNull(record.resolvedAt),
    closedAt: isoOrNull(record.closedAt),
    updatedAt: minutesToIso(events.at(-1)?.at ?? record.createdAt),
  };
  const values = Object.fromEntries(TICKET_COLUMNS.map((column) => [column, fields[camelCaseName(column)]]));
  if (getRow(db, "SELECT 1 FROM tickets WHERE id = ?", record.id) !== undefined) {
    cachedStatement(db, "DELETE FROM ticket_events WHERE ticket_id = ?").run(record.id);
    const assignments = TICKET_COLUMNS.slice(1).map((column) => `${column} = @${column}`);
    cachedStatement(db, `UPDATE tickets SET ${assignments.join(", ")} WHERE id = @id`).run(values);
  } else {
    const names = TICKET_COLUMNS.map((column) => `@${column}`);
    cachedStatement(
      db,
      `INSERT INTO tickets (${TICKET_COLUMNS.join(", ")}) VALUES (${names.join(", ")})`,
    ).run(values);
  }
  const insertEvent = cachedStatement(
    db,
    `INSERT INTO ticket_events (ticket_id, event_type, actor_agent_id, created_at, from_value, to_value, body)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const event of events) {
    const { type, actorAgentId, at, fromValue, toValue, body } = event;
    insertEvent.run(record.id, type, actorAgentId, minutesToIso(at), fromValue, toValue, body);
  }
}

/** The ticket's status at an instant, replayed from its status-change history. */
export function statusAt(record: TicketRecord, at: number): TicketStatus | null {
  if (at < record.createdAt) return null;
  if (record.closedAt !== null && at >= record.closedAt) return "closed";
  let status: TicketStatus = "new";
  for (const event of record.events) {
    if (event.at > at) break;
    if (event.type === "status_change" && event.toValue) status = event.toValue as TicketStatus;
  }
  return status;
}
