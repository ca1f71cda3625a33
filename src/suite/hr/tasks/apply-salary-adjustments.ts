/** Apply the mid-year salary adjustment memo: eligibility, department percentages, rounding and the band cap. */
import {
  check,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  parseAnswerJson,
  requireFile,
} from "../../../envs/index.js";
import { hrDomainDefinition } from "../domain.js";
import { roundCents } from "../payroll-math.js";
import { parsePayBands, parseSalaryMemo, PAY_BANDS_PATH } from "../policies.js";
import { FETCH_ALL_PYTHON, checkNone, loadEmployees, preview } from "../task-support.js";

interface SolutionOptions {
  bandCap: boolean;
  holdList: boolean;
  inclusiveCutoff: boolean;
}

const CORRECT: SolutionOptions = { bandCap: true, holdList: true, inclusiveCutoff: true };

const MEMO_FILE = /^compensation\/salary-adjustment-memo-\d{4}\.md$/;

const READ_DOCUMENTS = `${FETCH_ALL_PYTHON}
files = tools.list_files(path="compensation")["files"]
memo_path = next(item["path"] for item in files if "salary-adjustment-memo" in item["path"])
memo = tools.read_file(path=memo_path)["content"]
effective = re.search(r"\\*\\*effective (\\d{4}-\\d{2}-\\d{2})\\*\\*", memo).group(1)
cutoff = re.search(r"Hired \\*\\*on or before (\\d{4}-\\d{2}-\\d{2})\\*\\*", memo).group(1)
increases = {}
for line in memo.splitlines():
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) == 2 and re.fullmatch(r"[\\d.]+%", cells[1]):
        increases[cells[0]] = float(cells[1][:-1])
hold = set(re.findall(r"^- (E\\d+)", memo.split("## Compensation hold list")[1], re.M))
bands = {}
for line in tools.read_file(path="compensation/pay-bands.csv")["content"].strip().splitlines()[1:]:
    grade, pay_type, low, high = line.split(",")
    bands[(grade, pay_type)] = float(high)
print(memo_path, effective, cutoff, increases, sorted(hold))
`;

function candidatesCell(options: SolutionOptions): string {
  return `departments = {d["id"]: d["name"] for d in fetch_all("list_departments", "departments")}
positions = {p["id"]: p for p in fetch_all("list_positions", "positions")}
candidates = []
for department_id, name in departments.items():
    if name not in increases:
        continue
    for employee in fetch_all("list_employees", "employees", department_id=department_id):
        if employee["status"] == "terminated" or employee["employment_type"] == "contractor":
            continue
        if ${options.holdList ? "True" : "False"} and employee["id"] in hold:
            continue
        candidates.append(employee)
print(len(candidates), "candidates")
`;
}

function applyCell(options: SolutionOptions): string {
  return `updated = []
for employee in candidates:
    record = tools.get_employee(employee_id=employee["id"])
    if record["hire_date"] ${options.inclusiveCutoff ? ">" : ">="} cutoff:
        continue
    position = positions[record["position_id"]]
    factor = 1 + increases[departments[record["department_id"]]] / 100
    maximum = bands[(position["grade"], position["pay_type"])] if ${options.bandCap ? "True" : "False"} else float("inf")
    if position["pay_type"] == "salaried":
        current = record["annual_salary"]
        new = min(round(current * factor), maximum)
        arguments = {"annual_salary": new}
    else:
        current = record["hourly_rate"]
        new = min(round(current * factor, 2), maximum)
        arguments = {"hourly_rate": new}
    if current >= maximum or new == current:
        continue
    tools.update_compensation(employee_id=record["id"], effective_date=effective, reason="Mid-year salary adjustment memo", **arguments)
    updated.append(record["id"])
print(len(updated), "employees updated")
`;
}

const ANSWER = `print(json.dumps({"updated": len(updated)}))
`;

const solution = (options: SolutionOptions): string[] => [
  READ_DOCUMENTS,
  candidatesCell(options),
  applyCell(options),
  ANSWER,
];

interface Expectation {
  column: "annual_salary" | "hourly_rate";
  amount: number;
}

export const applySalaryAdjustmentsTask = defineTask({
  id: "hr.apply-salary-adjustments",
  domain: hrDomainDefinition,
  summary:
    "Apply the salary adjustment memo: eligible employees of the listed departments get the department's increase, rounded, capped at the pay band maximum.",
  instruction:
    "Please apply the mid-year salary adjustment memo (in the compensation folder of the workspace) in the HR " +
    "system: update the pay of every employee it covers, following its eligibility rules, rounding and pay-band " +
    'cap, and do not change anyone else. Reply with only a JSON object {"updated": <number of employees whose pay ' +
    "you changed>}.",
  tools: ["list_departments", "list_positions", "list_employees", "get_employee", "update_compensation"],
  verify({ initial, final, answer }) {
    const memoPath =
      initial.listFiles().find((path) => MEMO_FILE.test(path)) ?? "compensation/salary-adjustment-memo";
    const memo = parseSalaryMemo(requireFile(initial, memoPath));
    const bands = parsePayBands(requireFile(initial, PAY_BANDS_PATH));
    const percentByDepartment = new Map(
      memo.increases.map((increase) => [increase.department, increase.percent]),
    );
    const hold = new Set(memo.holdList);
    const expected = new Map<string, Expectation>();
    for (const employee of loadEmployees(initial.db).values()) {
      const percent = percentByDepartment.get(employee.department_name);
      if (percent === undefined || hold.has(employee.id)) continue;
      if (employee.status === "terminated" || employee.employment_type === "contractor") continue;
      if (employee.hire_date > memo.hireCutoff) continue;
      const band = bands.find(
        (candidate) => candidate.grade === employee.grade && candidate.payType === employee.pay_type,
      );
      if (!band) continue;
      const salaried = employee.pay_type === "salaried";
      const current = (salaried ? employee.annual_salary : employee.hourly_rate) ?? 0;
      if (current >= band.max) continue;
      const raised = salaried
        ? Math.round(current * (1 + percent / 100))
        : roundCents(current * (1 + percent / 100));
      const amount = Math.min(raised, band.max);
      if (amount === current) continue;
      expected.set(employee.id, { column: salaried ? "annual_salary" : "hourly_rate", amount });
    }

    const diff = diffTable(initial.db, final.db, "employees", "id");
    const changed = new Map(diff.changed.map((change) => [change.key, change]));
    const missing = [...expected.keys()].filter((id) => !changed.has(id));
    const unexpected = [...changed.keys()].filter((id) => !expected.has(id));
    const wrongAmounts: string[] = [];
    const wrongDates: string[] = [];
    const wrongColumns: string[] = [];
    for (const [id, expectation] of expected) {
      const change = changed.get(id);
      if (!change) continue;
      const actual = Number(change.after[expectation.column]);
      // Whole-dollar rounding of an exact half may go either way; a cent for hourly rates.
      const tolerance = expectation.column === "annual_salary" ? 1 : 0.011;
      if (!(Math.abs(actual - expectation.amount) <= tolerance)) {
        wrongAmounts.push(
          `${id} ${expectation.column} expected ${expectation.amount}, found ${String(change.after[expectation.column])}`,
        );
      }
      if (change.after.compensation_effective_date !== memo.effectiveDate) {
        wrongDates.push(`${id} ${String(change.after.compensation_effective_date)}`);
      }
      const touched = Object.keys(change.after).filter(
        (column) =>
          JSON.stringify(change.after[column]) !== JSON.stringify(change.before[column]) &&
          column !== expectation.column &&
          column !== "compensation_effective_date",
      );
      if (touched.length > 0) wrongColumns.push(`${id}: ${touched.join(", ")}`);
    }
    const parsed = parseAnswerJson(answer) as { updated?: unknown } | null;
    const count = parsed && typeof parsed === "object" ? Number(parsed.updated) : Number.NaN;
    return [
      check(
        "right-employees",
        missing.length === 0 &&
          unexpected.length === 0 &&
          diff.added.length === 0 &&
          diff.removed.length === 0,
        missing.length === 0 && unexpected.length === 0
          ? `exactly the ${expected.size} eligible employees were updated`
          : `expected ${expected.size} updates; not updated: ${preview(missing)}; should not have changed: ${preview(unexpected)}`,
      ),
      checkNone(
        "new-pay",
        wrongAmounts,
        "every new salary or rate follows the memo's increase, rounding and band cap",
        "wrong new pay",
        5,
      ),
      checkNone(
        "effective-date",
        wrongDates,
        `every change is effective ${memo.effectiveDate}`,
        `expected effective date ${memo.effectiveDate}, found`,
      ),
      checkNone("only-pay-changed", wrongColumns, "no other employee field changed", "other fields changed"),
      checkOtherTablesUnchanged(initial.db, final.db, ["employees"]),
      check(
        "reported-count",
        count === expected.size,
        `expected {"updated": ${expected.size}}, found ${Number.isNaN(count) ? JSON.stringify(answer.slice(0, 80)) : count}`,
      ),
    ];
  },
  oracle: solution(CORRECT),
  nearMisses: [
    {
      id: "ignores-band-cap",
      description: "Raises pay above the pay band maximum.",
      cells: solution({ ...CORRECT, bandCap: false }),
    },
    {
      id: "ignores-hold-list",
      description: "Also raises employees on the compensation hold list.",
      cells: solution({ ...CORRECT, holdList: false }),
    },
    {
      id: "cutoff-exclusive",
      description: "Treats the hire cutoff as exclusive, leaving out people hired on the cutoff date.",
      cells: solution({ ...CORRECT, inclusiveCutoff: false }),
    },
  ],
});
