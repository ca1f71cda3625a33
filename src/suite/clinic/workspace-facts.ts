import { parseCsv, requireFile, type StateView } from "../../envs/index.js";
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
  const roster = new Map<number, RosterEntry>();
  for (const row of parseCsv(requireFile(state, ROSTER_PATH))) {
    const providerId = Number(row.provider_id);
    const days = row.clinic_days!.split(/\s+/).map((day) => WEEKDAY_NAMES.indexOf(day as never));
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
  for (const row of parseCsv(requireFile(state, COVERAGE_TABLE_PATH))) {
    const terms = coverage.get(row.plan_code!) ?? new Map<ChargeCategory, CoverageTerms>();
    terms.set(
      row.category as ChargeCategory,
      row.covered === "yes"
        ? { copay: Number(row.copay), coinsurancePercent: Number(row.coinsurance_percent) }
        : null,
    );
    coverage.set(row.plan_code!, terms);
  }
  return coverage;
}
