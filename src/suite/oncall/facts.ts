/**
 * What the verifiers read back from an instance: the rules as the workspace documents state them and the
 * raw logs, exports and timelines as the tools show them, so an expectation follows exactly what the agent
 * could read.
 */
import { allRows, parseCsv, parseMarkdownTable, requireFile } from "../../envs/index.js";
import type { StateView } from "../../envs/index.js";
import { ZONES, seconds } from "./clock.js";
import { PAGING_POLICY, SCHEDULE, SLO_POLICY } from "./documents.js";
import { parseSchedule } from "./schedule.js";
import type { Schedule } from "./schedule.js";

function tableNumbers(state: StateView, path: string, heading: string): Map<string, number> {
  const rows = parseMarkdownTable(requireFile(state, path), heading);
  if (rows.length === 0) throw new Error(`${path} has no table under ${heading}`);
  return new Map(rows.map((row) => [row[0]!, Number(row[1])]));
}

/** The minutes of a paging-policy table by severity (acknowledgement targets, escalation). */
export const pagingMinutes = (state: StateView, heading: string): Map<string, number> =>
  tableNumbers(state, PAGING_POLICY, heading);
export const readSchedule = (state: StateView): Schedule => parseSchedule(requireFile(state, SCHEDULE));

/** The availability target of each service: its tier's, or the exception's. */
export function readSloTargets(state: StateView): Map<string, number> {
  const tiers = tableNumbers(state, SLO_POLICY, "Availability targets");
  const exceptions = tableNumbers(state, SLO_POLICY, "Exceptions");
  const services = allRows<{ service: string; tier: number }>(
    state.db,
    "SELECT service, tier FROM services ORDER BY service",
  );
  return new Map(
    services.map((row) => [row.service, exceptions.get(row.service) ?? tiers.get(String(row.tier))!]),
  );
}

/** Every service's name, in name order. */
export function serviceNames(state: StateView): string[] {
  return allRows<{ service: string }>(state.db, "SELECT service FROM services ORDER BY service").map(
    (row) => row.service,
  );
}

/** A map from the first column a query selects (`k`) to the second (`v`). */
function pairs(state: StateView, sql: string): Map<string, string> {
  return new Map(allRows<{ k: string; v: string }>(state.db, sql).map((row) => [row.k, row.v]));
}
export const engineerIdsByHandle = (state: StateView): Map<string, string> =>
  pairs(state, "SELECT handle AS k, engineer_id AS v FROM engineers");
export const serviceTeams = (state: StateView): Map<string, string> =>
  pairs(state, "SELECT service AS k, team AS v FROM services");

/** Every raw line of a service's log for a day, in order. */
export function logLines(state: StateView, service: string, date: string): string[] {
  return allRows<{ text: string }>(
    state.db,
    "SELECT text FROM log_lines WHERE service = ? AND log_date = ? ORDER BY line_no",
    service,
    date,
  ).map((row) => row.text);
}

/** Request durations in ms a log line records for a user request (null for other lines and probes). */
export function requestDurationMs(line: string): number | null {
  const access = /^\S+ - - \[[^\]]+\] "\w+ (\S+) HTTP\/1\.1" \d+ \d+ "[^"]*" "[^"]*" rt=([\d.]+)$/.exec(line);
  if (access)
    return access[1] === "/healthz" || access[1] === "/metrics" ? null : Math.round(Number(access[2]) * 1000);
  if (line.startsWith("{")) {
    const event = JSON.parse(line) as { event?: string; path?: string; duration_ms?: number };
    if (event.event === "http_request" && event.path !== "/healthz" && event.path !== "/metrics")
      return event.duration_ms!;
  }
  return null;
}

/** The root-cause exception class of every stack trace in a day's lines. */
export function rootCauses(lines: string[]): string[] {
  const causes: string[] = [];
  let java: string | null = null;
  let pythonOpen = false;
  const close = (): void => {
    if (java !== null) causes.push(java);
    java = null;
  };
  lines.forEach((line, index) => {
    if (/ ERROR \[/.test(line) && !line.startsWith("[")) {
      close();
      java = /^([\w.$]+)(?::|$)/.exec(lines[index + 1] ?? "")?.[1] ?? null;
    } else if (java !== null && line.startsWith("Caused by: "))
      java = /^Caused by: ([\w.$]+)/.exec(line)![1]!;
    else if (java !== null && !line.startsWith("\t") && index > 0 && !/ ERROR \[/.test(lines[index - 1]!))
      close();
    if (line === "Traceback (most recent call last):") pythonOpen = true;
    else if (pythonOpen && !line.startsWith(" ")) {
      causes.push(/^([\w.]+)/.exec(line)![1]!);
      pythonOpen = false;
    }
  });
  close();
  return causes;
}

/** Events in the window of one counter series by the policy's rule: increases, a lower sample a restart. */
export function counterIncrease(values: number[]): number {
  let total = 0;
  for (let index = 1; index < values.length; index += 1) {
    const value = values[index]!;
    const previous = values[index - 1]!;
    total += value >= previous ? value - previous : value;
  }
  return total;
}

/** The counter samples of an export by status class (Prometheus text or CSV), gaps left out. */
export function exportSeries(text: string, csv: boolean): Map<string, number[]> {
  const series = new Map<string, number[]>();
  const push = (code: string, value: string): void => {
    if (value === "") return;
    if (!series.has(code)) series.set(code, []);
    series.get(code)!.push(Number(value));
  };
  if (csv)
    for (const row of parseCsv(text)) for (const code of ["2xx", "4xx", "5xx"]) push(code, row[code] ?? "");
  else
    for (const found of text.matchAll(/^http_requests_total\{[^}]*code="(\dxx)"\} (\d+) \d+$/gm))
      push(found[1]!, found[2]!);
  return series;
}

/** An instant written in a timeline: `2025-06-12T14:03:00Z` or `2025-06-12 07:03 PDT`. */
export function timelineInstant(line: string): number {
  const iso = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)/.exec(line);
  if (iso) return seconds(iso[1]!);
  const wall = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) ([A-Z]+)/.exec(line);
  const zone = ZONES.find((item) => item.abbreviation === wall?.[3]);
  if (!wall || !zone) throw new Error(`timeline line without a time: ${line}`);
  return seconds(`${wall[1]!}T${wall[2]!}:00Z`) - zone.offsetMinutes * 60;
}
