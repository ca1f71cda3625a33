import { splitCsvLine, type StateView, requireFile } from "../../envs/index.js";
import { COVERAGE_TABLE_PATH, NO_SHOW_POLICY_PATH, ROSTER_PATH } from "./documents.js";
import { WEEKDAY_NAMES } from "./rules.js";
import type { ChargeCategory } from "./rules.js";

/**
 * Readers for the facts verifiers take from workspace documents (roster, leave memo, closures, excused
 * no-shows, coverage), so expectations follow the documents of the instance being verified.
 */

export interface RosterEntry {
  providerId: number;
  /** Weekday numbers, 0 = Sunday. */
  clinicDays: Set<number>;
}

export function readRoster(state: StateView): Map<number, RosterEntry> {
  const lines = requireFile(state, ROSTER_PATH).trim().split("\n").slice(1);
  const roster = new Map<number, RosterEntry>();
  for (const line of lines) {
    const fields = splitCsvLine(line);
    const providerId = Number(fields[0]);
    const days = (fields[4] ?? "").split(/\s+/).map((day) => WEEKDAY_NAMES.indexOf(day as never));
    roster.set(providerId, { providerId, clinicDays: new Set(days.filter((day) => day >= 0)) });
  }
  return roster;
}

export interface LeaveRow {
  providerId: number;
  from: string;
  to: string;
  approved: boolean;
}

export function readLeaveMemo(state: StateView): LeaveRow[] {
  const path = state.listFiles().find((file) => /^memos\/.*provider-leave-coverage\.md$/.test(file));
  if (!path) throw new Error("the provider leave memo is missing from memos/");
  const rows: LeaveRow[] = [];
  for (const line of requireFile(state, path).split("\n")) {
    const match = line.match(
      /^\| [^|]+\| (\d+) \| [^|]+\| (\d{4}-\d{2}-\d{2}) \| (\d{4}-\d{2}-\d{2}) \| ([^|]+)\|/,
    );
    if (match)
      rows.push({
        providerId: Number(match[1]),
        from: match[2]!,
        to: match[3]!,
        approved: match[4]!.trim().startsWith("Approved"),
      });
  }
  return rows;
}

export interface Closure {
  date: string;
  fromMinutes: number;
}

export function readClosures(state: StateView): Closure[] {
  const closures: Closure[] = [];
  for (const path of state.listFiles().filter((file) => file.startsWith("memos/"))) {
    const text = requireFile(state, path);
    const date = text.match(/^Closure date: (\d{4}-\d{2}-\d{2})/m)?.[1];
    const time = text.match(/closed at (\d{2}):(\d{2})/);
    if (date && time) closures.push({ date, fromMinutes: Number(time[1]) * 60 + Number(time[2]) });
  }
  return closures;
}

export function readExcusedAppointmentIds(state: StateView): Set<number> {
  const excused = new Set<number>();
  for (const path of state.listFiles().filter((file) => file.startsWith("front-desk/"))) {
    for (const line of requireFile(state, path).split("\n")) {
      const match = line.match(/EXCUSED.*appt #(\d+)/);
      if (match) excused.add(Number(match[1]));
    }
  }
  return excused;
}

export function readReviewPeriod(state: StateView): { from: string; to: string } {
  const match = requireFile(state, NO_SHOW_POLICY_PATH).match(
    /covers appointments dated (\d{4}-\d{2}-\d{2}) through (\d{4}-\d{2}-\d{2})/,
  );
  if (!match) throw new Error("the no-show policy does not state its review period");
  return { from: match[1]!, to: match[2]! };
}

export type CoverageTerms = { copay: number; coinsurancePercent: number } | null;

/** Coverage terms by plan code and charge category, from billing/insurance-coverage.csv. */
export function readCoverage(state: StateView): Map<string, Map<ChargeCategory, CoverageTerms>> {
  const coverage = new Map<string, Map<ChargeCategory, CoverageTerms>>();
  for (const line of requireFile(state, COVERAGE_TABLE_PATH).trim().split("\n").slice(1)) {
    const [planCode, , , category, covered, copay, coinsurance] = splitCsvLine(line);
    const terms = coverage.get(planCode!) ?? new Map<ChargeCategory, CoverageTerms>();
    terms.set(
      category as ChargeCategory,
      covered === "yes" ? { copay: Number(copay), coinsurancePercent: Number(coinsurance) } : null,
    );
    coverage.set(planCode!, terms);
  }
  return coverage;
}
