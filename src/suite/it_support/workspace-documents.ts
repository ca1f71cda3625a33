/**
 * Formats of the workspace documents that tasks depend on: written by the generator, parsed back by the
 * verifiers, so that expectations always come from what the agent can actually read.
 */
import { addDays, camelCaseName, draftsToCsv, parseCsv, toCsv, weekdayName } from "../../envs/index.js";

export const HOLIDAYS_PATH = "calendars/holidays.csv";
export const LEAVE_CALENDAR_PATH = "staff/leave-calendar.csv";
export const HANDBOOK_PATH = "policies/service-desk-handbook.md";
export const SLA_POLICY_PATH = "policies/sla-policy.md";
export const ESCALATION_MATRIX_PATH = "policies/escalation-matrix.md";
export const REFRESH_POLICY_PATH = "policies/hardware-refresh-policy.md";

export function rotaPath(monday: string): string {
  return `rota/on-call-${monday}.md`;
}

export interface Holiday {
  date: string;
  name: string;
}

export interface LeaveEntry {
  agentEmail: string;
  agentName: string;
  team: string;
  leaveType: string;
  startDate: string;
  endDate: string;
  coverAgentEmail: string;
  approvedBy: string;
}

export interface RotaLine {
  team: string;
  primaryName: string;
  primaryEmail: string;
  secondaryName: string;
  secondaryEmail: string;
}

export function renderHolidays(holidays: readonly Holiday[]): string {
  return toCsv(
    ["date", "name", "weekday"],
    holidays.map((holiday) => [holiday.date, holiday.name, weekdayName(holiday.date)]),
  );
}

export function parseHolidays(text: string | null): Set<string> {
  if (text === null) throw new Error(`workspace file ${HOLIDAYS_PATH} is missing`);
  return new Set(parseCsv(text).map((row) => row.date ?? ""));
}

const LEAVE_COLUMNS =
  "agent_email, agent_name, team, leave_type, start_date, end_date, cover_agent_email, approved_by";

export function renderLeaveCalendar(entries: readonly LeaveEntry[]): string {
  return draftsToCsv(LEAVE_COLUMNS, entries);
}

export function parseLeaveCalendar(text: string | null): LeaveEntry[] {
  if (text === null) throw new Error(`workspace file ${LEAVE_CALENDAR_PATH} is missing`);
  const columns = LEAVE_COLUMNS.split(", ");
  return parseCsv(text).map(
    (row) =>
      Object.fromEntries(
        columns.map((column) => [camelCaseName(column), row[column] ?? ""]),
      ) as unknown as LeaveEntry,
  );
}

export function renderRota(monday: string, lines: readonly RotaLine[], notes: readonly string[]): string {
  const table = lines.map(
    (line) =>
      `| ${line.team} | ${line.primaryName} <${line.primaryEmail}> | ${line.secondaryName} <${line.secondaryEmail}> |`,
  );
  return `# On-call rota — week of ${monday} (Monday) to ${addDays(monday, 6)} (Sunday)

The primary on-call agent takes new work and reassigned tickets for the team during the week; the
secondary covers the primary's breaks and any overflow.

| Team | Primary on-call | Secondary on-call |
|---|---|---|
${table.join("\n")}

## Notes

${notes.map((note) => `- ${note}`).join("\n")}
`;
}

/** Rota lines by team name. */
export function parseRota(text: string | null): Map<string, RotaLine> {
  if (text === null) throw new Error("on-call rota file is missing");
  const lines = new Map<string, RotaLine>();
  for (const raw of text.split("\n")) {
    const match = raw.match(/^\|\s*([^|]+?)\s*\|\s*(.+?)\s*<([^>]+)>\s*\|\s*(.+?)\s*<([^>]+)>\s*\|$/);
    if (!match) continue;
    const [, team, primaryName, primaryEmail, secondaryName, secondaryEmail] = match;
    lines.set(team as string, {
      team: team as string,
      primaryName: primaryName as string,
      primaryEmail: primaryEmail as string,
      secondaryName: secondaryName as string,
      secondaryEmail: secondaryEmail as string,
    });
  }
  return lines;
}
