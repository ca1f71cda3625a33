/** Pay arithmetic shared by the generator (past payslips) and the verifiers (expected answers). */
import { mondayOf } from "../../envs/index.js";
import type { OvertimeRule } from "./policies.js";

export function roundCents(amount: number): number {
  return Math.round((amount + Number.EPSILON) * 100) / 100;
}

export interface WorkedDay {
  workDate: string;
  hours: number;
}

export interface OvertimeBreakdown {
  regularHours: number;
  overtimeHours: number;
  holidayHours: number;
  /** Overtime pay for the period (weekly overtime plus holiday hours), rounded to the cent. */
  overtimePay: number;
}

/**
 * Overtime of one employee over whole Monday-Sunday weeks, as the overtime policy defines it: holiday hours are
 * paid at the holiday multiplier and kept out of the weekly threshold.
 */
export function computeOvertime(
  entries: WorkedDay[],
  hourlyRate: number,
  rule: OvertimeRule,
  holidayDates: ReadonlySet<string>,
  holidayMultiplier: number,
): OvertimeBreakdown {
  const weekHours = new Map<string, number>();
  let holidayHours = 0;
  for (const entry of entries) {
    if (holidayDates.has(entry.workDate)) {
      holidayHours += entry.hours;
      continue;
    }
    const week = mondayOf(entry.workDate);
    weekHours.set(week, (weekHours.get(week) ?? 0) + entry.hours);
  }
  let overtimeHours = 0;
  let regularHours = 0;
  for (const hours of weekHours.values()) {
    const overtime = Math.max(0, hours - rule.thresholdHours);
    overtimeHours += overtime;
    regularHours += hours - overtime;
  }
  const overtimePay = roundCents(
    overtimeHours * hourlyRate * rule.multiplier + holidayHours * hourlyRate * holidayMultiplier,
  );
  return { regularHours, overtimeHours, holidayHours, overtimePay };
}
