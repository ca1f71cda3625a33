import {
  addDays,
  allRows,
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
import { documentNumber } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";

export function expectedSpikes(state: StateView): string[] {
  const days = documentNumber(state, PATHS.styleGuide, /updated for more than (\d+) days/);
  const rows = allRows<{ story_id: string; updated_on: string }>(
    state.db,
    `SELECT story_id, updated_on FROM stories s WHERE status = 'draft'
       AND NOT EXISTS (SELECT 1 FROM story_budget b WHERE b.story_id = s.story_id AND b.budget_date >= ?) ORDER BY story_id`,
    REFERENCE_DATE,
  );
  const stale = rows
    .filter((row) => daysBetween(row.updated_on, REFERENCE_DATE) > days)
    .map((row) => row.story_id);
  if (stale.length === 0) throw new Error("generation produced no stale draft");
  return stale;
}

/**
 * Turns the first ten unpublished stories (those without a legal-read thread first) into drafts with planted ages and slots:
 * untouched for exactly the limit and for a day more, stale with only a past slot (two), stale with a slot
 * today and one later this week, and four plain stale drafts (a backlog to work through): seven to spike.
 */
function prepare({ db, referenceDate: today }: GenerateContext): void {
  const stories = allRows<{ story_id: string }>(
    db,
    `SELECT story_id FROM stories WHERE status NOT IN ('published', 'spiked')
      ORDER BY slug IN (SELECT substr(subject, 13) FROM mail_threads WHERE mailbox = 'legal'), story_id LIMIT 10`,
  );
  if (stories.length < 10) throw new Error("not enough unpublished stories to plant the stale-draft cases");
  // Days since the last update, and the budget slot's day relative to today (null: no slot).
  const ages = [21, 22, 35, 40, 40, 28, 30, 45, 60, 25];
  const slots = [null, null, -3, 0, 2, -1, null, null, null, null];
  ages.forEach((age, index) => {
    const id = stories[index]!.story_id;
    db.prepare("DELETE FROM story_budget WHERE story_id = ?").run(id);
    db.prepare("UPDATE stories SET status = 'draft', updated_on = ? WHERE story_id = ?").run(
      addDays(today, -age),
      id,
    );
    const slot = slots[index];
    if (slot !== null && slot !== undefined)
      db.prepare("INSERT INTO story_budget VALUES (?, ?, 'inside', 800)").run(addDays(today, slot), id);
  });
}

function cells({ inclusive = false, slotsFrom = "TODAY", ignoreBudget = false }): string[] {
  return [
    NEWSROOM_PY,
    `guide = read_text("${PATHS.styleGuide}")
limit = int(re.search(r"for more than (\\d+) days", guide).group(1))
drafts = fetch_all("list_stories", "stories", status="draft")
budgeted = {s["story_id"] for s in fetch_all("list_story_budget", "slots"${slotsFrom ? `, date_from=${slotsFrom}` : ""})}
print(limit, len(drafts), len(budgeted))`,
    `spiked = 0
for story in drafts:
    age = (date.fromisoformat(TODAY) - date.fromisoformat(story["updated_on"])).days
    if age ${inclusive ? ">=" : ">"} limit and ${ignoreBudget ? "True" : 'story["story_id"] not in budgeted'}:
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
    const changed = new Map(expected.map((id) => [id, { status: "spiked" }]));
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "stories", key: "story_id", changed, ignoreColumns: ["updated_on"] },
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
      cells: cells({ slotsFrom: "" }),
    },
    {
      id: "slot-after-today",
      description: "Counts only slots after today, so a draft slotted for today is spiked.",
      cells: cells({ slotsFrom: "(date.fromisoformat(TODAY) + timedelta(days=1)).isoformat()" }),
    },
    {
      id: "ignores-budget",
      description: "Spikes stale drafts that have a slot on the coming budget.",
      cells: cells({ ignoreBudget: true }),
    },
  ],
});
