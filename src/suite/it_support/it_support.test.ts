import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorkspaceFiles, openToolBench, type ToolBench } from "../../envs/index.js";
import {
  addBusinessMinutes,
  businessMinutesBetween,
  isoToMinutes,
  minutesToIso,
  previousMonthRange,
  subtractBusinessMinutes,
} from "./business-time.js";
import { itSupportTasks } from "./index.js";
import { itSupportTools } from "./tools.js";
import { LEAVE_CALENDAR_PATH, parseLeaveCalendar, parseRota } from "./workspace-documents.js";

let harness: ToolBench;

// The instance is immutable: tools write to a private copy, as an episode does.
beforeAll(() => {
  harness = openToolBench(itSupportTasks[0]!, itSupportTools);
});

afterAll(() => harness.close());

const call: ToolBench["call"] = (name, args) => harness.call(name, args);
const value: ToolBench["value"] = (name, args) => harness.value(name, args);
const errorText: ToolBench["errorText"] = (result) => harness.errorText(result);

type TicketSummary = { id: number; status: string; team_id: number; assignee_agent_id: number | null };

describe("business time", () => {
  const holidays = new Set(["2025-05-26"]);
  const at = (iso: string): number => isoToMinutes(iso);

  it("counts only weekday hours between 08:00 and 18:00 and skips holidays", () => {
    // Friday 17:00 -> Tuesday 09:00 across a weekend and the Monday holiday: 60 + 60 minutes.
    expect(businessMinutesBetween(at("2025-05-23T17:00:00Z"), at("2025-05-27T09:00:00Z"), holidays)).toBe(
      120,
    );
    expect(businessMinutesBetween(at("2025-05-27T07:00:00Z"), at("2025-05-27T19:00:00Z"), holidays)).toBe(
      600,
    );
  });

  it("adds and subtracts business minutes as inverses of the count", () => {
    const start = at("2025-05-23T16:30:00Z");
    const end = addBusinessMinutes(start, 200, holidays);
    expect(minutesToIso(end)).toBe("2025-05-27T09:50:00Z");
    expect(businessMinutesBetween(start, end, holidays)).toBe(200);
    expect(subtractBusinessMinutes(end, 200, holidays)).toBe(start);
  });

  it("finds the previous calendar month across a year boundary", () => {
    expect(previousMonthRange("2026-01-04")).toEqual({ start: "2025-12-01", end: "2026-01-01" });
  });
});

describe("workspace documents", () => {
  it("writes a leave calendar with someone away today and a rota naming their team's on-call agent", () => {
    const files = listWorkspaceFiles(harness.instance.workspaceDir);
    expect(files).toContain(LEAVE_CALENDAR_PATH);
    const entries = parseLeaveCalendar(
      readFileSync(join(harness.instance.workspaceDir, LEAVE_CALENDAR_PATH), "utf8"),
    );
    const rotaFile = files.find((file) => file.startsWith("rota/")) as string;
    const rota = parseRota(readFileSync(join(harness.instance.workspaceDir, rotaFile), "utf8"));
    expect(entries.length).toBeGreaterThan(4);
    expect(rota.get("Service Desk")?.primaryEmail).toMatch(/@northbeam-it\.com$/);
  });
});

describe("it_support tools", () => {
  it("paginates ticket listings with a stable envelope", async () => {
    const total = (harness.db.prepare("SELECT COUNT(*) AS count FROM tickets").get() as { count: number })
      .count;
    const first = await value("list_tickets", { per_page: 50 });
    expect(first).toMatchObject({ page: 1, per_page: 50, total, has_more: total > 50 });
    const last = await value("list_tickets", { page: Math.ceil(total / 50), per_page: 50 });
    expect(last.has_more).toBe(false);
    expect(await call("list_tickets", { per_page: 51 })).toMatchObject({ isError: true });
  });

  it("filters unresolved tickets and date ranges", async () => {
    const unresolved = (await value("list_tickets", { status: "unresolved", per_page: 50 }))
      .tickets as TicketSummary[];
    expect(unresolved.length).toBeGreaterThan(0);
    expect(unresolved.every((ticket) => ["new", "open", "pending", "on_hold"].includes(ticket.status))).toBe(
      true,
    );
    const since = (await value("list_tickets", { created_from: "2025-06-01", per_page: 50 }))
      .tickets as Array<{
      created_at: string;
    }>;
    expect(since.every((ticket) => ticket.created_at >= "2025-06-01T00:00:00Z")).toBe(true);
  });

  it("explains missing records", async () => {
    expect(errorText(await call("get_ticket", { ticket_id: 1 }))).toContain("list_tickets");
    expect(errorText(await call("get_asset", { asset_id: 999_999 }))).toContain("list_assets");
  });

  it("assigns only to active agents of the ticket's team and records the event", async () => {
    const ticket = harness.db
      .prepare(
        "SELECT * FROM tickets WHERE status = 'open' AND assignee_agent_id IS NOT NULL ORDER BY id LIMIT 1",
      )
      .get() as TicketSummary;
    const teammate = harness.db
      .prepare(
        "SELECT id FROM agents WHERE team_id = ? AND status = 'active' AND id != ? ORDER BY id LIMIT 1",
      )
      .get(ticket.team_id, ticket.assignee_agent_id) as { id: number };
    const outsider = harness.db
      .prepare("SELECT id FROM agents WHERE team_id != ? AND status = 'active' LIMIT 1")
      .get(ticket.team_id) as {
      id: number;
    };
    expect(errorText(await call("assign_ticket", { ticket_id: ticket.id, agent_id: outsider.id }))).toContain(
      "team",
    );
    const result = await value("assign_ticket", {
      ticket_id: ticket.id,
      agent_id: teammate.id,
      note: "cover",
    });
    expect((result.ticket as TicketSummary).assignee_agent_id).toBe(teammate.id);
    const events = (await value("list_ticket_events", { ticket_id: ticket.id, event_type: "assigned" }))
      .events as Array<{
      to_value: string;
      created_at: string;
    }>;
    expect(events.at(-1)?.to_value).toBe(String(teammate.id));
    expect(events.at(-1)?.created_at).toMatch(/T09:30:00Z$/);
  });

  it("escalates by moving the ticket unassigned to the new queue and raising its level", async () => {
    const ticket = harness.db
      .prepare("SELECT * FROM tickets WHERE status = 'open' ORDER BY id DESC LIMIT 1")
      .get() as TicketSummary & {
      escalation_level: number;
    };
    const result = (
      await value("escalate_ticket", { ticket_id: ticket.id, team_id: 9, reason: "Platinum customer" })
    ).ticket as TicketSummary & { escalation_level: number };
    expect(result).toMatchObject({
      team_id: 9,
      assignee_agent_id: null,
      escalation_level: ticket.escalation_level + 1,
    });
    expect(result.status).toBe(ticket.status);
  });

  it("enforces the status workflow", async () => {
    const closed = harness.db.prepare("SELECT id FROM tickets WHERE status = 'closed' LIMIT 1").get() as {
      id: number;
    };
    expect(errorText(await call("update_ticket_status", { ticket_id: closed.id, status: "open" }))).toContain(
      "closed is final",
    );
    expect(
      errorText(await call("escalate_ticket", { ticket_id: closed.id, team_id: 2, reason: "late" })),
    ).toContain("unresolved");
  });

  it("rate-limits every second page of the reporting export once", async () => {
    const total = (
      harness.db
        .prepare("SELECT COUNT(*) AS count FROM ticket_events WHERE event_type = 'status_change'")
        .get() as {
        count: number;
      }
    ).count;
    const first = await value("export_status_changes", { per_page: 50 });
    expect(first).toMatchObject({ page: 1, total, has_more: total > 50 });
    expect(errorText(await call("export_status_changes", { page: 2, per_page: 50 }))).toContain("429");
    const second = await value("export_status_changes", { page: 2, per_page: 50 });
    expect((second.changes as Array<{ to_status: string }>).length).toBeGreaterThan(0);
    const since = await value("export_status_changes", { changed_from: "2025-06-01", per_page: 50 });
    expect(
      (since.changes as Array<{ changed_at: string }>).every(
        (change) => change.changed_at >= "2025-06-01T00:00:00Z",
      ),
    ).toBe(true);
  });

  it("answers a cold vendor-portal lookup with an error body, then the warranty", async () => {
    harness.db
      .prepare(
        "INSERT INTO vendor_warranties (asset_tag, vendor, plan, coverage_ends_on) VALUES ('NB-99991', 'Dell', 'Dell extended care', '2026-01-31')",
      )
      .run();
    const cold = await call("get_vendor_warranty", { asset_tag: "nb-99991" });
    expect(cold.isError).toBeFalsy();
    expect(cold.structuredContent).toMatchObject({ status: "error" });
    expect(await value("get_vendor_warranty", { asset_tag: "nb-99991" })).toMatchObject({
      status: "ok",
      asset_tag: "NB-99991",
      coverage_ends_on: "2026-01-31",
    });
    expect(errorText(await call("get_vendor_warranty", { asset_tag: "NB-99990" }))).toContain("get_asset");
  });
});
