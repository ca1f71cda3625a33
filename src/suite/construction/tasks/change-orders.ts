import {
  checkAnswerAmounts,
  checkAnswerCount,
  checkAnswerIdLists,
  checkStateDiff,
  defineTask,
  flagNearMisses,
} from "../../../envs/index.js";
import { constructionDomain } from "../domain.js";
import { approvedTotals, decidedPending, ledgerMismatches } from "./facts.js";
import { taskCells } from "./python.js";

const totalsCells = taskCells(`limits = authority()
log = {co["co_id"]: co for co in fetch("list_change_orders", "change_orders")}
totals = {co["sub_id"]: 0.0 for co in log.values()}
if "ledger" in NEAR:
    for co in log.values():
        if co["status"] == "approved":
            totals[co["sub_id"]] += co["approved_amount"]
else:
    for thread in fetch("list_email_threads", "threads"):
        m = re.match(r"(CO-\\d{4})", thread["subject"])
        if not m:
            continue
        status, amount, who = outcome(thread["thread_id"], limits)
        if status == "approved":
            totals[log[m.group(1)]["sub_id"]] += amount
print(json.dumps({sub: round(total, 2) for sub, total in totals.items()}))`);

export const approvedCoTotalsTask = defineTask({
  id: "construction.approved-co-totals",
  domain: constructionDomain,
  summary:
    "Approved change-order totals per subcontractor as decided in the e-mail threads (latest decision within the author's authority, quoted text ignored), not the stale log.",
  instruction:
    'Our change-order log is kept by hand and is not reliable. From the change-order e-mail threads themselves, work out how much in change orders has actually been approved for each subcontractor, applying the approval rules in our general conditions. Reply with only a JSON object mapping every subcontractor that has a change order in the log to its approved total in USD (0 if none), e.g. {"SUB-004": 18250.5}.',
  tools: ["list_change_orders", "list_email_threads", "get_email_thread"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, approvedTotals(initial), 0.011)],
  oracle: totalsCells([]),
  nearMisses: flagNearMisses(totalsCells, [
    [
      "with-quotes",
      "Reads decisions in quoted replies as well, so an approval later revised wins.",
      "with-quotes",
    ],
    ["no-authority", "Counts approvals by people above their approval limit.", "no-authority"],
    [
      "first-request",
      "Takes 'approved as submitted' as the first request's total, not the revised one.",
      "first-request",
    ],
    ["trusts-log", "Adds up the log's approved amounts instead of reading the threads.", "ledger"],
  ]),
});

const recordCells = taskCells(`limits = authority()
recorded = 0
for co in fetch("list_change_orders", "change_orders", status="pending"):
    status, amount, who = outcome(co["thread_id"], limits)
    if status == "pending":
        continue
    if status == "approved":
        call("record_change_order", co_id=co["co_id"], status="approved", approved_amount=amount, decided_by=who)
    elif "approvals-only" in NEAR:
        continue
    else:
        call("record_change_order", co_id=co["co_id"], status="rejected", decided_by=who)
    recorded += 1
print(recorded)`);

export const recordCoDecisionsTask = defineTask({
  id: "construction.record-co-decisions",
  domain: constructionDomain,
  summary:
    "Record in the log the decisions on pending change orders that their threads have made (approved amount, approver), by the general conditions' authority rules.",
  instruction:
    "Bring the change-order log up to date: for every change order still pending in the log whose e-mail thread has a final decision under the approval rules in our general conditions, record that decision (approved with the approved amount, or rejected) with the e-mail address of the person who made it. Leave the rest alone. Reply with only the number of change orders you recorded.",
  tools: ["list_change_orders", "list_email_threads", "get_email_thread", "record_change_order"],
  verify: ({ initial, final, answer }) => {
    const decided = decidedPending(initial);
    if (decided.length === 0) throw new Error("generation produced no pending change order with a decision");
    const changes = decided.map(
      (co) =>
        [
          co.co_id,
          { status: co.outcome.status, approved_amount: co.outcome.amount, decided_by: co.outcome.decidedBy },
        ] as const,
    );
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "change_orders", key: "co_id", changed: new Map(changes), ignoreColumns: ["decided_on"] },
      ]),
      checkAnswerCount(answer, decided.length),
    ];
  },
  oracle: recordCells([]),
  nearMisses: flagNearMisses(recordCells, [
    ["no-authority", "Records an approval by a project manager above his limit.", "no-authority"],
    ["first-request", "Records 'approved as submitted' at the first request's total.", "first-request"],
    ["approvals-only", "Records the approvals and skips the rejections.", "approvals-only"],
    ["last-message", "Looks for the decision in the thread's last message only.", "last-message"],
  ]),
});

const mismatchCells = taskCells(`limits = authority()
wrong = []
for co in fetch("list_change_orders", "change_orders"):
    status, amount, who = outcome(co["thread_id"], limits)
    if status != co["status"]:
        wrong.append(co["co_id"])
    elif status == "approved" and abs(amount - co["approved_amount"]) >= 0.005 and "status-only" not in NEAR:
        wrong.append(co["co_id"])
print(json.dumps({"change_orders": wrong}))`);

export const coLogMismatchesTask = defineTask({
  id: "construction.co-log-mismatches",
  domain: constructionDomain,
  summary:
    "Change orders whose log entry (status or approved amount) disagrees with the latest valid decision in the thread.",
  instruction:
    'Audit the change-order log against the e-mail threads. A change order\'s log entry is wrong when its status, or for approved ones the approved amount, differs from what the thread decided under the approval rules in our general conditions (no valid decision yet means it should be pending). Reply with only JSON: {"change_orders": [ids of the wrong entries]}.',
  tools: ["list_change_orders", "list_email_threads", "get_email_thread"],
  verify: ({ initial, answer }) => [
    checkAnswerIdLists(answer, new Map([["change_orders", ledgerMismatches(initial)]])),
  ],
  oracle: mismatchCells([]),
  nearMisses: flagNearMisses(mismatchCells, [
    ["status-only", "Compares statuses only and misses revised approved amounts.", "status-only"],
    ["first-decision", "Takes the first decision in a thread, not the latest.", "first-decision"],
    ["no-authority", "Accepts approvals by people above their approval limit.", "no-authority"],
    ["last-message", "Looks for the decision in the thread's last message only.", "last-message"],
  ]),
});
