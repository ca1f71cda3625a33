/**
 * The property domain's business rules as the generator applies them and the documents state them. The
 * verifiers do not import the numbers from here: they read them back from the workspace documents
 * (`workspace-facts.ts`), so an expectation follows exactly the text the agent read.
 */
import { addDays, roundCents } from "../../envs/index.js";

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
  const year = Number(referenceDate.slice(0, 4));
  const month = Number(referenceDate.slice(5, 7));
  const periods: string[] = [];
  for (let back = 5; back >= 0; back -= 1) {
    const index = year * 12 + (month - 1) - back;
    periods.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`);
  }
  return periods;
}

export function periodStart(period: string): string {
  return `${period}-01`;
}

export function periodEnd(period: string): string {
  const [year, month] = period.split("-").map(Number) as [number, number];
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
  return addDays(next, -1);
}

/** The date rent of a period is due for a lease with this due day. */
export function dueDate(period: string, dueDay: number): string {
  return `${period}-${String(dueDay).padStart(2, "0")}`;
}

/** The last day rent still counts as on time. */
export function graceEnd(period: string, dueDay: number, graceDays: number): string {
  return addDays(dueDate(period, dueDay), graceDays);
}

export function lateFeeFor(monthlyRent: number, pct: number, min: number, max: number): number {
  return roundCents(Math.min(max, Math.max(min, (monthlyRent * pct) / 100)));
}
