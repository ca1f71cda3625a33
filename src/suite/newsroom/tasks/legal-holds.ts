import { check, checkStateDiff, defineTask, parseAnswerNumber, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { legalDecisions, storyBySlug } from "./mail.js";
import { NEWSROOM_PY } from "./python.js";

/** Story id -> new status: held stories onto legal_hold, cleared stories off it (to ready). */
export function expectedLegalMoves(state: StateView): Map<string, { status: string }> {
  const moves = new Map<string, { status: string }>();
  for (const [slug, decision] of legalDecisions(state)) {
    const story = storyBySlug(state, slug);
    if (decision === "hold" && story.status !== "legal_hold")
      moves.set(story.story_id, { status: "legal_hold" });
    if (decision === "clear" && story.status === "legal_hold") moves.set(story.story_id, { status: "ready" });
  }
  return moves;
}

interface Variant {
  fullText?: boolean;
  firstDecision?: boolean;
  holdsOnly?: boolean;
}

function cells(variant: Variant): string[] {
  const read = variant.fullText ? `body_of(m["text"])` : `own_text(m["text"])`;
  return [
    NEWSROOM_PY,
    `roles = staff_roles()
threads = fetch_all("list_threads", "threads", mailbox="legal")
print(len(threads), "legal threads")`,
    `moved = 0
for t in threads:
    decision, slug = None, None
    for m in thread_messages(t["thread_id"]):
        if roles.get(m["email"]) != "legal":
            continue
        found = re.search(r"\\b(HOLD|CLEARED): ([a-z0-9-]+)", ${read})
        if found and not (${variant.firstDecision ? "decision" : "False"}):
            decision, slug = found.group(1), found.group(2)
    if decision is None:
        continue
    story = fetch_all("list_stories", "stories", slug=slug)[0]
    if decision == "HOLD" and story["status"] != "legal_hold":
        tools.update_story_status(story_id=story["story_id"], status="legal_hold")
        moved += 1
    elif decision == "CLEARED" and story["status"] == "legal_hold" and ${variant.holdsOnly ? "False" : "True"}:
        tools.update_story_status(story_id=story["story_id"], status="ready")
        moved += 1
print(moved)`,
  ];
}

export const legalHoldsTask = defineTask({
  id: "newsroom.legal-holds",
  domain: newsroomDomain,
  summary:
    "Bring CMS statuses in line with the legal desk's latest word in each legal-read thread (holds, clearances, forwarded counsel notes).",
  instruction:
    "The CMS has drifted from what the legal desk decided. For every story with a legal-read thread in the legal mailbox, look at the legal desk's (legal counsel staff's) latest decision in the thread: if they are holding the story, its status must be legal_hold; if they cleared it and it is still on legal_hold, move it to ready. Leave every other story and status alone. Reply with only the number of stories whose status you changed.",
  tools: [
    "list_threads",
    "get_thread",
    "get_message",
    "list_staff",
    "list_stories",
    "get_story",
    "update_story_status",
  ],
  verify: ({ initial, final, answer }) => {
    const expected = expectedLegalMoves(initial);
    if (expected.size === 0) throw new Error("generation produced no status to change");
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "stories", key: "story_id", changed: expected, ignoreColumns: ["updated_on"] },
      ]),
      check(
        "answer",
        parseAnswerNumber(answer) === expected.size,
        `expected ${expected.size}, got '${answer.trim()}'`,
      ),
    ];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "forwarded-counsel",
      description:
        "Reads decisions from the whole message, so outside counsel's forwarded advice overrides the legal desk.",
      cells: cells({ fullText: true }),
    },
    {
      id: "first-decision",
      description:
        "Keeps the legal desk's first decision and ignores the re-read after the story was changed.",
      cells: cells({ firstDecision: true }),
    },
    {
      id: "holds-only",
      description: "Applies holds but leaves cleared stories on legal_hold.",
      cells: cells({ holdsOnly: true }),
    },
  ],
});
