import type Database from "better-sqlite3";
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

function isoOrNull(minutes: number | null): string | null {
  return minutes === null ? null : minutesToIso(minutes);
}

/**
 * Inserts a ticket, or rewrites an existing one in place (same id, history replaced), so that task
 * preparations can reshape a generated ticket without breaking the chronological order of ids.
 */
export function writeTicketRecord(db: Database.Database, record: TicketRecord): void {
  const events = [...record.events].sort((left, right) => left.at - right.at);
  const updatedAt =
    events.length > 0 ? (events[events.length - 1]?.at ?? record.createdAt) : record.createdAt;
  const values = {
    id: record.id,
    subject: record.subject,
    category: record.category,
    priority: record.priority,
    status: record.status,
    channel: record.channel,
    company_id: record.companyId,
    requester_id: record.requesterId,
    asset_id: record.assetId,
    team_id: record.teamId,
    assignee_agent_id: record.assigneeAgentId,
    escalation_level: record.escalationLevel,
    created_at: minutesToIso(record.createdAt),
    first_response_at: isoOrNull(record.firstResponseAt),
    resolved_at: isoOrNull(record.resolvedAt),
    closed_at: isoOrNull(record.closedAt),
    resolution_code: record.resolutionCode,
    updated_at: minutesToIso(updatedAt),
  };
  const exists = db.prepare("SELECT 1 FROM tickets WHERE id = ?").get(record.id) !== undefined;
  if (exists) {
    db.prepare("DELETE FROM ticket_events WHERE ticket_id = ?").run(record.id);
    db.prepare(
      `UPDATE tickets SET subject = @subject, category = @category, priority = @priority, status = @status,
         channel = @channel, company_id = @company_id, requester_id = @requester_id, asset_id = @asset_id,
         team_id = @team_id, assignee_agent_id = @assignee_agent_id, escalation_level = @escalation_level,
         created_at = @created_at, first_response_at = @first_response_at, resolved_at = @resolved_at,
         closed_at = @closed_at, resolution_code = @resolution_code, updated_at = @updated_at
       WHERE id = @id`,
    ).run(values);
  } else {
    db.prepare(
      `INSERT INTO tickets (id, subject, category, priority, status, channel, company_id, requester_id, asset_id,
         team_id, assignee_agent_id, escalation_level, created_at, first_response_at, resolved_at, closed_at,
         resolution_code, updated_at)
       VALUES (@id, @subject, @category, @priority, @status, @channel, @company_id, @requester_id, @asset_id,
         @team_id, @assignee_agent_id, @escalation_level, @created_at, @first_response_at, @resolved_at, @closed_at,
         @resolution_code, @updated_at)`,
    ).run(values);
  }
  const insertEvent = db.prepare(
    `INSERT INTO ticket_events (ticket_id, event_type, actor_agent_id, created_at, from_value, to_value, body)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const event of events) {
    insertEvent.run(
      record.id,
      event.type,
      event.actorAgentId,
      minutesToIso(event.at),
      event.fromValue,
      event.toValue,
      event.body,
    );
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
