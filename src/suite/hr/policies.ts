/**
 * The workspace documents that carry the task constraints (overtime policy, leave policy, salary memo, pay bands,
 * holiday calendar): their parameters, how they are written, and how verifiers read them back. Verifiers parse the
 * documents of the initial workspace instead of trusting generator internals, so a document is the one source of
 * each rule.
 */
import { parseCsv, toCsv } from "../../envs/index.js";
import { COMPANY_NAME, type PayBand } from "./catalog.js";

export interface OvertimeRule {
  department: string;
  thresholdHours: number;
  multiplier: number;
}

export interface OvertimePolicy {
  rules: OvertimeRule[];
  defaultThresholdHours: number;
  defaultMultiplier: number;
  holidayMultiplier: number;
}

export interface Holiday {
  date: string;
  name: string;
  kind: "statutory" | "company";
}

export interface Blackout {
  department: string;
  start: string;
  end: string;
  reason: string;
}

export interface CarryOverRules {
  year: number;
  standardCapDays: number;
  tenuredCapDays: number;
  tenureYears: number;
  exceptionDepartment: string;
  exceptionCapDays: number;
}

export interface LeavePolicy {
  noticeDays: number;
  blackouts: Blackout[];
  carryOver: CarryOverRules;
}

export interface SalaryIncrease {
  department: string;
  percent: number;
}

export interface SalaryMemo {
  year: number;
  effectiveDate: string;
  hireCutoff: string;
  increases: SalaryIncrease[];
  holdList: string[];
}

export const OVERTIME_POLICY_PATH = "policies/overtime-policy.md";
export const LEAVE_POLICY_PATH = "policies/leave-policy.md";
export const HOLIDAY_CALENDAR_PATH = "calendars/public-holidays.csv";
export const PAY_BANDS_PATH = "compensation/pay-bands.csv";
export const VARIANCE_CONTROL_PATH = "policies/payroll-variance-control.md";

export interface VarianceControl {
  percent: number;
  floorDollars: number;
}

export function salaryMemoPath(year: number): string {
  return `compensation/salary-adjustment-memo-${year}.md`;
}

const OTHER_DEPARTMENTS = "All other departments";

function tableRows(text: string): string[][] {
  return text
    .split("\n")
    .filter((line) => line.trim().startsWith("|") && !/^\|\s*-/.test(line.trim()))
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((cell) => cell.trim()),
    );
}

function requireMatch(text: string, pattern: RegExp, what: string): RegExpExecArray {
  const match = pattern.exec(text);
  if (!match) throw new Error(`document does not state ${what}`);
  return match;
}

export function renderOvertimePolicy(policy: OvertimePolicy, revisionDate: string): string {
  const rows = policy.rules.map(
    (rule) => `| ${rule.department} | ${rule.thresholdHours} | ${rule.multiplier.toFixed(2)} |`,
  );
  return `# ${COMPANY_NAME} - Overtime Policy (HR-POL-07)

Revision date: ${revisionDate}. Owner: People Operations, with Payroll (Finance).
This revision supersedes every earlier overtime guidance, including e-mail guidance from team leads.

## 1. Who is covered

- Overtime is paid only to employees whose **position is non-exempt** (the FLSA status recorded on the
  position). Exempt staff who record project hours on timesheets are never paid overtime.
- Agency contractors (employment type \`contractor\`) are paid by their agency under the agency contract.
  Harborline payroll does **not** pay them overtime.
- Part-time employees are covered on the same terms as full-time employees: the weekly thresholds below are
  not prorated.

## 2. Which hours count

- Only **approved** timesheet entries count. Entries that are still \`submitted\` (awaiting approval) or that
  were \`rejected\` are not paid in the current run; once approved they are paid in the run of the period in
  which they were approved.
- The work week runs **Monday to Sunday**. A biweekly pay period always consists of two whole work weeks.

## 3. Weekly thresholds and multipliers

Within each work week, hours above the weekly threshold of the employee's department are overtime hours.
Overtime hours are paid at the department's multiplier times the employee's base hourly rate.

| Department | Weekly threshold (hours) | Overtime multiplier |
|---|---|---|
${rows.join("\n")}
| ${OTHER_DEPARTMENTS} | ${policy.defaultThresholdHours} | ${policy.defaultMultiplier.toFixed(2)} |

## 4. Work on public and company holidays

- Holiday multiplier: **${policy.holidayMultiplier.toFixed(2)}x** the base hourly rate.
- Every hour worked on a date listed in the holiday calendar (\`${HOLIDAY_CALENDAR_PATH}\`) is paid at the
  holiday multiplier, whatever the weekly total.
- Holiday hours are **not** counted toward the weekly threshold.

## 5. Overtime pay for a pay period

For each covered employee:

    overtime pay = sum over the work weeks of the period of
                     (overtime hours x base hourly rate x department multiplier)
                   + holiday hours x base hourly rate x holiday multiplier

Use the base hourly rate on the employee record. Round each employee's overtime pay for the period to the cent.

## 6. Pre-approval

Team leads should pre-approve overtime in the scheduling tool. Missing pre-approval is a conduct matter for the
team lead; it never reduces what is owed to the employee.
`;
}

export function parseOvertimePolicy(text: string): OvertimePolicy {
  const rules: OvertimeRule[] = [];
  let defaultThresholdHours = Number.NaN;
  let defaultMultiplier = Number.NaN;
  for (const cells of tableRows(text)) {
    const [department, threshold, multiplier] = cells;
    if (!department || !threshold || !multiplier || !/^[\d.]+$/.test(threshold)) continue;
    if (department === OTHER_DEPARTMENTS) {
      defaultThresholdHours = Number(threshold);
      defaultMultiplier = Number(multiplier);
    } else rules.push({ department, thresholdHours: Number(threshold), multiplier: Number(multiplier) });
  }
  if (Number.isNaN(defaultThresholdHours)) throw new Error("overtime policy has no default threshold row");
  const holidayMultiplier = Number(
    requireMatch(text, /Holiday multiplier:\s*\**([\d.]+)x/, "the holiday multiplier")[1],
  );
  return { rules, defaultThresholdHours, defaultMultiplier, holidayMultiplier };
}

/** The threshold and multiplier that apply to a department (by name). */
export function overtimeRuleFor(policy: OvertimePolicy, departmentName: string): OvertimeRule {
  return (
    policy.rules.find((rule) => rule.department === departmentName) ?? {
      department: departmentName,
      thresholdHours: policy.defaultThresholdHours,
      multiplier: policy.defaultMultiplier,
    }
  );
}

export function renderHolidayCalendar(holidays: Holiday[]): string {
  return toCsv(
    ["date", "name", "kind"],
    holidays.map((holiday) => [holiday.date, holiday.name, holiday.kind]),
  );
}

export function parseHolidayCalendar(text: string): Holiday[] {
  return parseCsv(text).map(({ date = "", name = "", kind }) => ({
    date,
    name,
    kind: kind === "company" ? "company" : "statutory",
  }));
}

export function renderPayBands(bands: PayBand[]): string {
  const amount = (band: PayBand, value: number) => (band.payType === "hourly" ? value.toFixed(2) : value);
  return toCsv(
    ["grade", "pay_type", "band_min", "band_max"],
    bands.map((band) => [band.grade, band.payType, amount(band, band.min), amount(band, band.max)]),
  );
}

export function parsePayBands(text: string): PayBand[] {
  return parseCsv(text).map(({ grade = "", pay_type, band_min, band_max }) => ({
    grade,
    payType: pay_type === "hourly" ? "hourly" : "salaried",
    min: Number(band_min),
    max: Number(band_max),
  }));
}

export function renderLeavePolicy(policy: LeavePolicy, revisionDate: string): string {
  const blackoutRows = policy.blackouts.map(
    (blackout) => `| ${blackout.department} | ${blackout.start} | ${blackout.end} | ${blackout.reason} |`,
  );
  const carry = policy.carryOver;
  return `# ${COMPANY_NAME} - Leave Policy (HR-POL-04)

Revision date: ${revisionDate}. Owner: People Operations.

## 1. Leave year and entitlement

The leave year is the calendar year; the current leave year is **${carry.year}**. Full-time employees receive 20 days of annual leave per year, 25 days once
they have completed five years of service by 1 January; part-time employees receive the same prorated by FTE.
Sick leave is 10 days per year (prorated by FTE). Entitlements are loaded into the HR system on 1 January.
Agency contractors do not accrue leave with Harborline.

A balance's remaining days are \`entitlement_days + carried_over_days - used_days\`. \`used_days\` includes
approved leave that has not been taken yet.

## 2. How People Operations reviews pending requests

1. Review pending requests strictly in the order they were submitted (earliest \`submitted_at\` first). Every
   approval immediately reduces the employee's remaining balance for the requests reviewed after it.
2. **Notice.** Annual and unpaid leave must be requested at least **${policy.noticeDays} calendar days** before
   the first day of leave (counted from the submission date to the start date). Requests with less notice are
   denied.
3. **Blackout periods.** Annual and unpaid leave that overlaps a blackout period of the employee's department
   (even by a single day; both dates are included in the period) is denied.
4. **Balance.** Annual leave is approved only if the requested days do not exceed the remaining annual balance
   of the leave year in which the leave starts. Unpaid leave has no balance.
5. Sick leave and parental leave are always approved (no notice, blackout or balance rule applies).
6. A request that passes every rule that applies to it is approved.

Record a short reason with every denial so that the employee can rebook.

### Blackout periods

| Department | From | To | Reason |
|---|---|---|---|
${blackoutRows.join("\n")}

## 3. Carry-over of unused annual leave

At the end of the leave year, remaining annual leave can be carried over into the next year up to a cap.
Days above the cap are forfeited. Employees who leave the company are paid out for their remaining days at
termination instead, so carry-over does not apply to them.

The cap is worked out in this order:

- Standard cap: **${carry.standardCapDays} days**.
- Employees with at least **${carry.tenureYears} full years of service** on 31 December of the leave year: **${carry.tenuredCapDays} days**.
- ${carry.year} exception: because of the peak-season hiring freeze, ${carry.exceptionDepartment} staff may carry over up to **${carry.exceptionCapDays} days** from the ${carry.year} leave year, or their cap from the rules above if that is higher.
- Part-time employees: finally, the cap is multiplied by their FTE.

Managers should encourage their teams to book remaining leave well before December.
`;
}

export function parseLeavePolicy(text: string): LeavePolicy {
  const noticeDays = Number(
    requireMatch(text, /at least \*\*(\d+) calendar days\*\*/, "the notice period")[1],
  );
  const blackouts: Blackout[] = [];
  for (const cells of tableRows(text)) {
    const [department, start, end, reason] = cells;
    if (!department || !start || !end || !/^\d{4}-\d{2}-\d{2}$/.test(start)) continue;
    blackouts.push({ department, start, end, reason: reason ?? "" });
  }
  const standardCapDays = Number(
    requireMatch(text, /Standard cap: \*\*([\d.]+) days\*\*/, "the standard cap")[1],
  );
  const tenured = requireMatch(
    text,
    /at least \*\*(\d+) full years of service\*\* on 31 December of the leave year: \*\*([\d.]+) days\*\*/,
    "the tenured cap",
  );
  const exception = requireMatch(
    text,
    /(\d{4}) exception: [^,]*, (.+?) staff may carry over up to \*\*([\d.]+) days\*\*/,
    "the carry-over exception",
  );
  return {
    noticeDays,
    blackouts,
    carryOver: {
      year: Number(exception[1]),
      standardCapDays,
      tenureYears: Number(tenured[1]),
      tenuredCapDays: Number(tenured[2]),
      exceptionDepartment: exception[2] ?? "",
      exceptionCapDays: Number(exception[3]),
    },
  };
}

export function renderSalaryMemo(memo: SalaryMemo, issuedOn: string): string {
  const rows = memo.increases.map(
    (increase) => `| ${increase.department} | ${increase.percent.toFixed(1)}% |`,
  );
  const hold = memo.holdList.map((id) => `- ${id}`);
  return `# Memo: ${memo.year} mid-year salary adjustment

From: Chief People Officer
To: People Operations, Payroll
Date: ${issuedOn}

The leadership team approved a market adjustment for the departments below, **effective ${memo.effectiveDate}**.
Departments that are not listed are covered by the Q4 review cycle and must not be changed now.

| Department | Increase |
|---|---|
${rows.join("\n")}

## Eligibility

- Employees whose status is \`active\` or \`on_leave\`, employed \`full_time\` or \`part_time\`. Agency contractors
  and people who have left are out of scope.
- Hired **on or before ${memo.hireCutoff}**. Later hires had their pay set at offer and are reviewed next cycle.
- Not on the compensation hold list below (open performance cases; they are reviewed separately).

## How to apply it

1. Salaried employees: new annual salary = current annual salary x (1 + increase), rounded to the nearest whole
   dollar. Hourly employees: new hourly rate = current hourly rate x (1 + increase), rounded to the nearest cent.
2. Nobody may be paid above the maximum of the pay band of their position's grade (\`${PAY_BANDS_PATH}\`,
   salaried bands in dollars per year, hourly bands in dollars per hour). If the increase would exceed the band
   maximum, set the pay to the band maximum. Employees already at or above the maximum keep their current pay
   and must not be updated.
3. Record every change with effective date ${memo.effectiveDate}.

## Compensation hold list

${hold.join("\n")}

Questions go to the People Operations compensation desk.
`;
}

export function parseSalaryMemo(text: string): SalaryMemo {
  const year = Number(requireMatch(text, /# Memo: (\d{4}) mid-year salary adjustment/, "the memo year")[1]);
  const effectiveDate =
    requireMatch(text, /\*\*effective (\d{4}-\d{2}-\d{2})\*\*/, "the effective date")[1] ?? "";
  const hireCutoff =
    requireMatch(text, /Hired \*\*on or before (\d{4}-\d{2}-\d{2})\*\*/, "the hire cutoff")[1] ?? "";
  const increases: SalaryIncrease[] = [];
  for (const cells of tableRows(text)) {
    const [department, percent] = cells;
    const match = percent ? /^([\d.]+)%$/.exec(percent) : null;
    if (department && match) increases.push({ department, percent: Number(match[1]) });
  }
  const holdSection = text.split("## Compensation hold list")[1] ?? "";
  const holdList = [...holdSection.matchAll(/^- (E\d+)/gm)].map((match) => match[1] ?? "");
  return { year, effectiveDate, hireCutoff, increases, holdList };
}

export function renderVarianceControl(control: VarianceControl, revisionDate: string): string {
  return `# ${COMPANY_NAME} - Payroll variance control (FIN-CTL-12)

Revision date: ${revisionDate}. Owner: Finance (Payroll). Reviewed by Internal Audit.

## Purpose

Catch pay that moved for no documented reason (missing or duplicated timesheets, wrong rates, keying errors)
after a payroll run has been paid, so that it can be corrected in the next run.

## Scope

- Hourly employees only (the pay type of their position is \`hourly\`). Salaried pay is fixed and is reconciled
  against the salary register instead.
- Agency contractors are not paid through ${COMPANY_NAME} payroll and have no payslips.

## The check

1. Take the most recent **paid** payroll run and, for each hourly employee, the gross pay on their payslip in it.
2. Compare it with the employee's average gross pay over the **three paid runs before it**.
3. Flag the employee when the difference is more than **${control.percent}%** of that average **and** more than **$${control.floorDollars}**.

## Exclusions

- Employees who do not have a payslip in each of those four runs (new starters, leavers, people back from long
  leave): there is no stable baseline.
- Employees with approved leave of any type overlapping the pay period of the most recent paid run: the variance
  is explained by the leave.

## Reporting

Report each flagged employee with the difference: latest gross pay minus the three-run average (negative when
pay fell), rounded to the cent. Payroll investigates every flagged line before the next run is finalized.
`;
}

export function parseVarianceControl(text: string): VarianceControl {
  const match = requireMatch(
    text,
    /more than \*\*([\d.]+)%\*\* of that average \*\*and\*\* more than \*\*\$([\d.]+)\*\*/,
    "the variance thresholds",
  );
  return { percent: Number(match[1]), floorDollars: Number(match[2]) };
}
