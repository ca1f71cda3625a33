/**
 * Leave history, balances and the queue of pending requests. Pending requests are planned first, as scenarios
 * that exercise every rule of the leave policy (notice, blackout, balance, review order, exempt leave types), so
 * that each rule changes the outcome at every scale; balances are then generated around them.
 */
import {
  addBusinessDays,
  addDays,
  earlierDate,
  fromDayNumber,
  laterDate,
  makeDate,
  rangesOverlap,
  toDayNumber,
} from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { positionById } from "./catalog.js";
import { completedYears, yearOf } from "./dates.js";
import { departmentIdByName } from "./organisation.js";
import type { Blackout, LeavePolicy } from "./policies.js";
import {
  businessDaysBetween,
  nextBusinessDay,
  previousBusinessDay,
  randomStep,
  timestampOn,
  type Calendar,
  type Employee,
  type LeaveBalance,
  type LeaveRequest,
  type LeaveType,
} from "./world.js";

/** Request numbers continue those of the previous HR system. */
const FIRST_REQUEST_ID = 40001;

/** How far ahead pending requests start. */
const PENDING_HORIZON_DAYS = 75;

interface Interval {
  start: string;
  end: string;
}

type Draft = Omit<LeaveRequest, "id">;

function roundHalf(value: number): number {
  return Math.round(value * 2) / 2;
}

/** Months of the year (hire month included) an employee hired during it works, as a fraction. */
function yearFraction(employee: Employee, year: number): number {
  if (yearOf(employee.hireDate) < year) return 1;
  return (12 - Number(employee.hireDate.slice(5, 7)) + 1) / 12;
}

function annualEntitlement(employee: Employee, year: number): number {
  const base = completedYears(employee.hireDate, makeDate(year, 1, 1)) >= 5 ? 25 : 20;
  return roundHalf(base * employee.fte * yearFraction(employee, year));
}

function sickEntitlement(employee: Employee, year: number): number {
  return roundHalf(10 * employee.fte * yearFraction(employee, year));
}

/** The carry-over cap of the leave policy for a closed year (the one-off department exception never applies). */
function carryOverCap(employee: Employee, year: number, policy: LeavePolicy): number {
  const rules = policy.carryOver;
  const cap =
    completedYears(employee.hireDate, makeDate(year, 12, 31)) >= rules.tenureYears
      ? rules.tenuredCapDays
      : rules.standardCapDays;
  return employee.employmentType === "part_time" ? cap * employee.fte : cap;
}

function employedDuring(employee: Employee, year: number): boolean {
  if (employee.employmentType === "contractor") return false;
  if (employee.hireDate > makeDate(year, 12, 31)) return false;
  return employee.terminationDate === null || employee.terminationDate >= makeDate(year, 1, 1);
}

/** What the phases of `generateLeave` share: the inputs, the drafts so far, who is taken and when people are away. */
interface LeavePlan {
  calendar: Calendar;
  policy: LeavePolicy;
  employees: Employee[];
  /** People other generators planted cases on: leave leaves them alone. */
  reserved: Set<Employee>;
  random: SeededRandom;
  reference: string;
  holidays: Calendar["holidayDates"];
  notice: number;
  year: number;
  /** When each person (by id) is away or may not book leave. */
  occupied: Map<string, Interval[]>;
  drafts: Draft[];
  /** The annual balance to leave someone with in a leave year, keyed `employee:year`. */
  remainingTargets: Map<string, number>;
  /** People a leave scenario already uses. */
  leaveReserved: Set<Employee>;
  isFree: (employee: Employee, start: string, end: string) => boolean;
  occupy: (employee: Employee, start: string, end: string) => void;
  inBlackout: (employee: Employee, start: string, end: string) => boolean;
  addDraft: (employee: Employee, draft: Omit<Draft, "employeeId">) => void;
}

function createLeavePlan(
  calendar: Calendar,
  policy: LeavePolicy,
  employees: Employee[],
  reserved: Set<Employee>,
  random: SeededRandom,
): LeavePlan {
  const reference = calendar.referenceDate;
  const holidays = calendar.holidayDates;
  const notice = policy.noticeDays;
  const occupied = new Map<string, Interval[]>();
  const drafts: Draft[] = [];
  const remainingTargets = new Map<string, number>();
  const leaveReserved = new Set<Employee>();

  const isFree = (employee: Employee, start: string, end: string): boolean =>
    !(occupied.get(employee.id) ?? []).some((interval) =>
      rangesOverlap(start, end, interval.start, interval.end),
    );
  const occupy = (employee: Employee, start: string, end: string): void => {
    const list = occupied.get(employee.id) ?? [];
    list.push({ start, end });
    occupied.set(employee.id, list);
  };
  const blackoutsOf = (employee: Employee) =>
    policy.blackouts.filter((blackout) => departmentIdByName(blackout.department) === employee.departmentId);
  const inBlackout = (employee: Employee, start: string, end: string): boolean =>
    blackoutsOf(employee).some((blackout) => rangesOverlap(start, end, blackout.start, blackout.end));
  const addDraft = (employee: Employee, draft: Omit<Draft, "employeeId">): void => {
    drafts.push({ employeeId: employee.id, ...draft });
    occupy(employee, draft.startDate, draft.endDate);
  };
  return {
    calendar,
    policy,
    employees,
    reserved,
    random,
    reference,
    holidays,
    notice,
    year: calendar.year,
    occupied,
    drafts,
    remainingTargets,
    leaveReserved,
    isFree,
    occupy,
    inBlackout,
    addDraft,
  };
}

/** Probation (nobody books leave in their first two months) and the parental leave of those on leave now. */
function planParentalLeave(leave: LeavePlan): void {
  const { employees, random, reference, holidays, occupy, addDraft } = leave;
  // Nobody books leave in their first two months (probation), which also keeps new starters' pay steady.
  for (const employee of employees) occupy(employee, employee.hireDate, addDays(employee.hireDate, 59));

  // Parental leave of the people currently on leave (no timesheets while it lasts).
  for (const employee of employees.filter((candidate) => candidate.status === "on_leave")) {
    const start = nextBusinessDay(addDays(reference, -random.int(15, 50)), holidays);
    const end = previousBusinessDay(addDays(reference, random.int(30, 100)), holidays);
    addDraft(employee, {
      leaveType: "parental",
      startDate: start,
      endDate: end,
      days: businessDaysBetween(start, end, holidays),
      status: "approved",
      submittedAt: timestampOn(random, addDays(start, -random.int(30, 60))),
      decisionNote: "Approved: parental leave",
    });
  }
}

/** Carry-over edge cases of the current leave year, and a leaver paid out for a large balance. */
function planCarryOverCases(leave: LeavePlan): void {
  const { calendar, policy, employees, reserved, random, reference, remainingTargets, leaveReserved } = leave;
  // ---- Carry-over edge cases for the current leave year ----
  const year = calendar.year;
  const rules = policy.carryOver;
  const exceptionDepartmentId = departmentIdByName(rules.exceptionDepartment);
  const carryPool = employees.filter(
    (employee) =>
      !leaveReserved.has(employee) &&
      !reserved.has(employee) &&
      employee.status !== "terminated" &&
      employee.employmentType !== "contractor" &&
      employee.hireDate < makeDate(year, 1, 1),
  );
  const takeCarry = (predicate: (employee: Employee) => boolean): Employee | undefined => {
    const candidates = carryPool.filter((employee) => !leaveReserved.has(employee) && predicate(employee));
    const chosen = candidates.length > 0 ? random.pick(candidates) : undefined;
    if (chosen) leaveReserved.add(chosen);
    return chosen;
  };
  const tenured = (employee: Employee) =>
    completedYears(employee.hireDate, makeDate(year, 12, 31)) >= rules.tenureYears;
  const fullTimeElsewhere = (employee: Employee) =>
    employee.employmentType === "full_time" && employee.departmentId !== exceptionDepartmentId;
  const setTarget = (employee: Employee | undefined, remaining: number) => {
    if (employee) remainingTargets.set(`${employee.id}:${year}`, remaining);
  };
  const gap = rules.tenuredCapDays - rules.standardCapDays;
  setTarget(
    takeCarry((employee) => fullTimeElsewhere(employee) && tenured(employee)),
    rules.standardCapDays + randomStep(random, 1, gap, 0.5),
  );
  for (const [yearsBack, month, day] of [
    [rules.tenureYears, 12, 31],
    [rules.tenureYears - 1, 1, 1],
  ] as const) {
    const employee = takeCarry(
      (candidate) =>
        fullTimeElsewhere(candidate) && candidate.hireDate < makeDate(year - rules.tenureYears - 1, 1, 1),
    );
    if (employee) {
      employee.hireDate = makeDate(year - yearsBack, month, day);
      if (employee.compensationEffectiveDate < employee.hireDate)
        employee.compensationEffectiveDate = employee.hireDate;
    }
    setTarget(employee, rules.standardCapDays + 2);
  }
  const partTime = takeCarry(
    (employee) =>
      employee.employmentType === "part_time" &&
      employee.departmentId !== exceptionDepartmentId &&
      !tenured(employee),
  );
  if (partTime) setTarget(partTime, rules.standardCapDays * partTime.fte + 1);
  // Full-time staff of the exception department below the tenure cap: one within the exception, one above it.
  const newerInException = (employee: Employee) =>
    employee.employmentType === "full_time" &&
    employee.departmentId === exceptionDepartmentId &&
    !tenured(employee);
  setTarget(
    takeCarry(newerInException),
    rules.standardCapDays + randomStep(random, 1, rules.exceptionCapDays - rules.standardCapDays, 0.5),
  );
  setTarget(takeCarry(newerInException), rules.exceptionCapDays + randomStep(random, 1, 4, 0.5));
  // Someone who left this year with a large balance: paid out, never flagged.
  const leaver = random
    .shuffle(
      employees.filter(
        (employee) =>
          employee.status === "active" &&
          employee.employmentType === "full_time" &&
          !leaveReserved.has(employee) &&
          !reserved.has(employee) &&
          !positionById(employee.positionId).head &&
          employee.hireDate < makeDate(year, 1, 1),
      ),
    )
    .at(0);
  const earliestExit = laterDate(earlierDate(makeDate(year, 1, 2), reference), addDays(reference, -200));
  // Before the timesheet window when the year allows it, so the leaver never shows up in current payroll work;
  // in the first days of January the only choice left is a leaver whose last day is today.
  const beforeTimesheets = addDays(calendar.timesheetStart, -1);
  const latestExit =
    beforeTimesheets >= earliestExit
      ? beforeTimesheets
      : addDays(reference, -1) >= earliestExit
        ? addDays(reference, -1)
        : reference;
  if (leaver && earliestExit <= latestExit) {
    leaver.status = "terminated";
    leaver.terminationDate = fromDayNumber(random.int(toDayNumber(earliestExit), toDayNumber(latestExit)));
    leaveReserved.add(leaver);
    setTarget(leaver, rules.tenuredCapDays + randomStep(random, 1, 5, 0.5));
  }
}

/** The queue of pending requests, scenario by scenario, `units` rounds of every scenario. */
function planPendingRequests(leave: LeavePlan, units: number): void {
  const {
    calendar,
    policy,
    employees,
    random,
    reference,
    holidays,
    notice,
    occupied,
    drafts,
    remainingTargets,
    leaveReserved,
    isFree,
    occupy,
    inBlackout,
  } = leave;
  // ---- Pending requests, scenario by scenario ----
  const pendingPool = employees.filter(
    (employee) =>
      employee.status === "active" &&
      employee.employmentType === "full_time" &&
      employee.hireDate < makeDate(calendar.year, 1, 1),
  );
  const horizon = addDays(reference, PENDING_HORIZON_DAYS);

  const blackoutDepartmentIds = new Set(
    policy.blackouts.map((blackout) => departmentIdByName(blackout.department)),
  );
  /** Scenarios that do not need a blackout department leave its people to those that do. */
  const pickEmployee = (predicate: (employee: Employee) => boolean): Employee | undefined => {
    const candidates = pendingPool.filter((employee) => !leaveReserved.has(employee) && predicate(employee));
    const elsewhere = candidates.filter((employee) => !blackoutDepartmentIds.has(employee.departmentId));
    if (elsewhere.length > 0) return random.pick(elsewhere);
    return candidates.length > 0 ? random.pick(candidates) : undefined;
  };
  const planPending = (
    employee: Employee,
    leaveType: LeaveType,
    start: string,
    businessDays: number,
    submittedDate: string,
    avoidBlackout: boolean,
  ): Draft | null => {
    const end = addBusinessDays(start, businessDays - 1, holidays);
    if (start <= reference || end > horizon || yearOf(start) !== yearOf(end)) return null;
    if (submittedDate >= reference || submittedDate < addDays(reference, -25)) return null;
    if (!isFree(employee, start, end)) return null;
    if (avoidBlackout && inBlackout(employee, start, end)) return null;
    return {
      employeeId: employee.id,
      leaveType,
      startDate: start,
      endDate: end,
      days: businessDays,
      status: "pending",
      submittedAt: timestampOn(random, submittedDate),
      decisionNote: null,
    };
  };
  const commit = (employee: Employee, planned: Draft[], remaining: number | null): void => {
    for (const draft of planned) {
      drafts.push(draft);
      occupy(employee, draft.startDate, draft.endDate);
    }
    leaveReserved.add(employee);
    const first = planned[0];
    if (remaining !== null && first)
      remainingTargets.set(`${employee.id}:${yearOf(first.startDate)}`, remaining);
  };
  /** Tries a scenario up to 40 times with fresh random choices. */
  const attempt = (scenario: () => boolean): void => {
    for (let tries = 0; tries < 40; tries += 1) if (scenario()) return;
  };
  /** One scenario, tried like `attempt`: someone, their pending request, and the annual balance to leave them. */
  const plan = (
    pick: () => { employee: Employee; blackout?: Blackout } | undefined,
    request: (employee: Employee, blackout: Blackout | undefined) => Draft | null,
    remaining: (draft: Draft) => number | null,
  ): void =>
    attempt(() => {
      const picked = pick();
      if (!picked) return false;
      const draft = request(picked.employee, picked.blackout);
      if (!draft) return false;
      commit(picked.employee, [draft], remaining(draft));
      return true;
    });
  const ampleFor = (days: number): number => days + randomStep(random, 1, 8, 0.5);
  const goodNoticeStart = (submitted: string): string =>
    nextBusinessDay(addDays(submitted, random.int(notice, notice + 35)), holidays);
  const recentSubmission = (): string => addDays(reference, -random.int(1, 20));

  for (let unit = 0; unit < units; unit += 1) {
    /**
     * Someone from a department with a blackout, with that blackout: departments are tried in an order that
     * rotates with the unit, so that no single department is drained.
     */
    const pickInBlackout = (offset: number): { employee: Employee; blackout: Blackout } | undefined => {
      for (let index = 0; index < policy.blackouts.length; index += 1) {
        const blackout = policy.blackouts[(unit + offset + index) % policy.blackouts.length];
        if (!blackout) continue;
        const departmentId = departmentIdByName(blackout.department);
        const employee = pickEmployee((candidate) => candidate.departmentId === departmentId);
        if (employee) return { employee, blackout };
      }
      return undefined;
    };

    const anyone = () => {
      const employee = pickEmployee(() => true);
      return employee && { employee };
    };
    const ample = (draft: Draft) => ampleFor(draft.days);

    // Enough notice, outside blackouts, enough balance: approve.
    plan(
      anyone,
      (employee) => {
        const submitted = recentSubmission();
        const days = random.int(1, 5);
        return planPending(employee, "annual", goodNoticeStart(submitted), days, submitted, true);
      },
      ample,
    );
    // Short notice (exactly one day short in the first unit): deny. Exactly the notice period: approve.
    for (const noticeGiven of [unit === 0 ? notice - 1 : notice - random.int(1, 4), notice]) {
      plan(
        anyone,
        (employee) => {
          const start = nextBusinessDay(addDays(reference, random.int(1, noticeGiven - 1)), holidays);
          const days = random.int(1, 4);
          return planPending(employee, "annual", start, days, addDays(start, -noticeGiven), true);
        },
        ample,
      );
    }
    // Touching the blackout by one day (deny), and ending or starting right next to it (approve).
    plan(
      () => pickInBlackout(0),
      (employee, blackout) => {
        const days = random.int(2, 5);
        const start = unit % 2 === 0 ? addBusinessDays(blackout!.start, 1 - days, holidays) : blackout!.end;
        const submitted = recentSubmission();
        return planPending(employee, "annual", start, days, submitted, false);
      },
      ample,
    );
    plan(
      () => pickInBlackout(1),
      (employee, blackout) => {
        const days = random.int(1, 4);
        const start =
          unit % 2 === 0
            ? addBusinessDays(previousBusinessDay(addDays(blackout!.start, -1), holidays), 1 - days, holidays)
            : nextBusinessDay(addDays(blackout!.end, 1), holidays);
        const submitted = recentSubmission();
        return planPending(employee, "annual", start, days, submitted, true);
      },
      ample,
    );
    // More days than the remaining balance: deny.
    let balance = 0;
    plan(
      anyone,
      (employee) => {
        balance = randomStep(random, 1, 4, 0.5);
        const days = Math.floor(balance) + random.int(1, 2);
        const submitted = recentSubmission();
        return planPending(employee, "annual", goodNoticeStart(submitted), days, submitted, true);
      },
      () => balance,
    );
    // Two requests that each fit the balance but not together: approve the earlier one, deny the later one.
    attempt(() => {
      const employee = pickEmployee(() => true);
      if (!employee) return false;
      const firstDays = random.int(3, 5);
      const secondDays = random.int(2, 3);
      const firstSubmitted = addDays(reference, -random.int(6, 20));
      const first = planPending(
        employee,
        "annual",
        goodNoticeStart(firstSubmitted),
        firstDays,
        firstSubmitted,
        true,
      );
      if (!first) return false;
      const secondSubmitted = addDays(firstSubmitted, random.int(1, 3));
      const secondStart = nextBusinessDay(addDays(first.endDate, random.int(3, 20)), holidays);
      occupy(employee, first.startDate, first.endDate);
      const second = planPending(employee, "annual", secondStart, secondDays, secondSubmitted, true);
      occupied.get(employee.id)?.pop();
      if (!second || yearOf(second.startDate) !== yearOf(first.startDate)) return false;
      commit(employee, [first, second], firstDays + 1);
      return true;
    });
    // Sick leave: approved even inside a blackout or at short notice.
    plan(
      () => (unit % 2 === 0 ? pickInBlackout(2) : anyone()),
      (employee, blackout) => {
        const start =
          unit % 2 === 0
            ? nextBusinessDay(addDays(blackout?.start ?? reference, random.int(0, 2)), holidays)
            : nextBusinessDay(addDays(reference, random.int(1, 4)), holidays);
        const days = random.int(1, 3);
        return planPending(employee, "sick", start, days, addDays(reference, -random.int(1, 3)), false);
      },
      () => null,
    );
    // Unpaid leave inside a blackout or at short notice: deny. Unpaid leave by the rules: approve.
    plan(
      () => (unit % 2 === 0 ? pickInBlackout(0) : anyone()),
      (employee, blackout) => {
        const days = random.int(2, 5);
        const start =
          unit % 2 === 0
            ? nextBusinessDay(addDays(blackout?.start ?? reference, 1), holidays)
            : nextBusinessDay(addDays(reference, random.int(1, notice - 2)), holidays);
        const submitted = unit % 2 === 0 ? recentSubmission() : addDays(start, -(notice - random.int(1, 3)));
        return planPending(employee, "unpaid", start, days, submitted, unit % 2 !== 0);
      },
      () => null,
    );
    plan(
      anyone,
      (employee) => {
        const submitted = recentSubmission();
        const start = goodNoticeStart(submitted);
        return planPending(employee, "unpaid", start, random.int(3, 10), submitted, true);
      },
      () => null,
    );
  }
}

/** An hourly employee away for part of the last paid period; returns the days used per `employee:year`. */
function planPartialAbsence(leave: LeavePlan): Map<string, number> {
  const { calendar, employees, reserved, random, holidays, notice, leaveReserved, isFree, addDraft } = leave;
  // ---- An hourly employee away for part of the last paid period (explained pay variance) ----
  const preUsed = new Map<string, number>();
  const lastPaid = calendar.periods[1];
  const awayCandidates = employees.filter(
    (employee) =>
      employee.status === "active" &&
      employee.employmentType === "full_time" &&
      positionById(employee.positionId).payType === "hourly" &&
      !leaveReserved.has(employee) &&
      !reserved.has(employee) &&
      lastPaid !== undefined &&
      employee.hireDate < addDays(lastPaid.start, -70),
  );
  for (const employee of random.shuffle(awayCandidates)) {
    if (!lastPaid) break;
    const start = nextBusinessDay(addDays(lastPaid.start, random.int(0, 3)), holidays);
    const days = random.int(3, 5);
    const end = addBusinessDays(start, days - 1, holidays);
    if (end > lastPaid.end || !isFree(employee, start, end)) continue;
    addDraft(employee, {
      leaveType: "annual",
      startDate: start,
      endDate: end,
      days,
      status: "approved",
      submittedAt: timestampOn(random, addDays(start, -random.int(notice, notice + 30))),
      decisionNote: null,
    });
    preUsed.set(`${employee.id}:${yearOf(start)}`, days);
    leaveReserved.add(employee);
    break;
  }
  return preUsed;
}

/** Balances and the approved / denied / cancelled history around them; then every request, numbered. */
function leaveHistory(
  leave: LeavePlan,
  preUsed: Map<string, number>,
): { requests: LeaveRequest[]; balances: LeaveBalance[] } {
  const {
    calendar,
    policy,
    employees,
    random,
    reference,
    holidays,
    notice,
    year,
    drafts,
    remainingTargets,
    isFree,
    occupy,
  } = leave;
  // ---- Balances and the approved / denied / cancelled history around them ----
  const balances: LeaveBalance[] = [];
  const needsNextYear = drafts.some((draft) => draft.status === "pending" && yearOf(draft.startDate) > year);
  const years = needsNextYear ? [year - 1, year, year + 1] : [year - 1, year];
  const randomRemaining = (): number => {
    const roll = random.next();
    if (roll < 0.35) return randomStep(random, 0, 3, 0.5);
    if (roll < 0.65) return randomStep(random, 3.5, 7, 0.5);
    if (roll < 0.85) return randomStep(random, 7.5, 12, 0.5);
    return randomStep(random, 12.5, 18, 0.5);
  };

  const place = (
    employee: Employee,
    total: number,
    rangeStart: string,
    rangeEnd: string,
  ): Array<Interval & { days: number }> => {
    const placed: Array<Interval & { days: number }> = [];
    let left = total;
    while (left > 0) {
      const chunk = left >= 1 ? Math.min(Math.floor(left), random.pick([1, 2, 3, 4, 5, 5, 5, 8, 10])) : 0.5;
      const span = Math.max(1, Math.ceil(chunk));
      let found: Interval | null = null;
      for (let tries = 0; tries < 60 && !found; tries += 1) {
        const start = nextBusinessDay(
          fromDayNumber(random.int(toDayNumber(rangeStart), toDayNumber(rangeEnd))),
          holidays,
        );
        const end = addBusinessDays(start, span - 1, holidays);
        if (end <= rangeEnd && isFree(employee, start, end)) found = { start, end };
      }
      if (!found) break;
      occupy(employee, found.start, found.end);
      placed.push({ ...found, days: chunk });
      left -= chunk;
    }
    return placed;
  };
  const placeAs = (
    employee: Employee,
    leaveType: LeaveType,
    total: number,
    rangeStart: string,
    rangeEnd: string,
    status: "approved" | "denied" | "cancelled",
  ): number => {
    if (rangeStart > rangeEnd || total <= 0) return 0;
    // Requests of closed leave years were archived with the old HR system; only their balances remain.
    if (yearOf(rangeStart) < calendar.year) return status === "approved" ? total : 0;
    let used = 0;
    for (const interval of place(employee, total, rangeStart, rangeEnd)) {
      const days = interval.days;
      used += days;
      let submittedDate =
        leaveType === "sick" ? interval.start : addDays(interval.start, -random.int(notice, notice + 50));
      if (status === "denied") submittedDate = addDays(interval.start, -random.int(2, notice - 1));
      if (submittedDate >= reference) submittedDate = addDays(reference, -random.int(1, 30));
      drafts.push({
        employeeId: employee.id,
        leaveType,
        startDate: interval.start,
        endDate: interval.end,
        days,
        status,
        submittedAt: timestampOn(random, submittedDate),
        decisionNote:
          status === "approved"
            ? null
            : status === "cancelled"
              ? "Cancelled by employee"
              : random.pick(["Denied: insufficient notice", "Denied: team coverage during blackout period"]),
      });
    }
    return used;
  };

  const remainingByYear = new Map<string, number>();
  for (const employee of employees) {
    for (const balanceYear of years) {
      if (!employedDuring(employee, balanceYear)) continue;
      if (balanceYear > year && employee.status === "terminated") continue;
      const rangeStart = laterDate(employee.hireDate, makeDate(balanceYear, 1, 1));
      const yearEnd = makeDate(balanceYear, 12, 31);
      const rangeEnd = earlierDate(employee.terminationDate ?? yearEnd, yearEnd);
      const pastEnd = earlierDate(addDays(reference, -1), rangeEnd);
      const entitlement = annualEntitlement(employee, balanceYear);
      let carried = 0;
      if (balanceYear === year - 1 && employee.hireDate < makeDate(balanceYear, 1, 1)) {
        carried = randomStep(random, 0, policy.carryOver.standardCapDays, 0.5);
      } else if (balanceYear === year) {
        const previous = remainingByYear.get(`${employee.id}:${balanceYear - 1}`);
        if (previous !== undefined)
          carried = Math.min(previous, carryOverCap(employee, balanceYear - 1, policy));
      }
      const target =
        remainingTargets.get(`${employee.id}:${balanceYear}`) ??
        (balanceYear > year ? entitlement - randomStep(random, 0, 4, 0.5) : randomRemaining());
      const planted = preUsed.get(`${employee.id}:${balanceYear}`) ?? 0;
      const wantedUse = Math.max(0, entitlement + carried - target - planted);
      const used = planted + placeAs(employee, "annual", wantedUse, rangeStart, rangeEnd, "approved");
      remainingByYear.set(`${employee.id}:${balanceYear}`, entitlement + carried - used);
      const sickEnd = balanceYear < year ? rangeEnd : pastEnd;
      const sickDays = balanceYear > year ? 0 : random.int(0, balanceYear < year ? 6 : 3);
      const sickUsed =
        balanceYear > year ? 0 : placeAs(employee, "sick", sickDays, rangeStart, sickEnd, "approved");
      // Declined and withdrawn requests in the past: history only, they never touch a balance.
      if (balanceYear <= year && random.chance(0.25))
        placeAs(employee, "annual", random.int(1, 4), rangeStart, pastEnd, "denied");
      if (balanceYear <= year && random.chance(0.15))
        placeAs(employee, "annual", random.int(1, 3), rangeStart, pastEnd, "cancelled");
      // A closed year only feeds the carry-over into the current one; its balances were archived.
      if (balanceYear < year) continue;
      balances.push({
        employeeId: employee.id,
        year: balanceYear,
        leaveType: "annual",
        entitlementDays: entitlement,
        carriedOverDays: carried,
        usedDays: used,
      });
      balances.push({
        employeeId: employee.id,
        year: balanceYear,
        leaveType: "sick",
        entitlementDays: sickEntitlement(employee, balanceYear),
        carriedOverDays: 0,
        usedDays: sickUsed,
      });
    }
  }

  const ordered = [...drafts].sort(
    (left, right) =>
      left.submittedAt.localeCompare(right.submittedAt) || left.startDate.localeCompare(right.startDate),
  );
  const requests = ordered.map((draft, index) => ({ id: FIRST_REQUEST_ID + index, ...draft }));
  return { requests, balances };
}

export function generateLeave(
  calendar: Calendar,
  policy: LeavePolicy,
  employees: Employee[],
  units: number,
  reserved: Set<Employee>,
  random: SeededRandom,
): { requests: LeaveRequest[]; balances: LeaveBalance[] } {
  const leave = createLeavePlan(calendar, policy, employees, reserved, random);
  planParentalLeave(leave);
  planCarryOverCases(leave);
  planPendingRequests(leave, units);
  const preUsed = planPartialAbsence(leave);
  return leaveHistory(leave, preUsed);
}
