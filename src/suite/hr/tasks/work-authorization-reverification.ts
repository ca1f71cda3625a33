/** Whose right-to-work documents have expired or are due for re-verification, from a vendor API that fails silently. */
import {
  answerListItems,
  check,
  checkStateDiff,
  defineTask,
  requireFile,
  type Check,
} from "../../../envs/index.js";
import { hrDomainDefinition } from "../domain.js";
import { FETCH_ALL_PYTHON, preview } from "../task-support.js";
import {
  REVERIFICATION_PROCEDURE_PATH,
  computeReverification,
  parseReverificationProcedure,
  plantWorkAuthorizations,
} from "../work-authorization.js";

interface Variant {
  detectSilentErrors: boolean;
  inclusiveWindow: boolean;
  skipContractors: boolean;
  skipLeavers: boolean;
}

const PROCEDURE: Variant = {
  detectSilentErrors: true,
  inclusiveWindow: true,
  skipContractors: true,
  skipLeavers: true,
};

function cells(variant: Variant): string[] {
  const lookup = variant.detectSilentErrors
    ? `def lookup(employee_id):
    for attempt in range(5):
        record = tools.get_work_authorization(employee_id=employee_id)
        if record.get("status") != "error" and "expires_on" in record:
            return record
        print("retrying", employee_id, record)
    raise RuntimeError(f"no document for {employee_id}")`
    : `def lookup(employee_id):
    return tools.get_work_authorization(employee_id=employee_id)`;
  return [
    `${FETCH_ALL_PYTHON}
from datetime import timedelta

procedure = read_text("${REVERIFICATION_PROCEDURE_PATH}")
print(procedure)
review = date.fromisoformat(re.search(r"Review as of \\*\\*(\\d{4}-\\d{2}-\\d{2})\\*\\*", procedure).group(1))
window = int(re.search(r"within the \\*\\*(\\d+) days\\*\\*", procedure).group(1))
last = review + timedelta(days=window)
print(review, window, last)`,
    `${lookup}

employees = [
    e for e in fetch_all("list_employees", "employees")
    if not (${variant.skipLeavers ? "True" : "False"} and e["status"] == "terminated") and not (${variant.skipContractors ? "True" : "False"} and e["employment_type"] == "contractor")
]
expired, due = [], []
for employee in employees:
    record = lookup(employee["id"])
    expires = record.get("expires_on")
    if not expires:
        continue
    expires = date.fromisoformat(expires)
    if expires < review:
        expired.append(employee["id"])
    elif expires ${variant.inclusiveWindow ? "<=" : "<"} last:
        due.append(employee["id"])
print(len(employees), "employees in scope")`,
    `print(json.dumps({"expired": sorted(expired), "due": sorted(due)}))`,
  ];
}

export const workAuthorizationReverificationTask = defineTask({
  id: "hr.work-authorization-reverification",
  domain: hrDomainDefinition,
  summary:
    "List the employees whose right-to-work documents have expired or fall due within the procedure's window, looking each one up in a vendor API that sometimes returns an error body instead of the record.",
  instruction:
    'Please run the right-to-work re-verification review described in our procedure in the workspace: look up the documents on file for the employees it covers and tell me whose have expired and whose are due for re-verification. Don\'t change anything. Reply with only a JSON object with two lists of employee ids in ascending order: {"expired": [...], "due": [...]}.',
  tools: ["list_employees", "get_employee", "list_departments", "get_work_authorization"],
  prepare: plantWorkAuthorizations,
  verify: ({ initial, final, answer }) => {
    const rules = parseReverificationProcedure(requireFile(initial, REVERIFICATION_PROCEDURE_PATH));
    const expected = computeReverification(initial.db, rules);
    const want = { expired: [...expected.expired].sort(), due: [...expected.due].sort() };
    const answerList = (key: "expired" | "due"): Check => {
      const items = answerListItems(answer, key);
      const given = items && [...new Set(items.map((item) => item.toUpperCase()))].sort();
      return check(
        `answer-${key}`,
        JSON.stringify(given) === JSON.stringify(want[key]),
        `expected ${preview(want[key])}, found ${given ? preview(given) : "no list"}`,
      );
    };
    return [
      check(
        "instance-has-cases",
        want.expired.length > 0 && want.due.length > 0,
        `${want.expired.length} expired, ${want.due.length} due`,
      ),
      answerList("expired"),
      answerList("due"),
      ...checkStateDiff(initial.db, final.db, []),
    ];
  },
  oracle: cells(PROCEDURE),
  nearMisses: [
    {
      id: "trusts-every-response",
      description:
        "Reads a timed-out lookup (an error body without expires_on) as a document that never expires.",
      cells: cells({ ...PROCEDURE, detectSilentErrors: false }),
    },
    {
      id: "window-end-excluded",
      description: "Leaves out the document expiring on the last day of the window.",
      cells: cells({ ...PROCEDURE, inclusiveWindow: false }),
    },
    {
      id: "includes-leavers",
      description: "Reviews everyone list_employees returns, former (terminated) employees included.",
      cells: cells({ ...PROCEDURE, skipLeavers: false }),
    },
    {
      id: "includes-contractors",
      description: "Reviews agency contractors too.",
      cells: cells({ ...PROCEDURE, skipContractors: false }),
    },
  ],
});
