/**
 * Formats of the workspace documents that tasks depend on: written by the generator, parsed back by the
 * verifiers, so that expectations always come from what the agent can actually read.
 */
import { addDays, weekdayOf } from "./business-time.js";

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

function csvCell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function toCsv(
  header: readonly string[],
  rows: ReadonlyArray<readonly (string | number | null)[]>,
): string {
  const lines = [header.join(",")];
  for (const row of rows) lines.push(row.map((cell) => csvCell(cell === null ? "" : String(cell))).join(","));
  return `${lines.join("\n")}\n`;
}

/** A small RFC 4180 reader (quoted cells, doubled quotes), enough for the files we write. */
export function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ",") {
      row.push(cell);
      cell = "";
    } else if (character === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else if (character !== "\r") cell += character;
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  const [header, ...body] = rows;
  if (!header) return [];
  return body
    .filter((cells) => cells.some((value) => value !== ""))
    .map((cells) => Object.fromEntries(header.map((name, column) => [name, cells[column] ?? ""])));
}

export function renderHolidays(holidays: readonly Holiday[]): string {
  return toCsv(
    ["date", "name", "weekday"],
    holidays.map((holiday) => [
      holiday.date,
      holiday.name,
      ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][
        weekdayOf(holiday.date)
      ] ?? "",
    ]),
  );
}

export function parseHolidays(text: string | null): Set<string> {
  if (text === null) throw new Error(`workspace file ${HOLIDAYS_PATH} is missing`);
  return new Set(parseCsv(text).map((row) => row.date ?? ""));
}

const LEAVE_HEADER = [
  "agent_email",
  "agent_name",
  "team",
  "leave_type",
  "start_date",
  "end_date",
  "cover_agent_email",
  "approved_by",
] as const;

export function renderLeaveCalendar(entries: readonly LeaveEntry[]): string {
  return toCsv(
    LEAVE_HEADER,
    entries.map((entry) => [
      entry.agentEmail,
      entry.agentName,
      entry.team,
      entry.leaveType,
      entry.startDate,
      entry.endDate,
      entry.coverAgentEmail,
      entry.approvedBy,
    ]),
  );
}

export function parseLeaveCalendar(text: string | null): LeaveEntry[] {
  if (text === null) throw new Error(`workspace file ${LEAVE_CALENDAR_PATH} is missing`);
  return parseCsv(text).map((row) => ({
    agentEmail: row.agent_email ?? "",
    agentName: row.agent_name ?? "",
    team: row.team ?? "",
    leaveType: row.leave_type ?? "",
    startDate: row.start_date ?? "",
    endDate: row.end_date ?? "",
    coverAgentEmail: row.cover_agent_email ?? "",
    approvedBy: row.approved_by ?? "",
  }));
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
