/** Who would forfeit annual leave at year end under the carry-over cap, and how many days. */
import { allRows, defineTask, makeDate, requireFile } from "../../../envs/index.js";
import { completedYears } from "../dates.js";
import { hrDomainDefinition } from "../domain.js";
import { LEAVE_POLICY_PATH, parseLeavePolicy } from "../policies.js";
import { FETCH_ALL_PYTHON, checkEmployeeNumbers, loadEmployees } from "../task-support.js";

interface SolutionOptions {
  tenure: "december" | "january" | "ignored";
  departmentException: boolean;
  fteProration: boolean;
  includeLeavers: boolean;
}

const CORRECT: SolutionOptions = {
  tenure: "december",
  departmentException: true,
  fteProration: true,
  includeLeavers: false,
};

const READ_POLICY = `${FETCH_ALL_PYTHON}
policy = tools.read_file(path="policies/leave-policy.md")["content"]
year = int(re.search(r"current leave year is \\*\\*(\\d{4})\\*\\*", policy).group(1))
standard_cap = float(re.search(r"Standard cap: \\*\\*([\\d.]+) days\\*\\*", policy).group(1))
tenure = re.search(r"at least \\*\\*(\\d+) full years of service\\*\\* on 31 December of the leave year: \\*\\*([\\d.]+) days\\*\\*", policy)
tenure_years, tenured_cap = int(tenure.group(1)), float(tenure.group(2))
exception = re.search(r"(\\d{4}) exception: [^,]*, (.+?) staff may carry over up to \\*\\*([\\d.]+) days\\*\\*", policy)
exception_year, exception_department, exception_cap = int(exception.group(1)), exception.group(2), float(exception.group(3))
print(year, standard_cap, tenure_years, tenured_cap, exception_year, exception_department, exception_cap)
`;

const LOAD = `departments = {d["id"]: d["name"] for d in fetch_all("list_departments", "departments")}
employees = {e["id"]: e for e in fetch_all("list_employees", "employees")}
balances = fetch_all("list_leave_balances", "balances", year=year, leave_type="annual")
print(len(balances), "annual balances for", year)
`;

function computeCell(options: SolutionOptions): string {
  const tenureDate = options.tenure === "january" ? 'f"{year}-01-01"' : 'f"{year}-12-31"';
  const tenureRule =
    options.tenure === "ignored"
      ? "cap = standard_cap"
      : `cap = tenured_cap if completed_years(record["hire_date"], ${tenureDate}) >= tenure_years else standard_cap`;
  return `def completed_years(hire, on):
    years = int(on[:4]) - int(hire[:4])
    return years if on[5:] >= hire[5:] else years - 1

forfeit = {}
for balance in balances:
    remaining = balance["entitlement_days"] + balance["carried_over_days"] - balance["used_days"]
    summary = employees[balance["employee_id"]]
    if remaining <= 0 or (${options.includeLeavers ? "False" : "True"} and summary["status"] == "terminated"):
        continue
    record = tools.get_employee(employee_id=balance["employee_id"])
    ${tenureRule}
    if ${options.departmentException ? "True" : "False"} and exception_year == year and departments[record["department_id"]] == exception_department:
        cap = max(cap, exception_cap)
    if ${options.fteProration ? "True" : "False"} and record["employment_type"] == "part_time":
        cap = cap * record["fte"]
    if remaining > cap:
        forfeit[record["id"]] = round(remaining - cap, 2)
print(len(forfeit), "employees would forfeit leave")
`;
}

const ANSWER = `print(json.dumps(forfeit))
`;

const solution = (options: SolutionOptions): string[] => [READ_POLICY, LOAD, computeCell(options), ANSWER];

export const carryOverForfeitureTask = defineTask({
  id: "hr.carry-over-forfeiture",
  domain: hrDomainDefinition,
  summary:
    "List employees whose remaining annual leave exceeds their carry-over cap (tenure, department exception, FTE), with the days they would forfeit.",
  instruction:
    "We want to send 'use it or lose it' reminders. Look at the annual leave balances of the current leave year " +
    "(remaining = entitlement + carried over - used; used already includes approved leave that has not been taken " +
    "yet; ignore pending requests) and apply the carry-over rules of our leave policy in the workspace: which " +
    "employees would forfeit days at the end of the year, and how many? Reply with only a JSON object mapping " +
    'each such employee id to the number of days they would forfeit, e.g. {"E1001": 2.5}.',
  tools: ["list_departments", "list_employees", "get_employee", "list_leave_balances", "list_leave_requests"],
  verify({ initial, answer }) {
    const rules = parseLeavePolicy(requireFile(initial, LEAVE_POLICY_PATH)).carryOver;
    const year = rules.year;
    const employees = loadEmployees(initial.db);
    const balances = allRows<{ employee_id: string; remaining: number }>(
      initial.db,
      "SELECT employee_id, entitlement_days + carried_over_days - used_days AS remaining FROM leave_balances WHERE year = ? AND leave_type = 'annual'",
      year,
    );
    const expected = new Map<string, number>();
    for (const balance of balances) {
      const employee = employees.get(balance.employee_id);
      if (!employee || employee.status === "terminated" || employee.employment_type === "contractor")
        continue;
      const remaining = balance.remaining;
      let cap =
        completedYears(employee.hire_date, makeDate(year, 12, 31)) >= rules.tenureYears
          ? rules.tenuredCapDays
          : rules.standardCapDays;
      if (employee.department_name === rules.exceptionDepartment) cap = Math.max(cap, rules.exceptionCapDays);
      if (employee.employment_type === "part_time") cap *= employee.fte;
      if (remaining - cap > 1e-9) expected.set(employee.id, Math.round((remaining - cap) * 100) / 100);
    }

    return checkEmployeeNumbers(answer, expected, {
      expectedShape: 'a JSON object mapping employee ids to days, e.g. {"E1001": 2.5}',
      positiveOnly: true,
      listedId: "employees-flagged",
      valuesId: "days-forfeited",
      who: "employees over their cap",
      notExpected: "not over their cap",
      valuesMatch: "every listed number of days matches the policy",
      wrongValues: "wrong day counts",
      tolerance: 0.01,
      previewLimit: 6,
      showExpected: String,
      showFound: (days) => String(days ?? 0),
    });
  },
  oracle: solution(CORRECT),
  nearMisses: [
    {
      id: "ignores-tenure-cap",
      description:
        "Applies the standard cap to everyone, ignoring the higher cap for long-serving employees.",
      cells: solution({ ...CORRECT, tenure: "ignored" }),
    },
    {
      id: "tenure-at-year-start",
      description: "Measures years of service on 1 January instead of 31 December of the leave year.",
      cells: solution({ ...CORRECT, tenure: "january" }),
    },
    {
      id: "ignores-department-exception",
      description: "Misses this year's department exception to the carry-over cap.",
      cells: solution({ ...CORRECT, departmentException: false }),
    },
    {
      id: "no-fte-proration",
      description: "Does not prorate the cap of part-time employees by FTE.",
      cells: solution({ ...CORRECT, fteProration: false }),
    },
    {
      id: "includes-leavers",
      description: "Flags people who have left the company (they are paid out instead).",
      cells: solution({ ...CORRECT, includeLeavers: true }),
    },
  ],
});
