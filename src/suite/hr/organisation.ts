/** Calendar, policy parameters and the people of one generated employer. */
import {
  addDays,
  dateRange,
  earlierDate,
  fromDayNumber,
  laterDate,
  makeDate,
  mondayOf,
  nthWeekdayOfMonth,
  personName,
  toDayNumber,
  weekdayIndex,
  weightedPick,
} from "../../envs/index.js";
import type { Faker } from "@faker-js/faker";
import type { SeededRandom } from "../../core/index.js";
import {
  DEPARTMENTS,
  EMAIL_DOMAIN,
  POSITIONS,
  SHIFT_DEPARTMENT_IDS,
  departmentById,
  payBandFor,
  positionById,
  type PositionSpec,
} from "./catalog.js";
import { yearOf } from "./dates.js";
import type { Holiday, LeavePolicy, OvertimePolicy, SalaryMemo, VarianceControl } from "./policies.js";
import { isBusinessDay, type Calendar, type Employee, type EmploymentType } from "./world.js";

const PAY_PERIOD_COUNT = 5;

function observed(date: string): string {
  const weekday = weekdayIndex(date);
  if (weekday === 5) return addDays(date, -1);
  if (weekday === 6) return addDays(date, 1);
  return date;
}

function statutoryHolidays(year: number): Holiday[] {
  const thanksgiving = nthWeekdayOfMonth(year, 11, 3, 4);
  return [
    { date: observed(makeDate(year, 1, 1)), name: "New Year's Day", kind: "statutory" },
    { date: nthWeekdayOfMonth(year, 1, 0, 3), name: "Martin Luther King Jr. Day", kind: "statutory" },
    { date: nthWeekdayOfMonth(year, 2, 0, 3), name: "Presidents' Day", kind: "statutory" },
    { date: nthWeekdayOfMonth(year, 5, 0, -1), name: "Memorial Day", kind: "statutory" },
    { date: observed(makeDate(year, 6, 19)), name: "Juneteenth", kind: "statutory" },
    { date: observed(makeDate(year, 7, 4)), name: "Independence Day", kind: "statutory" },
    { date: nthWeekdayOfMonth(year, 9, 0, 1), name: "Labor Day", kind: "statutory" },
    { date: thanksgiving, name: "Thanksgiving Day", kind: "statutory" },
    { date: addDays(thanksgiving, 1), name: "Day after Thanksgiving", kind: "company" },
    { date: observed(makeDate(year, 12, 25)), name: "Christmas Day", kind: "statutory" },
  ];
}

/**
 * Pay periods end on the Sunday before the week of the reference date; the company's Founders' Day is placed in
 * the open period so that holiday work always matters to its overtime.
 */
export function buildCalendar(referenceDate: string, random: SeededRandom): Calendar {
  const year = yearOf(referenceDate);
  const openPeriodEnd = addDays(mondayOf(referenceDate), -1);
  const periods = Array.from({ length: PAY_PERIOD_COUNT }, (_, index) => {
    const end = addDays(openPeriodEnd, -14 * index);
    return { start: addDays(end, -13), end };
  });
  const holidays = [year - 1, year, year + 1].flatMap(statutoryHolidays);
  const taken = new Set(holidays.map((holiday) => holiday.date));
  const openPeriod = periods[0] ?? { start: openPeriodEnd, end: openPeriodEnd };
  const candidates = dateRange(openPeriod.start, openPeriod.end).filter(
    (date) => weekdayIndex(date) >= 1 && weekdayIndex(date) <= 3 && !taken.has(date),
  );
  const founders = random.pick(candidates);
  for (const foundersYear of [year - 1, year, year + 1]) {
    const date = observed(
      makeDate(foundersYear, Number(founders.slice(5, 7)), Number(founders.slice(8, 10))),
    );
    if (!taken.has(date)) holidays.push({ date, name: "Founders' Day", kind: "company" });
  }
  holidays.sort((left, right) => left.date.localeCompare(right.date));
  const lastPeriod = periods[1] ?? openPeriod;
  return {
    referenceDate,
    year,
    periods,
    timesheetStart: lastPeriod.start,
    holidays,
    holidayDates: new Set(holidays.map((holiday) => holiday.date)),
  };
}

export function buildOvertimePolicy(random: SeededRandom): OvertimePolicy {
  return {
    rules: [
      { department: "Customer Support", thresholdHours: random.pick([37.5, 36]), multiplier: 1.5 },
      { department: "Warehouse & Logistics", thresholdHours: 40, multiplier: 1.5 },
      { department: "Facilities", thresholdHours: 40, multiplier: random.pick([1.75, 2]) },
    ],
    defaultThresholdHours: 40,
    defaultMultiplier: 1.5,
    holidayMultiplier: random.pick([2, 2.5]),
  };
}

/** The first Tuesday-to-Thursday business day from `date` on, stepping by `step` days (so that the days around a blackout are weekdays). */
function midweekFrom(date: string, step: 1 | -1, holidayDates: ReadonlySet<string>): string {
  let current = date;
  while (weekdayIndex(current) < 1 || weekdayIndex(current) > 3 || !isBusinessDay(current, holidayDates)) {
    current = addDays(current, step);
  }
  return current;
}

export function buildLeavePolicy(calendar: Calendar, random: SeededRandom): LeavePolicy {
  const noticeDays = random.pick([10, 14]);
  const windows: Array<[string, string]> = [
    ["Warehouse & Logistics", "Peak-season inventory count"],
    ["Customer Support", "Product launch support surge"],
    ["Finance", "Quarter-end close"],
  ];
  const blackouts = windows.map(([department, reason]) => {
    const start = midweekFrom(
      addDays(calendar.referenceDate, random.int(noticeDays + 8, noticeDays + 30)),
      1,
      calendar.holidayDates,
    );
    const end = midweekFrom(addDays(start, random.int(6, 12)), -1, calendar.holidayDates);
    return { department, start, end, reason };
  });
  return {
    noticeDays,
    blackouts,
    carryOver: {
      year: calendar.year,
      standardCapDays: random.pick([5, 6]),
      tenuredCapDays: 10,
      tenureYears: 5,
      exceptionDepartment: "Warehouse & Logistics",
      exceptionCapDays: 8,
    },
  };
}

export function buildVarianceControl(random: SeededRandom): VarianceControl {
  return { percent: random.pick([15, 20]), floorDollars: random.pick([150, 200]) };
}

export function buildSalaryMemo(calendar: Calendar, random: SeededRandom): SalaryMemo {
  const reference = calendar.referenceDate;
  const effectiveDate = makeDate(yearOf(reference), Number(reference.slice(5, 7)) + 1, 1);
  const hireCutoff = addDays(makeDate(yearOf(effectiveDate), Number(effectiveDate.slice(5, 7)) - 6, 1), -1);
  const departments = [
    random.pick(["Customer Support", "Warehouse & Logistics"]),
    random.pick(["Engineering", "Sales"]),
    random.pick(["Facilities", "Finance", "Marketing", "People Operations"]),
  ];
  const percents = random.shuffle([3, 3.5, 4, 4.5, 5]);
  return {
    year: yearOf(reference),
    effectiveDate,
    hireCutoff,
    increases: departments.map((department, index) => ({ department, percent: percents[index] ?? 3 })),
    holdList: [],
  };
}

function randomPay(
  random: SeededRandom,
  position: PositionSpec,
): { annualSalary: number | null; hourlyRate: number | null } {
  const band = payBandFor(position.grade, position.payType);
  const value = band.min + (band.max - band.min) * random.next() * 0.95;
  return position.payType === "salaried"
    ? { annualSalary: Math.round(value / 100) * 100, hourlyRate: null }
    : { annualSalary: null, hourlyRate: Math.round(value * 4) / 4 };
}

function pickPosition(random: SeededRandom, positions: PositionSpec[]): PositionSpec {
  const weights = positions.map((position) => position.weight);
  return weightedPick(random, positions, weights);
}

/** Headcount per department: one head each, the rest by weight (largest remainders, no randomness). */
function departmentHeadcounts(total: number): Map<number, number> {
  const rest = total - DEPARTMENTS.length;
  const shares = DEPARTMENTS.map((department) => ({ id: department.id, exact: department.weight * rest }));
  const counts = new Map(shares.map((share) => [share.id, 1 + Math.floor(share.exact)]));
  let leftover = total - [...counts.values()].reduce((sum, count) => sum + count, 0);
  const byRemainder = [...shares].sort(
    (left, right) => right.exact - Math.floor(right.exact) - (left.exact - Math.floor(left.exact)),
  );
  for (const share of byRemainder) {
    if (leftover <= 0) break;
    counts.set(share.id, (counts.get(share.id) ?? 0) + 1);
    leftover -= 1;
  }
  return counts;
}

export function buildEmployees(
  calendar: Calendar,
  total: number,
  random: SeededRandom,
  faker: Faker,
): Employee[] {
  const reference = calendar.referenceDate;
  const employees: Employee[] = [];
  const emails = new Set<string>();
  for (const [departmentId, count] of departmentHeadcounts(total)) {
    const department = departmentById(departmentId);
    const positions = POSITIONS.filter((position) => position.departmentId === departmentId);
    const head = positions.find((position) => position.head);
    const staff = positions.filter((position) => !position.head);
    for (let index = 0; index < count; index += 1) {
      // Shift departments always have a core of full-time hourly staff, whatever the dice say.
      const core = SHIFT_DEPARTMENT_IDS.includes(departmentId) && (index === 1 || index === 2);
      const hourlyStaff = staff.filter((item) => item.payType === "hourly");
      const position = index === 0 && head ? head : pickPosition(random, core ? hourlyStaff : staff);
      const isHead = position.head === true;
      let employmentType: EmploymentType = "full_time";
      let fte = 1;
      if (isHead || core) {
        // stays full-time
      } else if (position.contractorsAllowed && random.chance(0.18)) employmentType = "contractor";
      else if (random.chance(0.12)) {
        employmentType = "part_time";
        fte = random.pick([0.5, 0.6, 0.8]);
      }
      const tenureRoll = random.next();
      const tenureDays = isHead
        ? random.int(4 * 365, 12 * 365)
        : employmentType === "contractor"
          ? random.int(40, 600)
          : tenureRoll < 0.3
            ? random.int(40, 730)
            : tenureRoll < 0.65
              ? random.int(731, 1825)
              : random.int(1826, 4380);
      let hireDate = addDays(reference, -tenureDays);
      let status: Employee["status"] = "active";
      let terminationDate: string | null = null;
      const statusRoll = random.next();
      if (!isHead && !core && employmentType !== "contractor" && statusRoll < 0.07) {
        status = "terminated";
        terminationDate = addDays(reference, -random.int(55, 220));
        if (hireDate > addDays(terminationDate, -90))
          hireDate = addDays(terminationDate, -random.int(90, 1500));
      } else if (!isHead && !core && employmentType !== "contractor" && statusRoll < 0.1) status = "on_leave";
      const { firstName, lastName, email } = personName(faker, EMAIL_DOMAIN, emails);
      const april = makeDate(
        makeDate(calendar.year, 4, 1) <= reference ? calendar.year : calendar.year - 1,
        4,
        1,
      );
      employees.push({
        id: "",
        firstName,
        lastName,
        email,
        departmentId,
        positionId: position.id,
        managerId: null,
        employmentType,
        fte,
        status,
        hireDate,
        terminationDate,
        ...randomPay(random, position),
        compensationEffectiveDate: laterDate(hireDate, april),
        workLocation: department.location,
      });
    }
  }
  return employees;
}

/**
 * Small headcounts can miss whole categories by chance; the tasks need agency contractors and part-time staff with
 * a few years of service to exist at every scale, so convert ordinary employees when they are missing.
 */
export function ensureWorkforceMix(employees: Employee[], calendar: Calendar, random: SeededRandom): void {
  const reference = calendar.referenceDate;
  const ordinary = (employee: Employee) =>
    employee.employmentType === "full_time" &&
    employee.status === "active" &&
    !positionById(employee.positionId).head;
  for (
    let count = employees.filter((employee) => employee.employmentType === "contractor").length;
    count < 2;
    count += 1
  ) {
    const candidates = employees.filter(
      (employee) => ordinary(employee) && positionById(employee.positionId).contractorsAllowed === true,
    );
    if (candidates.length === 0) break;
    const chosen = random.pick(candidates);
    chosen.employmentType = "contractor";
    chosen.hireDate = addDays(reference, -random.int(60, 500));
    chosen.compensationEffectiveDate = chosen.hireDate;
  }
  const warehouseId = departmentIdByName("Warehouse & Logistics");
  const midTenure = (employee: Employee) =>
    employee.hireDate <= addDays(reference, -2 * 365 - 200) &&
    employee.hireDate >= addDays(reference, -4 * 365 + 200);
  const partTimers = employees.filter(
    (employee) =>
      employee.employmentType === "part_time" &&
      employee.status === "active" &&
      employee.departmentId !== warehouseId &&
      midTenure(employee),
  );
  if (partTimers.length === 0) {
    const candidates = employees.filter(
      (employee) => ordinary(employee) && employee.departmentId !== warehouseId,
    );
    if (candidates.length > 0) {
      const chosen = random.pick(candidates);
      chosen.employmentType = "part_time";
      chosen.fte = random.pick([0.5, 0.6, 0.8]);
      if (!midTenure(chosen)) {
        chosen.hireDate = addDays(reference, -random.int(2 * 365 + 200, 4 * 365 - 200));
        if (chosen.compensationEffectiveDate < chosen.hireDate)
          chosen.compensationEffectiveDate = chosen.hireDate;
      }
    }
  }
  // Two Warehouse & Logistics full-timers with one to four years of service, so that the department's one-off
  // carry-over exception changes somebody's cap at every scale.
  const yearStart = makeDate(calendar.year, 1, 1);
  const earliestHire = addDays(reference, -4 * 365 + 30);
  const latestHire = earlierDate(addDays(yearStart, -1), addDays(reference, -400));
  const inWindow = (employee: Employee) =>
    employee.hireDate >= earliestHire && employee.hireDate <= latestHire;
  const warehouseStaff = employees.filter(
    (employee) => ordinary(employee) && employee.departmentId === warehouseId,
  );
  let settled = warehouseStaff.filter(inWindow).length;
  for (const employee of random.shuffle(warehouseStaff.filter((candidate) => !inWindow(candidate)))) {
    if (settled >= 2) break;
    employee.hireDate = fromDayNumber(random.int(toDayNumber(earliestHire), toDayNumber(latestHire)));
    employee.compensationEffectiveDate = employee.hireDate;
    settled += 1;
  }
  // A new starter in the period before the last paid one: the payroll variance control has no baseline for them.
  const starterPeriod = calendar.periods[2];
  const hourly = employees.filter(
    (employee) => ordinary(employee) && positionById(employee.positionId).payType === "hourly",
  );
  if (starterPeriod && hourly.length > 0) {
    const starter = random.pick(hourly);
    starter.hireDate = addDays(starterPeriod.start, random.int(9, 11));
    starter.compensationEffectiveDate = starter.hireDate;
  }
}

/** Employee ids follow hiring order, as an HR system numbers its records. */
export function assignIdentifiers(employees: Employee[]): void {
  const order = employees
    .map((employee, index) => ({ employee, index }))
    .sort(
      (left, right) =>
        left.employee.hireDate.localeCompare(right.employee.hireDate) || left.index - right.index,
    );
  order.forEach(({ employee }, index) => {
    employee.id = `E${1001 + index}`;
  });
  employees.sort((left, right) => left.id.localeCompare(right.id));
  const heads = new Map<number, string>();
  for (const employee of employees) {
    if (positionById(employee.positionId).head) heads.set(employee.departmentId, employee.id);
  }
  for (const employee of employees) {
    const head = heads.get(employee.departmentId);
    employee.managerId = head === employee.id ? null : (head ?? null);
  }
}

export function departmentIdByName(name: string): number {
  const department = DEPARTMENTS.find((candidate) => candidate.name === name);
  if (!department) throw new Error(`unknown department ${name}`);
  return department.id;
}

/**
 * Makes the salary memo's edge cases exist at every scale: a hire exactly on the cutoff and one a day after it,
 * pay just under and already above the band maximum. Returns the employees it touched so that other planted
 * cases leave them alone.
 */
export function plantSalaryMemoCases(
  employees: Employee[],
  memo: SalaryMemo,
  random: SeededRandom,
): Set<Employee> {
  const covered = new Set(memo.increases.map((increase) => departmentIdByName(increase.department)));
  const pool = random.shuffle(
    employees.filter(
      (employee) =>
        covered.has(employee.departmentId) &&
        employee.status === "active" &&
        employee.employmentType !== "contractor" &&
        !positionById(employee.positionId).head &&
        employee.hireDate < memo.hireCutoff,
    ),
  );
  const touched = new Set<Employee>();
  const take = (predicate: (employee: Employee) => boolean): Employee | undefined => {
    const found = pool.find((employee) => !touched.has(employee) && predicate(employee));
    if (found) touched.add(found);
    return found;
  };
  const onCutoff = take(() => true);
  if (onCutoff) {
    onCutoff.hireDate = memo.hireCutoff;
    onCutoff.compensationEffectiveDate = memo.hireCutoff;
  }
  const afterCutoff = take(() => true);
  if (afterCutoff) {
    afterCutoff.hireDate = addDays(memo.hireCutoff, 1);
    afterCutoff.compensationEffectiveDate = afterCutoff.hireDate;
  }
  for (const payType of ["salaried", "hourly"] as const) {
    const nearMaximum = take((employee) => positionById(employee.positionId).payType === payType);
    const aboveMaximum = take((employee) => positionById(employee.positionId).payType === payType);
    for (const [employee, offsetSteps] of [
      [nearMaximum, -1],
      [aboveMaximum, random.int(1, 3)],
    ] as const) {
      if (!employee) continue;
      const position = positionById(employee.positionId);
      const band = payBandFor(position.grade, position.payType);
      if (payType === "salaried") employee.annualSalary = band.max + offsetSteps * 300;
      else employee.hourlyRate = band.max + offsetSteps * 0.25;
    }
  }
  return touched;
}

/** The hold list: open performance cases among otherwise eligible employees, plus one outside the memo's scope. */
export function chooseHoldList(
  employees: Employee[],
  memo: SalaryMemo,
  reserved: Set<Employee>,
  count: number,
  random: SeededRandom,
): string[] {
  const covered = new Set(memo.increases.map((increase) => departmentIdByName(increase.department)));
  const eligible = random.shuffle(
    employees.filter(
      (employee) =>
        !reserved.has(employee) &&
        covered.has(employee.departmentId) &&
        employee.status !== "terminated" &&
        employee.employmentType !== "contractor" &&
        employee.hireDate <= memo.hireCutoff,
    ),
  );
  const outside = random.shuffle(
    employees.filter((employee) => !covered.has(employee.departmentId) && employee.status === "active"),
  );
  const chosen = [...eligible.slice(0, count), ...outside.slice(0, 1)];
  for (const employee of chosen) reserved.add(employee);
  return chosen.map((employee) => employee.id).sort();
}
