/** Approve or reject submitted hours as the managers' e-mail sign-offs say, per the approval procedure. */
import {
  check,
  checkAnswerTally,
  checkStateDiff,
  defineTask,
  pythonClientHelpers,
} from "../../../envs/index.js";
import { hrDomainDefinition } from "../domain.js";
import { FETCH_ALL_PYTHON } from "../task-support.js";
import {
  TIMESHEET_INBOX_DIR,
  TIMESHEET_PROCEDURE_PATH,
  computeSignoffDecisions,
  plantTimesheetSignoffs,
} from "../timesheet-approvals.js";

interface Variant {
  checkSender: boolean;
  latestWins: boolean;
  honourRejections: boolean;
}

const PROCEDURE: Variant = { checkSender: true, latestWins: true, honourRejections: true };

function cells(variant: Variant): string[] {
  return [
    `${FETCH_ALL_PYTHON}
${pythonClientHelpers()}

print(read_text("${TIMESHEET_PROCEDURE_PATH}"))
run = tools.list_payroll_runs(status="draft")["payroll_runs"][0]
start, end = run["period_start"], run["period_end"]
print(run["id"], start, end)`,
    `MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
employees = fetch_all("list_employees", "employees")
by_name = {f"{e['first_name']} {e['last_name']}": e["id"] for e in employees}

def parse(text):
    sender = re.search(r"^From: .*<([^>]+)>", text, re.M).group(1)
    sent = re.search(r"^Date: (.+)$", text, re.M).group(1).strip()
    body = text[text.index("\\n\\n") + 2:]
    message = "\\n".join(body.strip().split("\\n")[:-1])
    found = re.search(r"\\((E\\d+)\\)", message)
    if found:
        employee = found.group(1)
    else:
        named = [eid for name, eid in by_name.items() if re.search(r"\\b" + re.escape(name) + r"\\b", message)]
        assert len(named) == 1, (message, named)
        employee = named[0]
    signoff = {"from": sender.lower(), "sent": sent, "employee": employee, "kind": "approve-all"}
    if re.search("disregard", message, re.I):
        signoff["kind"] = "hold"
        return signoff
    reject = re.search(r"(" + "|".join(MONTHS) + r") (\\d{1,2}), (\\d{4})[^\\n]*?([A-Z]{2,3}-[A-Z0-9]+)", message)
    if reject and re.search("reject", message, re.I):
        signoff["kind"] = "reject-one"
        signoff["date"] = f"{reject.group(3)}-{MONTHS.index(reject.group(1)) + 1:02d}-{int(reject.group(2)):02d}"
        signoff["project"] = reject.group(4)
    return signoff

signoffs = sorted((parse(read_text(path)) for path in workspace_files("${TIMESHEET_INBOX_DIR}")), key=lambda s: s["sent"])
for signoff in signoffs:
    print(signoff)`,
    `people = {}
def person(employee_id):
    if employee_id not in people:
        people[employee_id] = tools.get_employee(employee_id=employee_id)
    return people[employee_id]

decisive = {}
for signoff in signoffs:
    manager_id = person(signoff["employee"])["manager_id"]
    if ${variant.checkSender ? "True" : "False"} and (manager_id is None or person(manager_id)["email"].lower() != signoff["from"]):
        print("not the direct manager:", signoff)
        continue
    if not ${variant.latestWins ? "True" : "False"} and signoff["employee"] in decisive:
        continue
    decisive[signoff["employee"]] = signoff

counts = {"approved": 0, "rejected": 0}
for employee, signoff in sorted(decisive.items()):
    if signoff["kind"] == "hold":
        continue
    entries = fetch_all("list_timesheet_entries", "entries", start_date=start, end_date=end, employee_id=employee, status="submitted")
    for entry in entries:
        reject = ${variant.honourRejections ? "True" : "False"} and signoff["kind"] == "reject-one" and entry["work_date"] == signoff["date"] and entry["project_code"] == signoff["project"]
        tools.review_timesheet_entry(entry_id=entry["id"], decision="reject" if reject else "approve")
        counts["rejected" if reject else "approved"] += 1`,
    `print(json.dumps(counts))`,
  ];
}

export const timesheetSignoffsTask = defineTask({
  id: "hr.timesheet-signoffs",
  domain: hrDomainDefinition,
  summary:
    "Read the managers' e-mailed timesheet sign-offs and approve or reject the submitted hours they cover, per the approval procedure: direct manager only, the latest e-mail wins, a rejected entry named in prose.",
  instruction:
    'Managers have e-mailed their timesheet sign-offs for the current payroll run; they\'re filed in the workspace inbox, next to our timesheet approval procedure. Process them in the HR system exactly as the procedure says, approving or rejecting the submitted entries on the managers\' behalf, and change nothing else. Reply with only a JSON object counting the entries you reviewed: {"approved": <n>, "rejected": <n>}.',
  tools: [
    "list_employees",
    "get_employee",
    "list_departments",
    "list_payroll_runs",
    "list_timesheet_entries",
    "review_timesheet_entry",
  ],
  prepare: plantTimesheetSignoffs,
  verify: ({ initial, final, answer }) => {
    const files = initial
      .listFiles()
      .filter((path) => path.startsWith(`${TIMESHEET_INBOX_DIR}/`))
      .map((path) => ({ path, text: initial.readFile(path) ?? "" }));
    const expected = computeSignoffDecisions(initial.db, files);
    const counts = { approved: 0, rejected: 0 };
    for (const status of expected.values()) counts[status] += 1;
    return [
      check("instance-has-signoffs", expected.size > 0, `${expected.size} entries to review`),
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "timesheet_entries",
          key: "id",
          changed: new Map([...expected].map(([id, status]) => [id, { status }])),
        },
      ]),
      checkAnswerTally(answer, counts),
    ];
  },
  oracle: cells(PROCEDURE),
  nearMisses: [
    {
      id: "trusts-any-sender",
      description: "Acts on a sign-off from a colleague covering for the manager.",
      cells: cells({ ...PROCEDURE, checkSender: false }),
    },
    {
      id: "first-email-wins",
      description: "Acts on the first e-mail about an employee and ignores the manager's later hold.",
      cells: cells({ ...PROCEDURE, latestWins: false }),
    },
    {
      id: "approves-everything",
      description: "Approves every submitted entry, missing the one the manager asked to reject.",
      cells: cells({ ...PROCEDURE, honourRejections: false }),
    },
  ],
});
