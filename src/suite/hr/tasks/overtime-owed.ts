/** Overtime pay owed for the open payroll run, by the overtime policy and the holiday calendar. */
import { allRows, check, defineTask, groupBy, parseAnswerJson, requireFile } from "../../../envs/index.js";
import { openPeriod } from "../timesheet-approvals.js";
import { hrDomainDefinition } from "../domain.js";
import { computeOvertime, roundCents } from "../payroll-math.js";
import {
  HOLIDAY_CALENDAR_PATH,
  OVERTIME_POLICY_PATH,
  overtimeRuleFor,
  parseHolidayCalendar,
  parseOvertimePolicy,
} from "../policies.js";
import { FETCH_ALL_PYTHON, checkReportedValues, loadEmployees, numericRecord } from "../task-support.js";

interface SolutionOptions {
  exemptCovered: boolean;
  contractorsCovered: boolean;
  holidayRule: boolean;
  departmentThresholds: boolean;
  unapprovedHours: boolean;
}

const CORRECT: SolutionOptions = {
  exemptCovered: false,
  contractorsCovered: false,
  holidayRule: true,
  departmentThresholds: true,
  unapprovedHours: false,
};

const READ_DOCUMENTS = `${FETCH_ALL_PYTHON}
from collections import defaultdict
from datetime import timedelta

policy = tools.read_file(path="policies/overtime-policy.md")["content"]
rules, default_rule = {}, None
for line in policy.splitlines():
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) == 3 and re.fullmatch(r"[\\d.]+", cells[1]):
        rule = (float(cells[1]), float(cells[2]))
        if cells[0] == "All other departments":
            default_rule = rule
        else:
            rules[cells[0]] = rule
holiday_multiplier = float(re.search(r"Holiday multiplier:\\s*\\**([\\d.]+)x", policy).group(1))
calendar = tools.read_file(path="calendars/public-holidays.csv")["content"]
holidays = {line.split(",")[0] for line in calendar.strip().splitlines()[1:]}
print(rules, default_rule, holiday_multiplier, len(holidays), "holidays")
`;

function loadCell(options: SolutionOptions): string {
  const statusFilter = options.unapprovedHours ? "" : ', status="approved"';
  return `run = tools.list_payroll_runs(status="draft")["payroll_runs"][0]
start, end = run["period_start"], run["period_end"]
departments = {d["id"]: d["name"] for d in fetch_all("list_departments", "departments")}
positions = {p["id"]: p for p in fetch_all("list_positions", "positions")}
employees = {e["id"]: e for e in fetch_all("list_employees", "employees")}
entries = [
    entry
    for entry in fetch_all("list_timesheet_entries", "entries", start_date=start, end_date=end${statusFilter})
    if entry["status"] != "rejected"
]
print(run["id"], start, end, len(entries), "entries")
`;
}

function computeCell(options: SolutionOptions): string {
  const coverage = [
    options.exemptCovered ? null : 'positions[employee["position_id"]]["flsa_status"] != "non_exempt"',
    options.contractorsCovered ? null : 'employee["employment_type"] == "contractor"',
  ].filter((condition) => condition !== null);
  const skip = coverage.length > 0 ? `    if ${coverage.join(" or ")}:\n        continue\n` : "";
  const threshold = options.departmentThresholds
    ? 'threshold, multiplier = rules.get(departments[employee["department_id"]], default_rule)'
    : 'threshold, multiplier = 40.0, rules.get(departments[employee["department_id"]], default_rule)[1]';
  return `def week_of(day):
    value = date.fromisoformat(day)
    return (value - timedelta(days=value.weekday())).isoformat()

weekly = defaultdict(lambda: defaultdict(float))
holiday_hours = defaultdict(float)
for entry in entries:
    employee = employees[entry["employee_id"]]
${skip}    if ${options.holidayRule ? "True" : "False"} and entry["work_date"] in holidays:
        holiday_hours[entry["employee_id"]] += entry["hours"]
    else:
        weekly[entry["employee_id"]][week_of(entry["work_date"])] += entry["hours"]

owed = {}
for employee_id in sorted(set(weekly) | set(holiday_hours)):
    employee = employees[employee_id]
    ${threshold}
    overtime = sum(max(0.0, total - threshold) for total in weekly[employee_id].values())
    if overtime == 0 and holiday_hours[employee_id] == 0:
        continue
    record = tools.get_employee(employee_id=employee_id)
    rate = record["hourly_rate"] if record["hourly_rate"] is not None else record["annual_salary"] / 2080
    amount = round(overtime * rate * multiplier + holiday_hours[employee_id] * rate * holiday_multiplier, 2)
    if amount > 0:
        owed[employee_id] = amount
print(len(owed), "employees owed overtime")
`;
}

const ANSWER = `print(json.dumps({"total_overtime_pay": round(sum(owed.values()), 2), "employees": owed}))
`;

const solution = (options: SolutionOptions): string[] => [
  READ_DOCUMENTS,
  loadCell(options),
  computeCell(options),
  ANSWER,
];

export const overtimeOwedTask = defineTask({
  id: "hr.overtime-owed",
  domain: hrDomainDefinition,
  summary:
    "Compute the overtime pay owed per employee for the open payroll run from approved timesheets, department thresholds and holiday work.",
  instruction:
    "Payroll needs the overtime figures for the open (draft) payroll run before it is finalized. Using the " +
    "timesheets in the HR system and the overtime policy and holiday calendar in the workspace, work out the " +
    "overtime pay each employee is owed for that run's pay period. Reply with only a JSON object " +
    '{"total_overtime_pay": <number>, "employees": {"<employee id>": <amount>, ...}} listing every employee ' +
    "owed more than zero, amounts in dollars rounded to cents.",
  tools: [
    "list_departments",
    "list_positions",
    "list_employees",
    "get_employee",
    "list_timesheet_entries",
    "list_payroll_runs",
    "list_payslips",
  ],
  verify({ initial, answer }) {
    const policy = parseOvertimePolicy(requireFile(initial, OVERTIME_POLICY_PATH));
    const calendar = parseHolidayCalendar(requireFile(initial, HOLIDAY_CALENDAR_PATH));
    const holidays = new Set(calendar.map((holiday) => holiday.date));
    const period = openPeriod(initial.db);
    const employees = loadEmployees(initial.db);
    const entries = allRows<{ employee_id: string; workDate: string; hours: number }>(
      initial.db,
      "SELECT employee_id, work_date AS workDate, hours FROM timesheet_entries WHERE status = 'approved' AND work_date BETWEEN ? AND ?",
      period.start,
      period.end,
    );
    const byEmployee = groupBy(entries, (entry) => entry.employee_id);
    const expected = new Map<string, number>();
    for (const [employeeId, worked] of byEmployee) {
      const employee = employees.get(employeeId);
      if (!employee || employee.flsa_status !== "non_exempt" || employee.employment_type === "contractor")
        continue;
      const rule = overtimeRuleFor(policy, employee.department_name);
      const pay = computeOvertime(
        worked,
        employee.hourly_rate ?? 0,
        rule,
        holidays,
        policy.holidayMultiplier,
      ).overtimePay;
      if (pay > 0) expected.set(employeeId, pay);
    }
    const expectedTotal = roundCents([...expected.values()].reduce((sum, value) => sum + value, 0));

    const parsed = parseAnswerJson(answer) as { total_overtime_pay?: unknown; employees?: unknown } | null;
    const reported = parsed && typeof parsed === "object" ? numericRecord(parsed.employees) : null;
    const total = parsed && typeof parsed === "object" ? Number(parsed.total_overtime_pay) : Number.NaN;
    const format = check(
      "answer-format",
      reported !== null && Number.isFinite(total),
      reported !== null && Number.isFinite(total)
        ? `answer lists ${reported.size} employees and a total`
        : 'expected a JSON object {"total_overtime_pay": number, "employees": {id: amount}}',
    );
    if (!reported || !Number.isFinite(total)) return [format];
    const positive = new Map([...reported].filter(([, amount]) => amount > 0.004));
    const totalTolerance = 0.01 + 0.006 * expected.size;
    return [
      format,
      ...checkReportedValues(positive, expected, {
        listedId: "employees-owed",
        valuesId: "amounts",
        who: "employees owed overtime",
        notExpected: "not owed anything",
        valuesMatch: "every listed amount matches the policy",
        wrongValues: "wrong amounts",
        tolerance: 0.011,
        previewLimit: 5,
        showExpected: (amount) => amount.toFixed(2),
        showFound: (amount) => (amount ?? 0).toFixed(2),
      }),
      check(
        "total",
        Math.abs(total - expectedTotal) <= totalTolerance,
        `expected total ${expectedTotal.toFixed(2)}, found ${total.toFixed(2)}`,
      ),
    ];
  },
  oracle: solution(CORRECT),
  nearMisses: [
    {
      id: "pays-exempt-staff",
      description: "Pays overtime to exempt staff who log project hours (rate = salary / 2080).",
      cells: solution({ ...CORRECT, exemptCovered: true }),
    },
    {
      id: "pays-contractors",
      description: "Pays overtime to agency contractors, whom the agency pays.",
      cells: solution({ ...CORRECT, contractorsCovered: true }),
    },
    {
      id: "holidays-as-normal-hours",
      description:
        "Counts holiday hours toward the weekly threshold instead of paying them at the holiday multiplier.",
      cells: solution({ ...CORRECT, holidayRule: false }),
    },
    {
      id: "flat-40-hour-threshold",
      description: "Uses 40 hours for every department, ignoring department thresholds.",
      cells: solution({ ...CORRECT, departmentThresholds: false }),
    },
    {
      id: "counts-unapproved-hours",
      description: "Includes timesheet entries that are still awaiting approval.",
      cells: solution({ ...CORRECT, unapprovedHours: true }),
    },
  ],
});
