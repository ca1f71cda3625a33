/** Workspace documents: the fixed policy set and the scaled everyday paperwork of an HR team. */
import {
  addDays,
  toCsv,
  makeDate,
  mondayOf,
  toJsonDocument,
  type GenerateContext,
} from "../../envs/index.js";
import {
  COMPANY_NAME,
  DEPARTMENTS,
  PAY_BANDS,
  PEOPLE_OPERATIONS_ID,
  departmentById,
  positionById,
} from "./catalog.js";
import { yearOf } from "./dates.js";
import {
  HOLIDAY_CALENDAR_PATH,
  LEAVE_POLICY_PATH,
  OVERTIME_POLICY_PATH,
  PAY_BANDS_PATH,
  renderHolidayCalendar,
  renderLeavePolicy,
  renderOvertimePolicy,
  renderPayBands,
  renderSalaryMemo,
  salaryMemoPath,
  renderVarianceControl,
  VARIANCE_CONTROL_PATH,
} from "./policies.js";
import type { Employee, World } from "./world.js";

const TIMESHEET_EXPORT_COLUMNS =
  "entry_id,employee_id,employee_name,department,work_date,hours,project_code,status";
const PAYROLL_REGISTER_COLUMNS =
  "employee_id,employee_name,regular_hours,overtime_hours,gross_pay,tax_withheld,benefits_deduction,net_pay";

function fullName(employee: Employee): string {
  return `${employee.firstName} ${employee.lastName}`;
}

export function writeFixedDocuments(world: World, context: GenerateContext): void {
  const reference = world.calendar.referenceDate;
  context.writeFile(
    OVERTIME_POLICY_PATH,
    renderOvertimePolicy(world.overtimePolicy, addDays(reference, -context.random.int(40, 200))),
  );
  context.writeFile(
    LEAVE_POLICY_PATH,
    renderLeavePolicy(world.leavePolicy, addDays(reference, -context.random.int(20, 60))),
  );
  context.writeFile(
    salaryMemoPath(world.salaryMemo.year),
    renderSalaryMemo(world.salaryMemo, addDays(reference, -context.random.int(3, 12))),
  );
  context.writeFile(PAY_BANDS_PATH, renderPayBands(PAY_BANDS));
  context.writeFile(HOLIDAY_CALENDAR_PATH, renderHolidayCalendar(world.calendar.holidays));
  context.writeFile(
    VARIANCE_CONTROL_PATH,
    renderVarianceControl(world.varianceControl, addDays(reference, -context.random.int(60, 300))),
  );
}

type DocumentSource = () => { path: string; content: string } | null;

/** Scaled paperwork, taken round-robin from several kinds until the scale's file count is reached. */
export function writeScaledDocuments(world: World, context: GenerateContext, count: number): void {
  const sources: DocumentSource[] = [
    timesheetExports(world),
    payrollRegisters(world),
    meetingNotes(world, context),
    headcountReports(world),
    onboardingChecklists(world, context),
  ];
  let written = 0;
  let exhausted = 0;
  for (let index = 0; written < count && exhausted < sources.length; index += 1) {
    const source = sources[index % sources.length];
    const document = source?.();
    if (!document) {
      exhausted += 1;
      continue;
    }
    exhausted = 0;
    context.writeFile(document.path, document.content);
    written += 1;
  }
}

function timesheetExports(world: World): DocumentSource {
  const openPeriod = world.calendar.periods[0];
  const weeks: string[] = [];
  if (openPeriod)
    for (
      let monday = mondayOf(openPeriod.end);
      monday >= world.calendar.timesheetStart;
      monday = addDays(monday, -7)
    )
      weeks.push(monday);
  const names = new Map(world.employees.map((employee) => [employee.id, employee]));
  return () => {
    const monday = weeks.shift();
    if (!monday) return null;
    const sunday = addDays(monday, 6);
    const rows = world.timesheets
      .map((entry, index) => ({ entry, id: index + 1 }))
      .filter(({ entry }) => entry.workDate >= monday && entry.workDate <= sunday)
      .map(({ entry, id }) => {
        const employee = names.get(entry.employeeId);
        const department = employee ? departmentById(employee.departmentId).name : "";
        const name = employee ? fullName(employee) : "";
        return [
          id,
          entry.employeeId,
          name,
          department,
          entry.workDate,
          entry.hours,
          entry.projectCode,
          entry.status,
        ];
      });
    return {
      path: `timesheets/exports/week-${monday}.csv`,
      content: toCsv(TIMESHEET_EXPORT_COLUMNS.split(","), rows),
    };
  };
}

function payrollRegisters(world: World): DocumentSource {
  const paid = world.payrollRuns.filter((run) => run.status === "paid").reverse();
  const names = new Map(world.employees.map((employee) => [employee.id, employee]));
  return () => {
    const run = paid.shift();
    if (!run) return null;
    const rows = world.payslips
      .filter((payslip) => payslip.runId === run.id)
      .map((payslip) => {
        const employee = names.get(payslip.employeeId);
        const amounts = [payslip.grossPay, payslip.taxWithheld, payslip.benefitsDeduction, payslip.netPay];
        const name = employee ? fullName(employee) : "";
        return [
          payslip.employeeId,
          name,
          payslip.regularHours,
          payslip.overtimeHours,
          ...amounts.map((amount) => amount.toFixed(2)),
        ];
      });
    const title = `# Payroll register ${run.id} (period ${run.periodStart} to ${run.periodEnd}, paid ${run.payDate})`;
    return {
      path: `payroll/registers/${run.id}.csv`,
      content: `${title}\n${toCsv(PAYROLL_REGISTER_COLUMNS.split(","), rows)}`,
    };
  };
}

function meetingNotes(world: World, context: GenerateContext): DocumentSource {
  const random = context.random;
  const peopleOps = world.employees.filter(
    (employee) => employee.departmentId === PEOPLE_OPERATIONS_ID && employee.status === "active",
  );
  let meeting = mondayOf(addDays(world.calendar.referenceDate, -1));
  let proposalMentioned = false;
  return () => {
    const date = meeting;
    meeting = addDays(meeting, -7);
    const attendees = random.shuffle(peopleOps).slice(0, 4).map(fullName);
    const recentRun = world.payrollRuns.filter((run) => run.status === "paid" && run.payDate < date).at(-1);
    const department = random.pick(DEPARTMENTS).name;
    const items = [
      recentRun
        ? `- Payroll: ${recentRun.id} was paid on ${recentRun.payDate} (${recentRun.employeeCount} payslips, gross $${(recentRun.totalGross ?? 0).toFixed(2)}). No off-cycle payments requested.`
        : "- Payroll: no run closed this week.",
      `- Recruiting: ${random.int(1, 6)} open requisitions in ${department}; ${random.int(0, 3)} offers out.`,
      random.pick([
        "- Reminder to managers: leave is approved in the HR system under HR-POL-04, never by e-mail or chat.",
        "- Benefits: the carrier confirmed the dental plan renewal; no change to employee contributions.",
        `- Safety: forklift recertification at the Reno Distribution Center on ${addDays(date, random.int(5, 20))}.`,
        "- Timesheets: team leads must approve submitted entries by Monday noon for them to make the current run.",
        "- Engagement survey closes Friday; participation is at " + String(random.int(55, 85)) + "%.",
      ]),
    ];
    if (!proposalMentioned && random.chance(0.5)) {
      proposalMentioned = true;
      items.push(
        "- Discussed a proposal to align the Customer Support overtime threshold with other departments next year. Not adopted: HR-POL-07 stays as published until a new revision is issued.",
      );
    }
    const owners = attendees.length > 0 ? attendees : ["People Operations"];
    return {
      path: `notes/people-ops-standup-${date}.md`,
      content: `# People Operations stand-up - ${date}\n\nAttendees: ${attendees.join(", ") || "People Operations team"}\n\n## Updates\n\n${items.join("\n")}\n\n## Action items\n\n- ${random.pick(owners)}: follow up on pending leave requests older than five days.\n- ${random.pick(owners)}: send the ${COMPANY_NAME} headcount report to Finance.\n`,
    };
  };
}

function headcountReports(world: World): DocumentSource {
  let year = yearOf(world.calendar.referenceDate);
  let month = Number(world.calendar.referenceDate.slice(5, 7)) - 1;
  return () => {
    if (month === 0) {
      month = 12;
      year -= 1;
    }
    const asOf = addDays(makeDate(year, month + 1, 1), -1);
    const monthStart = makeDate(year, month, 1);
    month -= 1;
    const employed = (employee: Employee) =>
      employee.hireDate <= asOf && (employee.terminationDate === null || employee.terminationDate > asOf);
    const departments = DEPARTMENTS.map((department) => {
      const members = world.employees.filter((employee) => employee.departmentId === department.id);
      return {
        department: department.name,
        employees: members.filter(
          (employee) => employed(employee) && employee.employmentType !== "contractor",
        ).length,
        contractors: members.filter(
          (employee) => employed(employee) && employee.employmentType === "contractor",
        ).length,
        hires: members.filter((employee) => employee.hireDate >= monthStart && employee.hireDate <= asOf)
          .length,
        exits: members.filter(
          (employee) =>
            employee.terminationDate !== null &&
            employee.terminationDate >= monthStart &&
            employee.terminationDate <= asOf,
        ).length,
      };
    });
    return {
      path: `reports/headcount-${asOf.slice(0, 7)}.json`,
      content: toJsonDocument({ company: COMPANY_NAME, as_of: asOf, departments }),
    };
  };
}

function onboardingChecklists(world: World, context: GenerateContext): DocumentSource {
  const since = addDays(world.calendar.referenceDate, -365);
  const hires = world.employees
    .filter((employee) => employee.hireDate >= since && employee.employmentType !== "contractor")
    .sort((left, right) => right.hireDate.localeCompare(left.hireDate));
  const managers = new Map(world.employees.map((employee) => [employee.id, employee]));
  return () => {
    const employee = hires.shift();
    if (!employee) return null;
    const manager = employee.managerId ? managers.get(employee.managerId) : undefined;
    const done = (days: number) =>
      addDays(employee.hireDate, days) < world.calendar.referenceDate ? "x" : " ";
    return {
      path: `onboarding/${employee.id}-checklist.md`,
      content: `# Onboarding checklist - ${fullName(employee)} (${employee.id})\n\n- Start date: ${employee.hireDate}\n- Department: ${departmentById(employee.departmentId).name}\n- Position: ${positionById(employee.positionId).title}\n- Manager: ${manager ? fullName(manager) : "n/a"}\n- Buddy: ${context.faker.person.fullName()}\n\n## Tasks\n\n- [${done(-3)}] Offer letter countersigned\n- [${done(0)}] Laptop and badge issued\n- [${done(1)}] I-9 verified\n- [${done(5)}] Benefits enrollment submitted\n- [${done(30)}] 30-day check-in with manager\n- [${done(90)}] 90-day review\n`,
    };
  };
}
