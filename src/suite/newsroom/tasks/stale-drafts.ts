import {
  addDays,
  check,
  checkStateDiff,
  daysBetween,
  defineTask,
  parseAnswerNumber,
  REFERENCE_DATE,
  type GenerateContext,
  type StateView,
} from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { PATHS } from "../rules.js";
import { NEWSROOM_PY } from "./python.js";

export function expectedSpikes(state: StateView): string[] {
  const days = Number(/updated for more than (\d+) days/.exec(state.readFile(PATHS.styleGuide) ?? "")?.[1]);
  if (!days) throw new Error("the style guide lost its stale-draft rule");
  const rows = state.db
    .prepare(
      `SELECT story_id, updated_on FROM stories s WHERE status = 'draft'
         AND NOT EXISTS (SELECT 1 FROM story_budget b WHERE b.story_id = s.story_id AND b.budget_date >= ?) ORDER BY story_id`,
    )
    .all(REFERENCE_DATE) as Array<{ story_id: string; updated_on: string }>;
  return rows.filter((row) => daysBetween(row.updated_on, REFERENCE_DATE) > days).map((row) => row.story_id);
}

/** Plants a draft exactly at the limit, a stale draft whose only budget slot is past, one with a coming slot. */
function prepare(context: GenerateContext): void {
  const { db, referenceDate: today } = context;
  const drafts = db
    .prepare(
      "SELECT story_id FROM stories s WHERE status = 'draft' AND NOT EXISTS (SELECT 1 FROM story_budget b WHERE b.story_id = s.story_id) ORDER BY story_id LIMIT 3",
    )
    .all() as Array<{ story_id: string }>;
  if (drafts.length < 3) throw new Error("not enough drafts to plant the stale-draft cases");
  db.prepare("UPDATE stories SET updated_on = ? WHERE story_id = ?").run(
    addDays(today, -21),
    drafts[0]!.story_id,
  );
  db.prepare("UPDATE stories SET updated_on = ? WHERE story_id = ?").run(
    addDays(today, -35),
    drafts[1]!.story_id,
  );
  db.prepare("INSERT INTO story_budget VALUES (?, ?, 'inside', 600)").run(
    addDays(today, -3),
    drafts[1]!.story_id,
  );
  db.prepare("UPDATE stories SET updated_on = ? WHERE story_id = ?").run(
    addDays(today, -40),
    drafts[2]!.story_id,
  );
  db.prepare("INSERT INTO story_budget VALUES (?, ?, 'weekend', 900)").run(
    addDays(today, 2),
    drafts[2]!.story_id,
  );
}

interface Variant {
  inclusive?: boolean;
  anyBudgetSlot?: boolean;
  ignoreBudget?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    NEWSROOM_PY,
    `guide = read_text("${PATHS.styleGuide}")
limit = int(re.search(r"for more than (\\d+) days", guide).group(1))
drafts = fetch_all("list_stories", "stories", status="draft")
budgeted = {s["story_id"] for s in fetch_all("list_story_budget", "slots"${variant.anyBudgetSlot ? "" : ", date_from=TODAY"})}
print(limit, len(drafts), len(budgeted))`,
    `spiked = 0
for story in drafts:
    age = (date.fromisoformat(TODAY) - date.fromisoformat(story["updated_on"])).days
    if age ${variant.inclusive ? ">=" : ">"} limit and ${variant.ignoreBudget ? "True" : 'story["story_id"] not in budgeted'}:
        tools.update_story_status(story_id=story["story_id"], status="spiked")
        spiked += 1
print(spiked)`,
  ];
}

export const staleDraftsTask = defineTask({
  id: "newsroom.stale-drafts",
  domain: newsroomDomain,
  summary: "Spike stale drafts per the style guide (age boundary, budget slots today or later only).",
  instruction:
    "Tidy the CMS: apply the style guide's rule on stale drafts and spike every draft it covers. Change nothing else. Reply with only the number of stories you spiked.",
  tools: ["list_stories", "get_story", "list_story_budget", "update_story_status"],
  prepare,
  verify: ({ initial, final, answer }) => {
    const expected = expectedSpikes(initial);
    if (expected.length === 0) throw new Error("generation produced no stale draft");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "stories",
          key: "story_id",
          changed: new Map(expected.map((id) => [id, { status: "spiked" }])),
          ignoreColumns: ["updated_on"],
        },
      ]),
      check(
        "answer",
        parseAnswerNumber(answer) === expected.length,
        `expected ${expected.length}, got '${answer.trim()}'`,
      ),
    ];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "boundary-inclusive",
      description: "Spikes a draft untouched for exactly the limit.",
      cells: cells({ inclusive: true }),
    },
    {
      id: "past-budget-slot",
      description: "Lets a budget slot in the past save a stale draft.",
      cells: cells({ anyBudgetSlot: true }),
    },
    {
      id: "ignores-budget",
      description: "Spikes stale drafts that have a slot on the coming budget.",
      cells: cells({ ignoreBudget: true }),
    },
  ],
});
