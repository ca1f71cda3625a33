/**
 * The property domain's business rules as the generator applies them and the documents state them. The
 * verifiers do not import the numbers from here: they read them back from the workspace documents
 * (`workspace-facts.ts`), so an expectation follows exactly the text the agent read.
 */
import { addDays, makeDate, monthEndAfter, roundCents } from "../../envs/index.js";

export const TRADES = ["plumbing", "electrical", "hvac", "appliance", "pest_control", "general"] as const;
export type Trade = (typeof TRADES)[number];

export const PRIORITIES = ["emergency", "urgent", "routine"] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Days to resolve a work order, by priority (the maintenance SLA). */
export const SLA_DAYS: Record<Priority, number> = { emergency: 1, urgent: 3, routine: 14 };

export const LATE_FEE_PCT = 5;
export const LATE_FEE_MIN = 50;
export const LATE_FEE_MAX = 95;
/** Below this unpaid amount at the end of the grace period no late fee is charged. */
export const LATE_FEE_THRESHOLD = 25;

/** The six rent periods of the ledger, oldest first, ending with the reference date's month. */
export function ledgerPeriods(referenceDate: string): string[] {
  const [year, month] = referenceDate.split("-").map(Number) as [number, number];
  return [5, 4, 3, 2, 1, 0].map((back) => makeDate(year, month - back, 1).slice(0, 7));
}

export function periodStart(period: string): string {
  return `${period}-01`;
}

export function periodEnd(period: string): string {
  return monthEndAfter(periodStart(period), 0);
}

/** The last day rent still counts as on time: the due date (this due day of the period) plus the grace days. */
export function graceEnd(period: string, dueDay: number, graceDays: number): string {
  return addDays(`${period}-${String(dueDay).padStart(2, "0")}`, graceDays);
}

export function lateFeeFor(monthlyRent: number, pct: number, min: number, max: number): number {
  return roundCents(Math.min(max, Math.max(min, (monthlyRent * pct) / 100)));
}
