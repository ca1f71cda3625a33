import { defineNewsroomTask } from "./python.js";
import { checkAnswerCount, checkStateDiff, type StateView } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { legalDecisions, storyBySlug } from "./mail.js";

/** Story id -> new status under the legal-reads procedure: held stories onto legal_hold, cleared ones off it. */
export function expectedLegalMoves(state: StateView): Map<string, { status: string }> {
  const moves = new Map<string, { status: string }>();
  for (const [slug, decision] of legalDecisions(state)) {
    const story = storyBySlug(state, slug);
    if (decision === "hold" && story.status !== "legal_hold")
      moves.set(story.story_id, { status: "legal_hold" });
    if (decision === "clear" && story.status === "legal_hold") moves.set(story.story_id, { status: "ready" });
  }
  if (moves.size === 0) throw new Error("generation produced no status to change");
  return moves;
}

function cells({ fullText = false, firstDecision = false, holdsOnly = false }): string[] {
  return [
    `print(read_text("${PATHS.legalReads}"))
roles = staff_roles()
threads = fetch_all("list_threads", "threads", mailbox="legal")
print(len(threads), "legal threads")`,
    `moved = 0
for t in threads:
    decision, slug = None, None
    for m in thread_messages(t["thread_id"]):
        if roles.get(m["email"]) != "legal":
            continue
        found = re.search(r"\\b(HOLD|CLEARED): ([a-z0-9-]+)", ${fullText ? `body_of(m["text"])` : `own_text(m["text"])`})
        if found and not (${firstDecision ? "decision" : "False"}):
            decision, slug = found.group(1), found.group(2)
    if decision is None:
        continue
    story = fetch_all("list_stories", "stories", slug=slug)[0]
    if decision == "HOLD" and story["status"] != "legal_hold":
        tools.update_story_status(story_id=story["story_id"], status="legal_hold")
        moved += 1
    elif decision == "CLEARED" and story["status"] == "legal_hold" and ${holdsOnly ? "False" : "True"}:
        tools.update_story_status(story_id=story["story_id"], status="ready")
        moved += 1
print(moved)`,
  ];
}

export const legalHoldsTask = defineNewsroomTask({
  id: "newsroom.legal-holds",
  summary:
    "Bring CMS statuses in line with the legal desk's latest word in each legal-read thread (holds, clearances, forwarded counsel notes).",
  instruction:
    "The CMS has drifted from what the legal desk decided. For every story with a legal-read thread in the legal mailbox, set the status our legal-reads procedure requires for the legal desk's decision in that thread. Leave every other story and status alone. Reply with only the number of stories whose status you changed.",
  tools: ["list_threads", "get_thread", "get_message", "list_staff", "list_stories", "update_story_status"],
  verify: ({ initial, final, answer }) => {
    const changed = expectedLegalMoves(initial);
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "stories", key: "story_id", changed, ignoreColumns: ["updated_on"] },
      ]),
      checkAnswerCount(answer, changed.size),
    ];
  },
  cells,
  nearMisses: {
    "forwarded-counsel": [
      { fullText: true },
      "Reads decisions from the whole message, so outside counsel's forwarded advice overrides the legal desk.",
    ],
    "first-decision": [
      { firstDecision: true },
      "Keeps the legal desk's first decision and ignores the re-read after the story was changed.",
    ],
    "holds-only": [{ holdsOnly: true }, "Applies holds but leaves cleared stories on legal_hold."],
  },
});
