/** The payroll variance control on the latest paid run: hourly pay that moved beyond both thresholds, unexplained by leave. */
import { allRows, check, defineTask, rangesOverlap, requireFile } from "../../../envs/index.js";
import { hrDomainDefinition } from "../domain.js";
import { roundCents } from "../payroll-math.js";
import { VARIANCE_CONTROL_PATH, parseVarianceControl } from "../policies.js";
import { FETCH_ALL_PYTHON, checkEmployeeNumbers, loadEmployees } from "../task-support.js";

interface SolutionOptions {
  leaveExclusion: boolean;
  baseline: "three-run-average" | "previous-run";
  percentTest: boolean;
  newStarters: boolean;
}

const CORRECT: SolutionOptions = {
  leaveExclusion: true,
  baseline: "three-run-average",
  percentTest: true,
  newStarters: false,
};

const READ_CONTROL = `${FETCH_ALL_PYTHON}
control = tools.read_file(path="policies/payroll-variance-control.md")["content"]
match = re.search(r"more than \\*\\*([\\d.]+)%\\*\\* of that average \\*\\*and\\*\\* more than \\*\\*\\$([\\d.]+)\\*\\*", control)
percent, floor = float(match.group(1)), float(match.group(2))
print("flag above", percent, "% and $", floor)
`;

const LOAD = `runs = sorted(fetch_all("list_payroll_runs", "payroll_runs", status="paid"), key=lambda run: run["period_end"], reverse=True)
latest, earlier = runs[0], runs[1:4]
positions = {p["id"]: p for p in fetch_all("list_positions", "positions")}
hourly = [e["id"] for e in fetch_all("list_employees", "employees") if positions[e["position_id"]]["pay_type"] == "hourly"]
gross = {}
for run in [latest] + earlier:
    gross[run["id"]] = {p["employee_id"]: p["gross_pay"] for p in fetch_all("list_payslips", "payslips", run_id=run["id"])}
print(latest["id"], [run["id"] for run in earlier], len(hourly), "hourly employees")
`;

function computeCell(options: SolutionOptions): string {
  const baseline =
    options.baseline === "previous-run"
      ? 'previous = [gross[earlier[0]["id"]][employee_id]] if employee_id in gross[earlier[0]["id"]] else []'
      : 'previous = [gross[run["id"]][employee_id] for run in earlier if employee_id in gross[run["id"]]]';
  const complete = options.newStarters ? "len(previous) == 0" : "len(previous) < len(earlier)";
  const percentTest = options.percentTest ? "abs(difference) > average * percent / 100" : "True";
  return `flagged = {}
for employee_id in hourly:
    if employee_id not in gross[latest["id"]]:
        continue
    ${baseline}
    if ${complete}:
        continue
    average = sum(previous) / len(previous)
    difference = gross[latest["id"]][employee_id] - average
    if not (${percentTest} and abs(difference) > floor):
        continue
    if ${options.leaveExclusion ? "True" : "False"}:
        leave = fetch_all("list_leave_requests", "leave_requests", employee_id=employee_id, status="approved")
        if any(r["start_date"] <= latest["period_end"] and latest["period_start"] <= r["end_date"] for r in leave):
            continue
    flagged[employee_id] = round(difference, 2)
print(len(flagged), "employees flagged")
`;
}

const ANSWER = `print(json.dumps(flagged))
`;

const solution = (options: SolutionOptions): string[] => [READ_CONTROL, LOAD, computeCell(options), ANSWER];

interface RunRow {
  id: string;
  period_start: string;
  period_end: string;
}

export const payrollVarianceReviewTask = defineTask({
  id: "hr.payroll-variance-review",
  domain: hrDomainDefinition,
  summary:
    "Run the payroll variance control on the latest paid run: hourly employees whose gross moved past both thresholds against their three-run average, excluding new starters and people on leave.",
  instruction:
    "Finance needs the payroll variance check for the most recent paid payroll run, done exactly as the " +
    "payroll variance control in the workspace describes. Reply with only a JSON object mapping each flagged " +
    "employee id to the difference (latest gross pay minus the average, in dollars rounded to cents), e.g. " +
    '{"E1001": -312.55}.',
  tools: [
    "list_positions",
    "list_employees",
    "get_employee",
    "list_payroll_runs",
    "list_payslips",
    "list_leave_requests",
  ],
  verify({ initial, answer }) {
    const control = parseVarianceControl(requireFile(initial, VARIANCE_CONTROL_PATH));
    const runs = allRows<RunRow>(
      initial.db,
      "SELECT id, period_start, period_end FROM payroll_runs WHERE status = 'paid' ORDER BY period_end DESC",
    );
    const [latest, ...rest] = runs;
    const earlier = rest.slice(0, 3);
    if (!latest || earlier.length < 3)
      return [check("paid-runs", false, "the data has fewer than four paid runs")];
    const payslips = allRows<{ key: string; gross_pay: number }>(
      initial.db,
      "SELECT run_id || ':' || employee_id AS key, gross_pay FROM payslips",
    );
    const gross = new Map(payslips.map((row) => [row.key, row.gross_pay]));
    const leave = allRows<{ employee_id: string; start_date: string; end_date: string }>(
      initial.db,
      "SELECT employee_id, start_date, end_date FROM leave_requests WHERE status = 'approved'",
    );
    const expected = new Map<string, number>();
    for (const employee of loadEmployees(initial.db).values()) {
      if (employee.pay_type !== "hourly") continue;
      const latestGross = gross.get(`${latest.id}:${employee.id}`);
      const previous = earlier.map((run) => gross.get(`${run.id}:${employee.id}`));
      if (latestGross === undefined || previous.some((value) => value === undefined)) continue;
      const average = previous.reduce<number>((sum, value) => sum + (value ?? 0), 0) / previous.length;
      const difference = latestGross - average;
      if (
        Math.abs(difference) <= (average * control.percent) / 100 ||
        Math.abs(difference) <= control.floorDollars
      ) {
        continue;
      }
      const away = leave.some(
        (request) =>
          request.employee_id === employee.id &&
          rangesOverlap(request.start_date, request.end_date, latest.period_start, latest.period_end),
      );
      if (!away) expected.set(employee.id, roundCents(difference));
    }

    return checkEmployeeNumbers(answer, expected, {
      expectedShape: 'a JSON object mapping employee ids to differences, e.g. {"E1001": -312.55}',
      positiveOnly: false,
      listedId: "employees-flagged",
      valuesId: "differences",
      who: "flagged employees",
      notExpected: "should not be flagged",
      valuesMatch: "every difference matches the control",
      wrongValues: "wrong differences",
      tolerance: 0.011,
      previewLimit: 5,
      showExpected: (difference) => difference.toFixed(2),
      showFound: String,
    });
  },
  oracle: solution(CORRECT),
  nearMisses: [
    {
      id: "ignores-leave-exclusion",
      description: "Flags employees whose pay moved because of approved leave in the period.",
      cells: solution({ ...CORRECT, leaveExclusion: false }),
    },
    {
      id: "previous-run-baseline",
      description: "Compares with the previous run only instead of the three-run average.",
      cells: solution({ ...CORRECT, baseline: "previous-run" }),
    },
    {
      id: "dollar-threshold-only",
      description: "Applies the dollar floor but not the percentage test.",
      cells: solution({ ...CORRECT, percentTest: false }),
    },
    {
      id: "includes-new-starters",
      description: "Keeps employees without a payslip in every one of the four runs, averaging what exists.",
      cells: solution({ ...CORRECT, newStarters: true }),
    },
  ],
});
