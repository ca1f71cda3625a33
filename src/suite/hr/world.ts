/** The in-memory picture of one generated employer, built first and then written to SQLite and the workspace. */
import { addDays, fromDayNumber, isWeekend, toDayNumber } from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import type { Holiday, LeavePolicy, OvertimePolicy, SalaryMemo, VarianceControl } from "./policies.js";

export type EmploymentType = "full_time" | "part_time" | "contractor";
export type EmployeeStatus = "active" | "on_leave" | "terminated";
export type LeaveType = "annual" | "sick" | "unpaid" | "parental";
export type LeaveStatus = "pending" | "approved" | "denied" | "cancelled";
export type TimesheetStatus = "submitted" | "approved" | "rejected";

export interface Employee {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  departmentId: number;
  positionId: number;
  managerId: string | null;
  employmentType: EmploymentType;
  fte: number;
  status: EmployeeStatus;
  hireDate: string;
  terminationDate: string | null;
  annualSalary: number | null;
  hourlyRate: number | null;
  compensationEffectiveDate: string;
  workLocation: string;
}

export interface LeaveRequest {
  id: number;
  employeeId: string;
  leaveType: LeaveType;
  startDate: string;
  endDate: string;
  days: number;
  status: LeaveStatus;
  submittedAt: string;
  decisionNote: string | null;
}

export interface LeaveBalance {
  employeeId: string;
  year: number;
  leaveType: "annual" | "sick";
  entitlementDays: number;
  carriedOverDays: number;
  usedDays: number;
}

export interface TimesheetEntry {
  employeeId: string;
  workDate: string;
  hours: number;
  projectCode: string;
  status: TimesheetStatus;
}

export interface PayPeriod {
  start: string;
  end: string;
}

export interface PayrollRun {
  id: string;
  periodStart: string;
  periodEnd: string;
  payDate: string;
  status: "draft" | "finalized" | "paid";
  employeeCount: number | null;
  totalGross: number | null;
}

export interface Payslip {
  runId: string;
  employeeId: string;
  regularHours: number;
  overtimeHours: number;
  regularPay: number;
  overtimePay: number;
  grossPay: number;
  taxWithheld: number;
  benefitsDeduction: number;
  netPay: number;
}

/** Dates every part of the generator agrees on, all derived from the reference date. */
export interface Calendar {
  referenceDate: string;
  year: number;
  /** Biweekly pay periods, most recent first; index 0 is the open (draft) period. */
  periods: PayPeriod[];
  /** First day with timesheet entries (start of the period before the open one). */
  timesheetStart: string;
  holidays: Holiday[];
  holidayDates: Set<string>;
}

export interface World {
  calendar: Calendar;
  overtimePolicy: OvertimePolicy;
  leavePolicy: LeavePolicy;
  salaryMemo: SalaryMemo;
  varianceControl: VarianceControl;
  employees: Employee[];
  leaveRequests: LeaveRequest[];
  leaveBalances: LeaveBalance[];
  timesheets: TimesheetEntry[];
  payrollRuns: PayrollRun[];
  payslips: Payslip[];
}

export function isBusinessDay(date: string, holidayDates: ReadonlySet<string>): boolean {
  return !isWeekend(date) && !holidayDates.has(date);
}

/** The date itself if it is a business day, else the nearest one in the direction of `step`. */
export function nextBusinessDay(date: string, holidayDates: ReadonlySet<string>, step: 1 | -1 = 1): string {
  let current = date;
  while (!isBusinessDay(current, holidayDates)) current = addDays(current, step);
  return current;
}

export function previousBusinessDay(date: string, holidayDates: ReadonlySet<string>): string {
  return nextBusinessDay(date, holidayDates, -1);
}

export function businessDaysBetween(start: string, end: string, holidayDates: ReadonlySet<string>): number {
  let count = 0;
  for (let day = toDayNumber(start); day <= toDayNumber(end); day += 1) {
    if (isBusinessDay(fromDayNumber(day), holidayDates)) count += 1;
  }
  return count;
}

/** A random value in [min, max] in steps of `step` (half days, quarter hours...). */
export function randomStep(random: SeededRandom, min: number, max: number, step: number): number {
  const steps = Math.round((max - min) / step);
  return Math.round((min + random.int(0, steps) * step) * 1000) / 1000;
}

/** A random office-hours timestamp on the given date. */
export function timestampOn(random: SeededRandom, date: string): string {
  const hour = String(random.int(7, 18)).padStart(2, "0");
  const minute = String(random.int(0, 59)).padStart(2, "0");
  const second = String(random.int(0, 59)).padStart(2, "0");
  return `${date}T${hour}:${minute}:${second}`;
}
