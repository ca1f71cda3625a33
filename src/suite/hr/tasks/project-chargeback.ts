/** Finance's project chargeback from the (flaky) project time ledger, the rate card and the memo's conventions. */
import {
  answerObjectEntries,
  check,
  checkStateDiff,
  defineTask,
  nearlyEqual,
  requireFile,
} from "../../../envs/index.js";
import {
  CHARGEBACK_MEMO_PATH,
  computeChargeback,
  parseChargebackMemo,
  plantChargebackMemo,
} from "../chargeback.js";
import { hrDomainDefinition } from "../domain.js";
import { FETCH_ALL_PYTHON, preview } from "../task-support.js";

interface Variant {
  retry: boolean;
  approvedOnly: boolean;
  contractorRate: boolean;
  skipOverhead: boolean;
}

const MEMO: Variant = { retry: true, approvedOnly: true, contractorRate: true, skipOverhead: true };

function cells(variant: Variant): string[] {
  const onFailure = variant.retry
    ? `if "503" in str(error) and attempt < 4:
                    continue
                raise`
    : `return items  # the ledger stopped answering: take what we have`;
  return [
    `${FETCH_ALL_PYTHON}
def ledger(**filters):
    items, page = [], 1
    while True:
        for attempt in range(5):
            try:
                result = tools.list_project_hours(page=page, per_page=50, **filters)
                break
            except ToolError as error:
                print("page", page, "failed:", error)
                ${onFailure}
        items.extend(result["hours"])
        if not result["has_more"]:
            return items
        page += 1

memo = read_text("${CHARGEBACK_MEMO_PATH}")
print(memo)
start, end = re.search(r"pay period \\*\\*(\\d{4}-\\d{2}-\\d{2}) to (\\d{4}-\\d{2}-\\d{2})\\*\\*", memo).groups()
rates = {grade: float(rate) for grade, rate in re.findall(r"^\\| (G\\d+) \\| ([\\d.]+) \\|$", memo, re.M)}
overhead = set(re.findall(r"\`([^\`]+)\`", re.search(r"never charged to a project: (.+)\\.$", memo, re.M).group(1)))
print(start, end, rates, sorted(overhead))`,
    `hours = ledger(start_date=start, end_date=end)
employees = {e["id"]: e for e in fetch_all("list_employees", "employees")}
grades = {p["id"]: p["grade"] for p in fetch_all("list_positions", "positions")}
print(len(hours), "ledger rows")
contract_rates = {}
totals = {}
for row in hours:
    if ${variant.approvedOnly ? "True" : "False"} and row["approval_status"] != "approved":
        continue
    if ${variant.skipOverhead ? "True" : "False"} and row["project_code"] in overhead:
        continue
    employee = employees[row["employee_id"]]
    if ${variant.contractorRate ? "True" : "False"} and employee["employment_type"] == "contractor":
        if employee["id"] not in contract_rates:
            contract_rates[employee["id"]] = tools.get_employee(employee_id=employee["id"])["hourly_rate"]
        rate = contract_rates[employee["id"]]
    else:
        rate = rates[grades[employee["position_id"]]]
    totals[row["project_code"]] = totals.get(row["project_code"], 0) + row["hours"] * rate
print(contract_rates)`,
    `print(json.dumps({code: round(total, 2) for code, total in sorted(totals.items())}))`,
  ];
}

export const projectChargebackTask = defineTask({
  id: "hr.project-chargeback",
  domain: hrDomainDefinition,
  summary:
    "Charge each project for the hours logged to it in the last closed pay period: every page of a ledger API that fails transiently, approved hours only, rate card by grade, contractors at their own rate, overhead codes left out.",
  instruction:
    'Finance needs the project chargeback described in their memo in the workspace: work it out from the project time ledger, following the memo\'s rate card and conventions. Reply with only a JSON object mapping each charged project code to its amount in dollars, rounded to cents, e.g. {"WH-PICK": 1234.5}.',
  tools: ["list_project_hours", "list_employees", "get_employee", "list_positions", "list_departments"],
  prepare: plantChargebackMemo,
  verify: ({ initial, final, answer }) => {
    const expected = computeChargeback(
      initial.db,
      parseChargebackMemo(requireFile(initial, CHARGEBACK_MEMO_PATH)),
    );
    const given = new Map(
      (answerObjectEntries(answer) ?? []).map(([key, value]) => [
        key.trim().toUpperCase(),
        typeof value === "number" ? value : Number(String(value).replace(/[$,\s]/g, "")),
      ]),
    );
    const problems: string[] = [];
    for (const [code, amount] of expected) {
      const found = given.get(code);
      if (found === undefined || !nearlyEqual(found, amount, 0.011))
        problems.push(`${code}: expected ${amount.toFixed(2)}, found ${found ?? "missing"}`);
    }
    for (const code of given.keys()) if (!expected.has(code)) problems.push(`${code} is not charged`);
    return [
      check("instance-has-hours", expected.size > 0, `${expected.size} projects charged`),
      check(
        "chargeback-by-project",
        problems.length === 0,
        problems.length === 0 ? `all ${expected.size} projects match` : preview(problems),
      ),
      ...checkStateDiff(initial.db, final.db, []),
    ];
  },
  oracle: cells(MEMO),
  nearMisses: [
    {
      id: "stops-at-failure",
      description: "Treats the ledger's 503 on a deep page as the end of the listing.",
      cells: cells({ ...MEMO, retry: false }),
    },
    {
      id: "charges-every-status",
      description: "Charges rejected and unapproved hours too.",
      cells: cells({ ...MEMO, approvedOnly: false }),
    },
    {
      id: "rate-card-for-contractors",
      description: "Charges agency contractors at the rate card instead of their contract rate.",
      cells: cells({ ...MEMO, contractorRate: false }),
    },
    {
      id: "charges-overhead",
      description: "Charges the overhead codes to projects.",
      cells: cells({ ...MEMO, skipOverhead: false }),
    },
  ],
});
