import {
  allRows,
  checkAnswerCount,
  checkStateDiff,
  defineTask,
  REFERENCE_DATE,
  type StateView,
} from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { correctionDecisions } from "./mail.js";
import { NEWSROOM_PY } from "./python.js";

/** The corrections (story, kind, wording) agreed in a thread whose story has no log entry. */
export function expectedUnlogged(
  state: StateView,
): Array<{ story_id: string; kind: string; wording: string }> {
  const rows = allRows<{ story_id: string }>(state.db, "SELECT story_id FROM corrections");
  const logged = new Set(rows.map((row) => row.story_id));
  const expected = correctionDecisions(state)
    .filter((decision) => decision.approved && !logged.has(decision.storyId))
    .map((decision) => ({ story_id: decision.storyId, kind: decision.kind, wording: decision.wording }));
  if (expected.length === 0) throw new Error("generation produced no unlogged correction");
  return expected;
}

function cells({ quotedApproval = false, firstDecision = false, skipLogCheck = false }): string[] {
  const decide = quotedApproval
    ? `    latest = [m for m in msgs if roles.get(m["email"]) == "standards"][-1]
    found = re.search(APPROVE, body_of(latest["text"]))
    decision = (found.group(1), found.group(2)) if found else None`
    : `    decision = None
    for m in msgs:
        own = own_text(m["text"]) if roles.get(m["email"]) == "standards" else ""
        found = re.search(APPROVE, own)
        if found or "The story stands - no correction." in own:
            decision = (found.group(1), found.group(2)) if found else None
            ${firstDecision ? "break" : "pass"}`;
  return [
    NEWSROOM_PY,
    `print(read_text("policies/corrections-policy.md"))
APPROVE = r'please log this as an? (\\w+) correction\\. Wording: "([^"]+)"'
roles = staff_roles()
threads = fetch_all("list_threads", "threads", mailbox="corrections")
logged = {c["story_id"] for c in fetch_all("list_corrections", "corrections")}
print(len(threads), "threads,", len(logged), "stories logged")`,
    `count = 0
for t in threads:
    msgs = thread_messages(t["thread_id"])
    story_id = form_field(attachment_of(msgs[0]["text"]), "Story ID")
${decide}
    if decision is None or ${skipLogCheck ? "False" : "story_id in logged"}:
        continue
    tools.log_correction(story_id=story_id, kind=decision[0], wording=decision[1])
    count += 1
print(count)`,
  ];
}

export const unloggedCorrectionsTask = defineTask({
  id: "newsroom.unlogged-corrections",
  domain: newsroomDomain,
  summary:
    "Find corrections the standards editors agreed in the corrections mailbox but nobody logged, and log them (latest decision, quoted text, reversals).",
  instruction:
    "Some corrections were agreed in the corrections mailbox but never made it into the corrections log. Go through the correction request threads and log every correction that was agreed under our corrections policy and whose story has no entry in the log yet, with the kind and the exact wording the standards editor gave. Change nothing else. Reply with only the number of corrections you logged.",
  tools: ["list_threads", "get_thread", "get_message", "list_staff", "list_corrections", "log_correction"],
  verify: ({ initial, final, answer }) => {
    const expected = expectedUnlogged(initial);
    const added = expected.map((row) => ({ ...row, logged_on: REFERENCE_DATE }));
    return [
      ...checkStateDiff(initial.db, final.db, [{ table: "corrections", key: "correction_id", added }]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "quoted-approval",
      description:
        "Reads the approval anywhere in the latest standards message, quoted older text included, so a reversed approval is logged.",
      cells: cells({ quotedApproval: true }),
    },
    {
      id: "first-decision",
      description: "Takes the first decision in the thread and misses later reversals and late approvals.",
      cells: cells({ firstDecision: true }),
    },
    {
      id: "no-log-check",
      description: "Logs every agreed correction again, including those already in the log.",
      cells: cells({ skipLogCheck: true }),
    },
  ],
});
