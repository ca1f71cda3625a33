import { check, defineTask, type GenerateContext, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { PATHS } from "../rules.js";
import { answerList, sameList } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";

const FROM = "2025-06-23";

export function expectedTrims(state: StateView): string[] {
  const pct = Number(
    /at most (\d+)% over the planned words/.exec(state.readFile(PATHS.styleGuide) ?? "")?.[1],
  );
  if (!pct) throw new Error("the style guide lost its budget rule");
  const rows = state.db
    .prepare(
      `SELECT DISTINCT s.slug FROM story_budget b JOIN stories s ON s.story_id = b.story_id
        WHERE b.budget_date >= ? AND s.word_count * 100 > b.planned_words * (100 + ?) ORDER BY s.slug`,
    )
    .all(FROM, pct) as Array<{ slug: string }>;
  return rows.map((row) => row.slug);
}

/** Plants copy exactly at the tolerance, and long copy whose only slot is before the week asked about. */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const slots = db
    .prepare(
      `SELECT b.story_id, b.planned_words FROM story_budget b
        WHERE b.budget_date >= ? AND (SELECT COUNT(*) FROM story_budget o WHERE o.story_id = b.story_id) = 1 ORDER BY b.budget_date, b.story_id LIMIT 1`,
    )
    .all(FROM) as Array<{ story_id: string; planned_words: number }>;
  const past = db
    .prepare(
      `SELECT b.story_id, b.planned_words FROM story_budget b
        WHERE b.budget_date < ? AND (SELECT COUNT(*) FROM story_budget o WHERE o.story_id = b.story_id) = 1 ORDER BY b.story_id LIMIT 1`,
    )
    .all(FROM) as Array<{ story_id: string; planned_words: number }>;
  if (!slots[0] || !past[0]) throw new Error("no budget slots to plant the trim cases");
  const setWords = db.prepare("UPDATE stories SET word_count = ? WHERE story_id = ?");
  setWords.run((slots[0].planned_words * 11) / 10, slots[0].story_id);
  setWords.run(slots[0].planned_words * 2, past[0].story_id);
}

interface Variant {
  inclusive?: boolean;
  allSlots?: boolean;
  noTolerance?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    NEWSROOM_PY,
    `guide = read_text("${PATHS.styleGuide}")
pct = int(re.search(r"at most (\\d+)% over the planned words", guide).group(1))
slots = fetch_all("list_story_budget", "slots"${variant.allSlots ? "" : `, date_from="${FROM}"`})
print(pct, len(slots))`,
    `long = set()
words = {}
for slot in slots:
    if slot["story_id"] not in words:
        story = tools.get_story(story_id=slot["story_id"])["story"]
        words[slot["story_id"]] = (story["slug"], story["word_count"])
    slug, count = words[slot["story_id"]]
    limit = slot["planned_words"] * ${variant.noTolerance ? "1" : "(100 + pct) / 100"}
    if count ${variant.inclusive ? ">=" : ">"} limit:
        long.add(slug)
print(json.dumps(sorted(long)))`,
  ];
}

export const budgetTrimsTask = defineTask({
  id: "newsroom.budget-trims",
  domain: newsroomDomain,
  summary:
    "Find stories on this and last week's story budget whose copy is longer than the style guide allows for their slot.",
  instruction: `Which stories on the story budget from ${FROM} onward are too long for their budget slot under the style guide and need a trim? Reply with only a JSON list of their slugs, sorted alphabetically.`,
  tools: ["list_story_budget", "get_story", "list_stories"],
  prepare,
  verify: ({ initial, answer }) => {
    const expected = expectedTrims(initial);
    if (expected.length === 0) throw new Error("generation produced no story over its budget");
    const result = sameList(answerList(answer), expected);
    return [check("answer", result.passed, result.message)];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "boundary-inclusive",
      description: "Flags copy exactly at the tolerance.",
      cells: cells({ inclusive: true }),
    },
    {
      id: "all-slots",
      description: "Checks every budget slot, including those before the week asked about.",
      cells: cells({ allSlots: true }),
    },
    {
      id: "no-tolerance",
      description: "Flags copy over the planned words without the style guide's tolerance.",
      cells: cells({ noTolerance: true }),
    },
  ],
});
