import type Database from "better-sqlite3";
import {
  REFERENCE_DATE,
  addDays,
  allRows,
  longDate,
  parseAnswerNumber,
  parseCsv,
  type StateView,
} from "../../../envs/index.js";
import { weatherExportPath } from "../documents.js";
import { minutesOf } from "../generate.js";
import type { FlightRecord } from "../schema.js";

export const TODAY = REFERENCE_DATE;
export const YESTERDAY = addDays(REFERENCE_DATE, -1);
export const TOMORROW = addDays(REFERENCE_DATE, 1);
/** The options of every oracle's cells (all defaults); each near-miss flips one of them. */
export const ORACLE_OPTIONS = {};
/** How instructions name today, the same at every scale. */
export const TODAY_TEXT = `Today is ${longDate(REFERENCE_DATE)}.`;

export function flightsOn(db: Database.Database, date: string): FlightRecord[] {
  return allRows<FlightRecord>(
    db,
    "SELECT * FROM flights WHERE flight_date = ? ORDER BY scheduled_departure, flight_id",
    date,
  );
}

export function delayMinutes(actual: string | null, scheduled: string): number | null {
  return actual === null ? null : minutesOf(actual) - minutesOf(scheduled);
}

/** Flight numbers the weather export of a day lists (empty when there is no export for that day). */
export function weatherListed(state: StateView, day: string): Set<string> {
  const text = state.readFile(weatherExportPath(day));
  return new Set((text ? parseCsv(text) : []).map((row) => row.flight_number ?? ""));
}

export { minutesOf };

/**
 * Whether a booking note records the UMNR service: the service named (UMNR, unaccompanied minor, UM service
 * booked, minor travelling alone) and not declined or replaced by an accompanying adult.
 */
export function isUnaccompaniedMinor(note: string | null): boolean {
  if (!note) return false;
  return (
    /\bUMNR\b|unaccompanied minor|UM service booked|minor travelling alone/i.test(note) &&
    !/declined|travelling with|next trip/i.test(note)
  );
}

/** A number from a JSON answer value: numbers as they are, text as a user writes it ("$450", "1,200"). */
export function answerNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string") return parseAnswerNumber(value) ?? NaN;
  return NaN;
}

/** A flight number compared the way people write it: "RA 1003", "ra1003" and "RA-1003" are the same flight. */
export function flightNumberKey(text: string): string {
  return text.toUpperCase().replace(/[\s-]+/g, "");
}
