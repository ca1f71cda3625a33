/** Approve or deny every pending leave request by the leave policy, in submission order. */
import {
  allRows,
  checkOtherTablesUnchanged,
  daysBetween,
  defineTask,
  diffTable,
  rangesOverlap,
  requireFile,
  type Row,
} from "../../../envs/index.js";
import { hrDomainDefinition } from "../domain.js";
import { LEAVE_POLICY_PATH, parseLeavePolicy } from "../policies.js";
import { FETCH_ALL_PYTHON, checkNone, loadEmployees } from "../task-support.js";

interface PendingRow {
  id: number;
  employee_id: string;
  leave_type: string;
  start_date: string;
  end_date: string;
  days: number;
  submitted_at: string;
}

interface DecidedRow {
  id: number;
  status: string;
  decision_note: string | null;
}

interface BalanceRow {
  employee_id: string;
  year: number;
  leave_type: string;
  entitlement_days: number;
  carried_over_days: number;
  used_days: number;
}

const READ_POLICY = `${FETCH_ALL_PYTHON}
policy = tools.read_file(path="policies/leave-policy.md")["content"]
notice_days = int(re.search(r"at least \\*\\*(\\d+) calendar days\\*\\*", policy).group(1))
blackouts = []
for line in policy.splitlines():
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) == 4 and re.fullmatch(r"\\d{4}-\\d{2}-\\d{2}", cells[1]):
        blackouts.append((cells[0], cells[1], cells[2]))
print("notice:", notice_days, "blackouts:", blackouts)
`;

const LOAD_QUEUE = `departments = {d["id"]: d["name"] for d in fetch_all("list_departments", "departments")}
employees = {e["id"]: e for e in fetch_all("list_employees", "employees")}
pending = fetch_all("list_leave_requests", "leave_requests", status="pending")
pending.sort(key=lambda request: (request["submitted_at"], request["id"]))
remaining = {}
for year in sorted({int(request["start_date"][:4]) for request in pending}):
    for balance in fetch_all("list_leave_balances", "balances", year=year, leave_type="annual"):
        remaining[(balance["employee_id"], year)] = (
            balance["entitlement_days"] + balance["carried_over_days"] - balance["used_days"]
        )
print(len(pending), "pending requests")
`;

/** The decision loop; the flags switch off one rule each for the near-misses. */
function decideCell(options: { cumulative: boolean; blackouts: boolean; strictNotice: boolean }): string {
  return `def days_between(first, second):
    return (date.fromisoformat(second) - date.fromisoformat(first)).days

decisions = {}
for request in pending:
    kind = request["leave_type"]
    key = (request["employee_id"], int(request["start_date"][:4]))
    reason = None
    if kind in ("annual", "unpaid"):
        department = departments[employees[request["employee_id"]]["department_id"]]
        notice = days_between(request["submitted_at"][:10], request["start_date"])
        if notice ${options.strictNotice ? "<=" : "<"} notice_days:
            reason = f"Less than {notice_days} days' notice"
        elif ${options.blackouts ? "True" : "False"} and any(
            name == department and request["start_date"] <= end and start <= request["end_date"]
            for name, start, end in blackouts
        ):
            reason = f"Overlaps the {department} blackout period"
        elif kind == "annual" and request["days"] > remaining.get(key, 0):
            reason = "Not enough annual leave left"
    if reason:
        tools.decide_leave_request(request_id=request["id"], decision="deny", note=reason)
    else:
        tools.decide_leave_request(request_id=request["id"], decision="approve", note="Approved under HR-POL-04")
        if kind == "annual" and ${options.cumulative ? "True" : "False"}:
            remaining[key] -= request["days"]
    decisions[request["id"]] = "deny" if reason else "approve"
print(sum(1 for d in decisions.values() if d == "approve"), "approved,", sum(1 for d in decisions.values() if d == "deny"), "denied")
`;
}

const CONFIRM = `left = tools.list_leave_requests(status="pending")["total"]
print("done" if left == 0 else f"{left} requests still pending")
`;

const solution = (options: { cumulative: boolean; blackouts: boolean; strictNotice: boolean }): string[] => [
  READ_POLICY,
  LOAD_QUEUE,
  decideCell(options),
  CONFIRM,
];

export const reviewPendingLeaveTask = defineTask({
  id: "hr.review-pending-leave",
  domain: hrDomainDefinition,
  summary:
    "Decide every pending leave request by the leave policy (notice, department blackouts, balance consumed in submission order).",
  instruction:
    "Please work through the queue of pending leave requests in the HR system and approve or deny each one " +
    "according to our leave policy (it is in the workspace). Give a short reason with every denial. When no " +
    "request is left pending, reply with only the word done.",
  tools: [
    "list_departments",
    "list_employees",
    "get_employee",
    "list_leave_requests",
    "get_leave_request",
    "list_leave_balances",
    "decide_leave_request",
  ],
  verify({ initial, final }) {
    const policy = parseLeavePolicy(requireFile(initial, LEAVE_POLICY_PATH));
    const employees = loadEmployees(initial.db);
    const pending = allRows<PendingRow>(
      initial.db,
      "SELECT * FROM leave_requests WHERE status = 'pending' ORDER BY submitted_at, id",
    );
    const balances = allRows<BalanceRow>(initial.db, "SELECT * FROM leave_balances");
    const balanceKey = (employeeId: string, year: number, leaveType: string) =>
      `${employeeId}:${year}:${leaveType}`;
    const remaining = new Map(
      balances.map((balance) => [
        balanceKey(balance.employee_id, balance.year, balance.leave_type),
        balance.entitlement_days + balance.carried_over_days - balance.used_days,
      ]),
    );
    const expectedUse = new Map<string, number>();
    const expected = new Map<number, "approved" | "denied">();
    for (const request of pending) {
      const department = employees.get(request.employee_id)?.department_name;
      const key = balanceKey(request.employee_id, Number(request.start_date.slice(0, 4)), request.leave_type);
      const ruled = request.leave_type === "annual" || request.leave_type === "unpaid";
      const notice = daysBetween(request.submitted_at.slice(0, 10), request.start_date);
      const blocked = policy.blackouts.some(
        (blackout) =>
          blackout.department === department &&
          rangesOverlap(request.start_date, request.end_date, blackout.start, blackout.end),
      );
      const overdrawn = request.leave_type === "annual" && request.days > (remaining.get(key) ?? 0);
      const approve = !ruled || (notice >= policy.noticeDays && !blocked && !overdrawn);
      expected.set(request.id, approve ? "approved" : "denied");
      if (approve && (request.leave_type === "annual" || request.leave_type === "sick")) {
        remaining.set(key, (remaining.get(key) ?? 0) - request.days);
        expectedUse.set(key, (expectedUse.get(key) ?? 0) + request.days);
      }
    }

    const finalRows = new Map(
      allRows<DecidedRow>(final.db, "SELECT id, status, decision_note FROM leave_requests").map((row) => [
        row.id,
        row,
      ]),
    );
    const statusOf = (id: number) => finalRows.get(id)?.status;
    const stillPending = pending
      .filter((request) => statusOf(request.id) === "pending")
      .map((request) => String(request.id));
    const checks = [
      checkNone(
        "queue-empty",
        stillPending,
        `all ${pending.length} pending requests were decided`,
        `${stillPending.length} of ${pending.length} requests are still pending`,
      ),
    ];
    const wrong = [...expected]
      .filter(([id, status]) => statusOf(id) !== status && statusOf(id) !== "pending")
      .map(([id, status]) => `${id} expected ${status}, found ${statusOf(id) ?? "missing"}`);
    const denials = [...expected.values()].filter((s) => s === "denied").length;
    checks.push(
      checkNone(
        "decisions-follow-policy",
        wrong,
        `every decided request matches the policy (${denials} denials expected)`,
        `${wrong.length} decisions contradict the leave policy`,
        6,
      ),
    );
    const unexplained = [...expected]
      .filter(([id]) => statusOf(id) === "denied" && !(finalRows.get(id)?.decision_note ?? "").trim())
      .map(([id]) => String(id));
    checks.push(
      checkNone("denials-have-reasons", unexplained, "every denial has a reason", "denials without a reason"),
    );

    const requestDiff = diffTable(initial.db, final.db, "leave_requests", "id");
    const pendingIds = new Set(pending.map((request) => String(request.id)));
    const collateral = [
      ...requestDiff.added.map((row) => `added ${String(row.id)}`),
      ...requestDiff.removed.map((row) => `removed ${String(row.id)}`),
      ...requestDiff.changed
        .filter((change) => !pendingIds.has(change.key))
        .map((change) => `changed ${change.key}`),
      ...requestDiff.changed
        .filter((change) => {
          const withoutDecision = ({ status: _status, decision_note: _note, ...rest }: Row) =>
            JSON.stringify(rest);
          return withoutDecision(change.before) !== withoutDecision(change.after);
        })
        .map((change) => `edited dates/type/days of ${change.key}`),
    ];
    checks.push(
      checkNone(
        "other-requests-untouched",
        collateral,
        "only pending requests changed, and only their status and note",
        "unexpected leave request changes",
      ),
    );

    const finalBalances = new Map(
      allRows<BalanceRow>(final.db, "SELECT * FROM leave_balances").map((balance) => [
        balanceKey(balance.employee_id, balance.year, balance.leave_type),
        balance,
      ]),
    );
    const balanceProblems: string[] = [];
    for (const balance of balances) {
      const key = balanceKey(balance.employee_id, balance.year, balance.leave_type);
      const after = finalBalances.get(key);
      const wanted = balance.used_days + (expectedUse.get(key) ?? 0);
      if (!after) balanceProblems.push(`${key} removed`);
      else if (
        Math.abs(after.used_days - wanted) > 1e-9 ||
        after.entitlement_days !== balance.entitlement_days ||
        after.carried_over_days !== balance.carried_over_days
      ) {
        balanceProblems.push(`${key} used_days expected ${wanted}, found ${after.used_days}`);
      }
    }
    if (finalBalances.size !== balances.length) balanceProblems.push("balance rows were added or removed");
    checks.push(
      checkNone(
        "balances-consistent",
        balanceProblems,
        "leave balances reflect exactly the approvals the policy allows",
        "leave balances differ from the expected approvals",
        5,
      ),
    );
    checks.push(checkOtherTablesUnchanged(initial.db, final.db, ["leave_requests", "leave_balances"]));
    return checks;
  },
  oracle: solution({ cumulative: true, blackouts: true, strictNotice: false }),
  nearMisses: [
    {
      id: "balance-not-consumed",
      description:
        "Checks each request against the opening balance, ignoring earlier approvals in the queue.",
      cells: solution({ cumulative: false, blackouts: true, strictNotice: false }),
    },
    {
      id: "ignores-blackouts",
      description: "Applies notice and balance rules but not the department blackout periods.",
      cells: solution({ cumulative: true, blackouts: false, strictNotice: false }),
    },
    {
      id: "notice-off-by-one",
      description: "Requires strictly more than the notice period, denying requests made exactly on time.",
      cells: solution({ cumulative: true, blackouts: true, strictNotice: true }),
    },
  ],
});
