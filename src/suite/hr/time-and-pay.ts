/** Timesheets of the last three pay periods and the payroll history that paid them. */
import type { SeededRandom } from "../../core/index.js";
import { CUSTOMER_SUPPORT_ID, SHIFT_DEPARTMENT_IDS, departmentById, positionById } from "./catalog.js";
import { addDays, dateRange, isWeekend, mondayOf, weekdayIndex } from "./dates.js";
import { computeOvertime, roundCents } from "./payroll-math.js";
import { overtimeRuleFor, type OvertimePolicy } from "./policies.js";
import {
  randomStep,
  type Calendar,
  type Employee,
  type LeaveRequest,
  type PayrollRun,
  type Payslip,
  type TimesheetEntry,
  type TimesheetStatus,
} from "./world.js";

/** Exempt staff who still log project hours (their hours never earn overtime). */
const PROJECT_TRACKING_DEPARTMENT_IDS = [10];

function leaveDays(requests: LeaveRequest[]): Map<string, Map<string, number>> {
  const byEmployee = new Map<string, Map<string, number>>();
  for (const request of requests) {
    if (request.status !== "approved") continue;
    const days = byEmployee.get(request.employeeId) ?? new Map<string, number>();
    for (const date of dateRange(request.startDate, request.endDate)) days.set(date, request.days === 0.5 ? 0.5 : 1);
    byEmployee.set(request.employeeId, days);
  }
  return byEmployee;
}

function isCoveredByOvertime(employee: Employee): boolean {
  return (
    positionById(employee.positionId).flsaStatus === "non_exempt" &&
    employee.employmentType !== "contractor" &&
    employee.status !== "terminated"
  );
}

function baseHours(employee: Employee): number {
  const full = employee.departmentId === CUSTOMER_SUPPORT_ID ? 7.5 : 8;
  return Math.round(full * employee.fte * 4) / 4;
}

export function generateTimesheets(
  calendar: Calendar,
  employees: Employee[],
  requests: LeaveRequest[],
  policy: OvertimePolicy,
  random: SeededRandom,
): TimesheetEntry[] {
  const reference = calendar.referenceDate;
  const openPeriod = calendar.periods[0];
  if (!openPeriod) throw new Error("calendar has no pay periods");
  const onLeave = leaveDays(requests);
  const entries: TimesheetEntry[] = [];
  const statusFor = (date: string): TimesheetStatus => {
    if (date > openPeriod.end) return "submitted";
    const roll = random.next();
    if (date >= openPeriod.start) return roll < 0.91 ? "approved" : roll < 0.97 ? "submitted" : "rejected";
    return roll < 0.97 ? "approved" : "rejected";
  };
  for (const employee of employees) {
    const position = positionById(employee.positionId);
    const tracked =
      position.flsaStatus === "non_exempt" || PROJECT_TRACKING_DEPARTMENT_IDS.includes(employee.departmentId);
    // Leavers serve their notice on garden leave, so they never log hours in the window.
    if (!tracked || employee.status === "terminated") continue;
    const shiftWorker = position.flsaStatus === "non_exempt" && SHIFT_DEPARTMENT_IDS.includes(employee.departmentId);
    const codes = departmentById(employee.departmentId).projectCodes;
    const leave = onLeave.get(employee.id);
    for (const date of dateRange(calendar.timesheetStart, addDays(reference, -1))) {
      if (date < employee.hireDate) continue;
      if (employee.terminationDate !== null && date > employee.terminationDate) continue;
      const leaveFraction = leave?.get(date) ?? 0;
      if (leaveFraction >= 1) continue;
      let hours = 0;
      if (calendar.holidayDates.has(date)) {
        if (shiftWorker && !isWeekend(date) && random.chance(0.3)) hours = baseHours(employee);
      } else if (isWeekend(date)) {
        const chance = weekdayIndex(date) === 5 ? 0.1 : 0.03;
        if (shiftWorker && random.chance(chance)) hours = random.pick([4, 5, 6, 8]);
        else if (position.flsaStatus === "exempt" && random.chance(0.04)) hours = random.pick([2, 3, 4]);
      } else {
        hours = position.flsaStatus === "exempt" ? 8 : baseHours(employee);
        const extraChance = position.flsaStatus === "exempt" ? 0.35 : 0.22;
        if (random.chance(extraChance)) hours += random.pick([0.5, 1, 1.5, 2, 2.5]);
        else if (random.chance(0.05)) hours -= random.pick([0.5, 1, 2]);
      }
      if (leaveFraction > 0) hours = Math.round(hours * 0.5 * 4) / 4;
      if (hours <= 0) continue;
      const status = statusFor(date);
      if (hours >= 4 && random.chance(0.1)) {
        const first = Math.min(hours - 1, Math.max(1, randomStep(random, 1, hours - 1, 0.25)));
        const [codeA, codeB] = random.shuffle(codes);
        entries.push({ employeeId: employee.id, workDate: date, hours: first, projectCode: codeA ?? codes[0] ?? "GEN", status });
        entries.push({
          employeeId: employee.id,
          workDate: date,
          hours: hours - first,
          projectCode: codeB ?? codes[0] ?? "GEN",
          status,
        });
      } else entries.push({ employeeId: employee.id, workDate: date, hours, projectCode: random.pick(codes), status });
    }
  }
  plantOvertimeCases(calendar, employees, entries, onLeave, policy, random);
  return entries.sort(
    (left, right) => left.workDate.localeCompare(right.workDate) || left.employeeId.localeCompare(right.employeeId),
  );
}

/**
 * Makes sure each overtime rule changes the answer for the open period at every scale: holiday work, an
 * unapproved entry in a week over the threshold, a Customer Support week between its threshold and 40 hours, and
 * overtime-looking weeks of exempt staff and contractors.
 */
function plantOvertimeCases(
  calendar: Calendar,
  employees: Employee[],
  entries: TimesheetEntry[],
  onLeave: Map<string, Map<string, number>>,
  policy: OvertimePolicy,
  random: SeededRandom,
): void {
  const openPeriod = calendar.periods[0];
  if (!openPeriod) return;
  const inOpen = (entry: TimesheetEntry) => entry.workDate >= openPeriod.start && entry.workDate <= openPeriod.end;
  const byId = new Map(employees.map((employee) => [employee.id, employee]));
  const openHolidays = calendar.holidays
    .filter((holiday) => holiday.date >= openPeriod.start && holiday.date <= openPeriod.end && !isWeekend(holiday.date))
    .map((holiday) => holiday.date);
  const covered = employees.filter(
    (employee) => isCoveredByOvertime(employee) && employee.hireDate <= openPeriod.start && employee.status === "active",
  );

  // Holiday work by at least two covered shift workers.
  const holidayWorkers = new Set(
    entries
      .filter((entry) => inOpen(entry) && entry.status === "approved" && openHolidays.includes(entry.workDate))
      .map((entry) => entry.employeeId)
      .filter((id) => {
        const employee = byId.get(id);
        return employee !== undefined && isCoveredByOvertime(employee);
      }),
  );
  const holiday = openHolidays[0];
  if (holiday) {
    for (const employee of random.shuffle(covered.filter((candidate) => SHIFT_DEPARTMENT_IDS.includes(candidate.departmentId)))) {
      if (holidayWorkers.size >= 2) break;
      if (holidayWorkers.has(employee.id) || (onLeave.get(employee.id)?.get(holiday) ?? 0) > 0) continue;
      const code = random.pick(departmentById(employee.departmentId).projectCodes);
      entries.push({ employeeId: employee.id, workDate: holiday, hours: baseHours(employee), projectCode: code, status: "approved" });
      holidayWorkers.add(employee.id);
    }
  }

  const weekTotals = (employee: Employee, statuses: TimesheetStatus[]) => {
    const totals = new Map<string, { hours: number; entries: TimesheetEntry[] }>();
    for (const entry of entries) {
      if (entry.employeeId !== employee.id || !inOpen(entry) || !statuses.includes(entry.status)) continue;
      if (calendar.holidayDates.has(entry.workDate)) continue;
      const week = mondayOf(entry.workDate);
      const total = totals.get(week) ?? { hours: 0, entries: [] };
      total.hours += entry.hours;
      total.entries.push(entry);
      totals.set(week, total);
    }
    return totals;
  };

  // An entry still awaiting approval in a week that is over the threshold (raising a week if none is).
  const flipped = plantOnceFound(random.shuffle(covered), (employee) => {
    const rule = overtimeRuleFor(policy, departmentById(employee.departmentId).name);
    for (const total of weekTotals(employee, ["approved", "submitted"]).values()) {
      const approved = total.entries.filter((entry) => entry.status === "approved");
      if (total.hours > rule.thresholdHours + 1 && approved.length > 0) {
        random.pick(approved).status = "submitted";
        return true;
      }
    }
    return false;
  });
  if (!flipped) {
    plantOnce(random.shuffle(covered), (employee) => {
      const rule = overtimeRuleFor(policy, departmentById(employee.departmentId).name);
      for (const total of weekTotals(employee, ["approved"]).values()) {
        if (total.entries.length >= 3 && raiseWeek(total, rule.thresholdHours + 3)) {
          random.pick(total.entries).status = "submitted";
          return true;
        }
      }
      return false;
    });
  }

  // A Customer Support week above its own threshold but not above 40 hours.
  const supportRule = overtimeRuleFor(policy, "Customer Support");
  const supportStaff = random.shuffle(
    covered.filter((employee) => employee.departmentId === CUSTOMER_SUPPORT_ID && employee.fte === 1),
  );
  const hasMiddleWeek = supportStaff.some((employee) =>
    [...weekTotals(employee, ["approved"]).values()].some(
      (total) => total.hours > supportRule.thresholdHours && total.hours <= 40,
    ),
  );
  if (!hasMiddleWeek) {
    plantOnce(supportStaff, (employee) =>
      [...weekTotals(employee, ["approved"]).values()].some(
        (total) => total.hours <= supportRule.thresholdHours && raiseWeek(total, supportRule.thresholdHours + 1),
      ),
    );
  }

  // Exempt staff and contractors with weeks that would be overtime if they were covered.
  for (const group of [
    employees.filter((employee) => positionById(employee.positionId).flsaStatus === "exempt"),
    employees.filter((employee) => employee.employmentType === "contractor"),
  ]) {
    const already = group.some((employee) =>
      [...weekTotals(employee, ["approved"]).values()].some((total) => total.hours > 41),
    );
    if (already) continue;
    plantOnce(random.shuffle(group), (employee) =>
      [...weekTotals(employee, ["approved"]).values()].some(
        (total) => total.entries.length >= 3 && raiseWeek(total, 42.5),
      ),
    );
  }
}

/** Adds hours to a week's entries (none above 12 hours) until the week reaches `target`; false if it cannot. */
function raiseWeek(total: { hours: number; entries: TimesheetEntry[] }, target: number): boolean {
  let missing = target - total.hours;
  const capacity = total.entries.reduce((sum, entry) => sum + Math.max(0, 12 - entry.hours), 0);
  if (missing <= 0 || capacity < missing) return false;
  for (const entry of total.entries) {
    const added = Math.min(missing, Math.max(0, 12 - entry.hours));
    entry.hours += added;
    total.hours += added;
    missing -= added;
    if (missing <= 0) break;
  }
  return true;
}

function plantOnceFound<T>(candidates: T[], plant: (candidate: T) => boolean): boolean {
  for (const candidate of candidates) if (plant(candidate)) return true;
  return false;
}

function plantOnce<T>(candidates: T[], plant: (candidate: T) => boolean): void {
  for (const candidate of candidates) if (plant(candidate)) return;
}

function taxFor(gross: number): number {
  const rate = gross < 1500 ? 0.14 : gross < 3000 ? 0.19 : gross < 5000 ? 0.23 : 0.27;
  return roundCents(gross * rate);
}

export function generatePayroll(
  calendar: Calendar,
  employees: Employee[],
  requests: LeaveRequest[],
  timesheets: TimesheetEntry[],
  policy: OvertimePolicy,
  random: SeededRandom,
): { runs: PayrollRun[]; payslips: Payslip[] } {
  const runs: PayrollRun[] = [];
  const payslips: Payslip[] = [];
  const benefits = new Map(employees.map((employee) => [employee.id, random.pick([48.2, 96.4, 142.75, 188.1])]));
  const parental = requests.filter((request) => request.leaveType === "parental" && request.status === "approved");
  const periods = [...calendar.periods].reverse();
  for (const period of periods) {
    const isOpen = period === calendar.periods[0];
    const runId = `PR-${period.end.replace(/-/g, "")}`;
    const run: PayrollRun = {
      id: runId,
      periodStart: period.start,
      periodEnd: period.end,
      payDate: addDays(period.end, 5),
      status: isOpen ? "draft" : "paid",
      employeeCount: null,
      totalGross: null,
    };
    runs.push(run);
    if (isOpen) continue;
    const tracked = period.start >= calendar.timesheetStart;
    let count = 0;
    let totalGross = 0;
    for (const employee of employees) {
      if (employee.employmentType === "contractor") continue;
      if (employee.hireDate > period.end) continue;
      if (employee.terminationDate !== null && employee.terminationDate < period.start) continue;
      const away = parental.some(
        (request) =>
          request.employeeId === employee.id && request.startDate <= period.start && request.endDate >= period.end,
      );
      if (away) continue;
      const position = positionById(employee.positionId);
      let regularHours = Math.round(80 * employee.fte * 4) / 4;
      let overtimeHours = 0;
      let regularPay: number;
      let overtimePay = 0;
      if (position.payType === "salaried") {
        regularPay = roundCents((employee.annualSalary ?? 0) / 26);
      } else {
        const rate = employee.hourlyRate ?? 0;
        const rule = overtimeRuleFor(policy, departmentById(employee.departmentId).name);
        if (tracked) {
          const worked = timesheets.filter(
            (entry) =>
              entry.employeeId === employee.id &&
              entry.status === "approved" &&
              entry.workDate >= period.start &&
              entry.workDate <= period.end,
          );
          if (worked.length === 0) continue;
          const breakdown = computeOvertime(worked, rate, rule, calendar.holidayDates, policy.holidayMultiplier);
          regularHours = breakdown.regularHours;
          overtimeHours = breakdown.overtimeHours + breakdown.holidayHours;
          overtimePay = breakdown.overtimePay;
        } else {
          regularHours -= randomStep(random, 0, 4, 0.25);
          if (random.chance(0.5)) {
            overtimeHours = randomStep(random, 0.5, 6, 0.25);
            overtimePay = roundCents(overtimeHours * rate * rule.multiplier);
          }
        }
        regularPay = roundCents(regularHours * rate);
      }
      const grossPay = roundCents(regularPay + overtimePay);
      const taxWithheld = taxFor(grossPay);
      const benefitsDeduction = benefits.get(employee.id) ?? 0;
      payslips.push({
        runId,
        employeeId: employee.id,
        regularHours,
        overtimeHours,
        regularPay,
        overtimePay,
        grossPay,
        taxWithheld,
        benefitsDeduction,
        netPay: roundCents(grossPay - taxWithheld - benefitsDeduction),
      });
      count += 1;
      totalGross += grossPay;
    }
    run.employeeCount = count;
    run.totalGross = roundCents(totalGross);
  }
  return { runs, payslips };
}
