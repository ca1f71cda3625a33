/** Timesheets of the last three pay periods and the payroll history that paid them. */
import {
  addDays,
  dateRange,
  daysBetween,
  earlierDate,
  isWeekend,
  laterDate,
  mondayOf,
  weekdayIndex,
} from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { CUSTOMER_SUPPORT_ID, SHIFT_DEPARTMENT_IDS, departmentById, positionById } from "./catalog.js";
import { computeOvertime, roundCents } from "./payroll-math.js";
import { overtimeRuleFor, type OvertimePolicy, type VarianceControl } from "./policies.js";
import {
  randomStep,
  type Calendar,
  type Employee,
  type LeaveRequest,
  type PayPeriod,
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
    for (const date of dateRange(request.startDate, request.endDate))
      days.set(date, request.days === 0.5 ? 0.5 : 1);
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
    const shiftWorker =
      position.flsaStatus === "non_exempt" && SHIFT_DEPARTMENT_IDS.includes(employee.departmentId);
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
      const log = (logged: number, projectCode: string) =>
        entries.push({ employeeId: employee.id, workDate: date, hours: logged, projectCode, status });
      if (hours >= 4 && random.chance(0.1)) {
        // A day split between two of the department's projects.
        const first = Math.min(hours - 1, Math.max(1, randomStep(random, 1, hours - 1, 0.25)));
        const [codeA, codeB] = random.shuffle(codes);
        log(first, codeA ?? codes[0] ?? "GEN");
        log(hours - first, codeB ?? codes[0] ?? "GEN");
      } else log(hours, random.pick(codes));
    }
  }
  plantOvertimeCases(calendar, employees, entries, onLeave, policy, random);
  return entries.sort(
    (left, right) =>
      left.workDate.localeCompare(right.workDate) || left.employeeId.localeCompare(right.employeeId),
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
  const inOpen = (entry: TimesheetEntry) =>
    entry.workDate >= openPeriod.start && entry.workDate <= openPeriod.end;
  const byId = new Map(employees.map((employee) => [employee.id, employee]));
  const openHolidays = calendar.holidays
    .filter(
      (holiday) =>
        holiday.date >= openPeriod.start && holiday.date <= openPeriod.end && !isWeekend(holiday.date),
    )
    .map((holiday) => holiday.date);
  const covered = employees.filter(
    (employee) =>
      isCoveredByOvertime(employee) && employee.hireDate <= openPeriod.start && employee.status === "active",
  );

  // Holiday work by at least two covered shift workers.
  const holidayWorkers = new Set(
    entries
      .filter(
        (entry) => inOpen(entry) && entry.status === "approved" && openHolidays.includes(entry.workDate),
      )
      .map((entry) => entry.employeeId)
      .filter((id) => {
        const employee = byId.get(id);
        return employee !== undefined && isCoveredByOvertime(employee);
      }),
  );
  const holiday = openHolidays[0];
  if (holiday) {
    for (const employee of random.shuffle(
      covered.filter((candidate) => SHIFT_DEPARTMENT_IDS.includes(candidate.departmentId)),
    )) {
      if (holidayWorkers.size >= 2) break;
      if (holidayWorkers.has(employee.id) || (onLeave.get(employee.id)?.get(holiday) ?? 0) > 0) continue;
      const code = random.pick(departmentById(employee.departmentId).projectCodes);
      entries.push({
        employeeId: employee.id,
        workDate: holiday,
        hours: baseHours(employee),
        projectCode: code,
        status: "approved",
      });
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

  /** Raises a week to `target` hours: longer days first, then extra shifts on free days of that week. */
  const raise = (
    employee: Employee,
    week: string,
    total: { hours: number; entries: TimesheetEntry[] },
    target: number,
  ): boolean => {
    if (raiseWeek(total, target)) return true;
    const worked = new Set(
      entries.filter((entry) => entry.employeeId === employee.id).map((entry) => entry.workDate),
    );
    const freeDays = dateRange(week, addDays(week, 6)).filter(
      (date) =>
        date >= openPeriod.start &&
        date <= openPeriod.end &&
        !calendar.holidayDates.has(date) &&
        !worked.has(date) &&
        (onLeave.get(employee.id)?.get(date) ?? 0) === 0,
    );
    const capacity = total.entries.reduce((sum, entry) => sum + Math.max(0, 12 - entry.hours), 0);
    if (total.hours + capacity + 10 * freeDays.length < target) return false;
    const code = random.pick(departmentById(employee.departmentId).projectCodes);
    for (const date of freeDays) {
      if (total.hours + capacity >= target) break;
      const shift = Math.min(10, Math.ceil((target - total.hours - capacity) * 4) / 4);
      const entry: TimesheetEntry = {
        employeeId: employee.id,
        workDate: date,
        hours: shift,
        projectCode: code,
        status: "approved",
      };
      entries.push(entry);
      total.entries.push(entry);
      total.hours += shift;
    }
    return total.hours >= target || raiseWeek(total, target);
  };

  // An entry still awaiting approval in a week that is over the threshold (raising a week if none is).
  const flipped = plantOnce(random.shuffle(covered), (employee) => {
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
      for (const [week, total] of weekTotals(employee, ["approved"])) {
        if (total.entries.length >= 3 && raise(employee, week, total, rule.thresholdHours + 3)) {
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
      [...weekTotals(employee, ["approved"])].some(
        ([week, total]) =>
          total.hours <= supportRule.thresholdHours &&
          raise(employee, week, total, supportRule.thresholdHours + 1),
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
      [...weekTotals(employee, ["approved"])].some(
        ([week, total]) => total.entries.length >= 2 && raise(employee, week, total, 42.5),
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

/** Tries the candidates in order until one plant succeeds; whether one did. */
function plantOnce<T>(candidates: T[], plant: (candidate: T) => boolean): boolean {
  return candidates.some(plant);
}

/** Hours or pay of a payslip, split into regular and overtime. */
interface RegularAndOvertime {
  regular: number;
  overtime: number;
}

function taxFor(gross: number): number {
  const rate = gross < 1500 ? 0.14 : gross < 3000 ? 0.19 : gross < 5000 ? 0.23 : 0.27;
  return roundCents(gross * rate);
}

function payslip(
  runId: string,
  employeeId: string,
  hours: RegularAndOvertime,
  pay: RegularAndOvertime,
  benefitsDeduction: number,
): Payslip {
  const grossPay = roundCents(pay.regular + pay.overtime);
  const taxWithheld = taxFor(grossPay);
  return {
    runId,
    employeeId,
    regularHours: hours.regular,
    overtimeHours: hours.overtime,
    regularPay: pay.regular,
    overtimePay: pay.overtime,
    grossPay,
    taxWithheld,
    benefitsDeduction,
    netPay: roundCents(grossPay - taxWithheld - benefitsDeduction),
  };
}

export function generatePayroll(
  calendar: Calendar,
  employees: Employee[],
  requests: LeaveRequest[],
  timesheets: TimesheetEntry[],
  policy: OvertimePolicy,
  control: VarianceControl,
  random: SeededRandom,
): { runs: PayrollRun[]; payslips: Payslip[] } {
  const runs: PayrollRun[] = [];
  let payslips: Payslip[] = [];
  const benefits = new Map(
    employees.map((employee) => [employee.id, random.pick([48.2, 96.4, 142.75, 188.1])]),
  );
  const parental = requests.filter(
    (request) => request.leaveType === "parental" && request.status === "approved",
  );
  for (const period of [...calendar.periods].reverse()) {
    const isOpen = period === calendar.periods[0];
    const runId = runIdFor(period);
    runs.push({
      id: runId,
      periodStart: period.start,
      periodEnd: period.end,
      payDate: addDays(period.end, 5),
      status: isOpen ? "draft" : "paid",
      employeeCount: null,
      totalGross: null,
    });
    if (isOpen) continue;
    const tracked = period.start >= calendar.timesheetStart;
    for (const employee of employees) {
      if (employee.employmentType === "contractor") continue;
      if (employee.hireDate > period.end) continue;
      if (employee.terminationDate !== null && employee.terminationDate < period.start) continue;
      const away = parental.some(
        (request) =>
          request.employeeId === employee.id &&
          request.startDate <= period.start &&
          request.endDate >= period.end,
      );
      if (away) continue;
      const benefitsDeduction = benefits.get(employee.id) ?? 0;
      const pay = (hours: RegularAndOvertime, amounts: RegularAndOvertime) =>
        payslips.push(payslip(runId, employee.id, hours, amounts, benefitsDeduction));
      const position = positionById(employee.positionId);
      if (position.payType === "salaried") {
        const regularHours = Math.round(80 * employee.fte * 4) / 4;
        const regular = roundCents((employee.annualSalary ?? 0) / 26);
        pay({ regular: regularHours, overtime: 0 }, { regular, overtime: 0 });
        continue;
      }
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
        const breakdown = computeOvertime(
          worked,
          rate,
          rule,
          calendar.holidayDates,
          policy.holidayMultiplier,
        );
        pay(
          { regular: breakdown.regularHours, overtime: breakdown.overtimeHours + breakdown.holidayHours },
          { regular: roundCents(breakdown.regularHours * rate), overtime: breakdown.overtimePay },
        );
        continue;
      }
      // Before the timesheet window only the paid totals survive; starters and leavers are paid pro rata.
      const first = laterDate(employee.hireDate, period.start);
      const last = earlierDate(employee.terminationDate ?? period.end, period.end);
      const share = (daysBetween(first, last) + 1) / 14;
      const regularHours = Math.round((80 * employee.fte - randomStep(random, 0, 4, 0.25)) * share * 4) / 4;
      const overtimeHours = random.chance(0.5) ? randomStep(random, 0.5, 6, 0.25) : 0;
      pay(
        { regular: regularHours, overtime: overtimeHours },
        {
          regular: roundCents(regularHours * rate),
          overtime: roundCents(overtimeHours * rate * rule.multiplier),
        },
      );
    }
  }
  payslips = plantVarianceCases(calendar, employees, requests, payslips, control, random);
  for (const run of runs) {
    if (run.status === "draft") continue;
    const ofRun = payslips.filter((item) => item.runId === run.id);
    run.employeeCount = ofRun.length;
    run.totalGross = roundCents(ofRun.reduce((sum, item) => sum + item.grossPay, 0));
  }
  return { runs, payslips };
}

export function runIdFor(period: PayPeriod): string {
  return `PR-${period.end.replace(/-/g, "")}`;
}

/**
 * Rewrites the three earlier payslips of two steady hourly employees so that the variance control's rules matter
 * at every scale: one whose pay rose well past both thresholds, and one whose rise passes the dollar floor but not
 * the percentage.
 */
function plantVarianceCases(
  calendar: Calendar,
  employees: Employee[],
  requests: LeaveRequest[],
  payslips: Payslip[],
  control: VarianceControl,
  random: SeededRandom,
): Payslip[] {
  const [, latestPeriod, ...earlierPeriods] = calendar.periods;
  if (!latestPeriod || earlierPeriods.length < 3) return payslips;
  const latestRun = runIdFor(latestPeriod);
  const earlierRuns = earlierPeriods.slice(0, 3).map(runIdFor);
  const onLeave = new Set(
    requests
      .filter(
        (request) =>
          request.status === "approved" &&
          request.startDate <= latestPeriod.end &&
          request.endDate >= latestPeriod.start,
      )
      .map((request) => request.employeeId),
  );
  const byKey = new Map(payslips.map((item) => [`${item.runId}:${item.employeeId}`, item]));
  const steady = random.shuffle(
    employees.filter(
      (employee) =>
        employee.employmentType === "full_time" &&
        positionById(employee.positionId).payType === "hourly" &&
        !onLeave.has(employee.id) &&
        [latestRun, ...earlierRuns].every((runId) => byKey.has(`${runId}:${employee.id}`)),
    ),
  );
  const rewrite = (employee: Employee, hours: number[], overtime: number[]): void => {
    const rate = employee.hourlyRate ?? 0;
    earlierRuns.forEach((runId, index) => {
      const key = `${runId}:${employee.id}`;
      const old = byKey.get(key);
      const regular = hours[index] ?? 0;
      const extra = overtime[index] ?? 0;
      if (old) {
        byKey.set(
          key,
          payslip(
            runId,
            employee.id,
            { regular, overtime: extra },
            { regular: roundCents(regular * rate), overtime: roundCents(extra * rate * 1.5) },
            old.benefitsDeduction,
          ),
        );
      }
    });
  };
  const latestGross = (employee: Employee) => byKey.get(`${latestRun}:${employee.id}`)?.grossPay ?? 0;
  const ratio = control.percent / 100;
  const flaggedWanted = Math.max(1, Math.round(steady.length * 0.06));
  let risen = 0;
  let fallen = 0;
  let belowPercent = false;
  /** Whether earlier pay of `hours` (regular) plus `overtime` hours makes a clear variance in `direction`. */
  const clearVariance = (employee: Employee, averageGross: number, direction: 1 | -1): boolean => {
    const difference = latestGross(employee) - averageGross;
    return direction * difference > Math.max(control.floorDollars, ratio * averageGross) + 40;
  };
  for (const employee of steady) {
    const rate = employee.hourlyRate ?? 0;
    const latest = latestGross(employee);
    const multiplier = 1.5;
    if (risen < flaggedWanted) {
      // Fewer hours before (reduced schedule), back to full weeks now.
      const hours = [64, 64, 60];
      if (clearVariance(employee, (rate * (64 + 64 + 60)) / 3, 1)) {
        rewrite(employee, hours, [0, 0, 0]);
        risen += 1;
        continue;
      }
    }
    if (fallen < flaggedWanted) {
      // Heavy overtime before, none of it now.
      const overtime = [18, 16, 20];
      if (clearVariance(employee, rate * 80 + (rate * multiplier * (18 + 16 + 20)) / 3, -1)) {
        rewrite(employee, [80, 80, 80], overtime);
        fallen += 1;
        continue;
      }
    }
    if (!belowPercent) {
      // A rise above the dollar floor that stays under the percentage: d = (floor + ratio * (latest - d)) / 2.
      const rise = (control.floorDollars + ratio * latest) / (2 + ratio);
      const meanHours = Math.round(((latest - rise) / rate) * 4) / 4;
      const average = rate * meanHours;
      const difference = latest - average;
      if (difference > control.floorDollars + 15 && difference < ratio * average - 15) {
        rewrite(employee, [meanHours + 1, meanHours - 1, meanHours], [0, 0, 0]);
        belowPercent = true;
        continue;
      }
    }
    if (risen >= flaggedWanted && fallen >= flaggedWanted && belowPercent) break;
  }
  return payslips.map((item) => byKey.get(`${item.runId}:${item.employeeId}`) ?? item);
}
