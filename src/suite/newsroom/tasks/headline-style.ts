import { check, defineTask, type GenerateContext, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { PATHS, STYLE } from "../rules.js";
import { answerList, sameList } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";

const QUARTER_START = "2025-04-01";

function headlineRules(state: StateView): { maxChars: number; banned: string[] } {
  const guide = state.readFile(PATHS.styleGuide) ?? "";
  const maxChars = Number(/A headline is at most (\d+) characters/.exec(guide)?.[1]);
  const line = /Never use these words in a headline: ([^.]+)\./.exec(guide)?.[1] ?? "";
  const banned = [...line.matchAll(/"([^"]+)"/g)].map((match) => match[1]!.toLowerCase());
  if (!maxChars || banned.length === 0) throw new Error("the style guide lost its headline rules");
  return { maxChars, banned };
}

export function expectedHeadlineBreaches(state: StateView): string[] {
  const { maxChars, banned } = headlineRules(state);
  const rows = state.db
    .prepare(
      "SELECT slug, headline FROM stories WHERE status = 'published' AND published_at >= ? ORDER BY slug",
    )
    .all(QUARTER_START) as Array<{ slug: string; headline: string }>;
  return rows
    .filter((row) => {
      const words = row.headline.toLowerCase().split(/[^a-z']+/);
      return row.headline.length > maxChars || banned.some((word) => words.includes(word));
    })
    .map((row) => row.slug);
}

/** Plants a clean headline of exactly the limit, and a capitalised banned word at the start of another. */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const rows = (
    db
      .prepare(
        "SELECT story_id, headline FROM stories WHERE status = 'published' AND published_at >= ? AND length(headline) < 40 ORDER BY story_id",
      )
      .all(QUARTER_START) as Array<{ story_id: string; headline: string }>
  ).filter((row) => !STYLE.bannedWords.some((word) => row.headline.toLowerCase().includes(word)));
  if (rows.length < 2) throw new Error("not enough short Q2 headlines to plant the style cases");
  const exact = `${rows[0]!.headline} after a long night of talks at the county hall annex building`.slice(
    0,
    71,
  );
  const update = db.prepare("UPDATE stories SET headline = ? WHERE story_id = ?");
  update.run(`${exact.trimEnd().padEnd(71, "s")}s`, rows[0]!.story_id);
  update.run(
    `Shock as ${rows[1]!.headline.charAt(0).toLowerCase()}${rows[1]!.headline.slice(1)}`,
    rows[1]!.story_id,
  );
}

interface Variant {
  substring?: boolean;
  inclusiveLength?: boolean;
  caseSensitive?: boolean;
}

function cells(variant: Variant): string[] {
  const words = variant.caseSensitive ? `re.split(r"[^A-Za-z']+", h)` : `re.split(r"[^a-z']+", h.lower())`;
  return [
    NEWSROOM_PY,
    `guide = read_text("${PATHS.styleGuide}")
limit = int(re.search(r"A headline is at most (\\d+) characters", guide).group(1))
banned = [w.lower() for w in re.findall(r'"([^"]+)"', re.search(r"Never use these words in a headline: ([^.]+)\\.", guide).group(1))]
stories = fetch_all("list_stories", "stories", status="published", published_from="${QUARTER_START}")
print(limit, banned, len(stories))`,
    `bad = []
for story in stories:
    h = tools.get_story(story_id=story["story_id"])["story"]["headline"]
    words = ${words}
    too_long = len(h) ${variant.inclusiveLength ? ">=" : ">"} limit
    uses_banned = any(${variant.substring ? "w in h.lower()" : "w in words"} for w in banned)
    if too_long or uses_banned:
        bad.append(story["slug"])
print(json.dumps(sorted(bad)))`,
  ];
}

export const headlineStyleTask = defineTask({
  id: "newsroom.headline-style",
  domain: newsroomDomain,
  summary:
    "Audit second-quarter headlines against the style guide (length limit, banned whole words in any case).",
  instruction:
    "Audit the headlines of every story published since 1 April 2025 against the headline rules in our style guide. Reply with only a JSON list of the slugs of the stories whose headline breaks a rule, sorted alphabetically.",
  tools: ["list_stories", "get_story"],
  prepare,
  verify: ({ initial, answer }) => {
    const expected = expectedHeadlineBreaches(initial);
    if (expected.length === 0) throw new Error("generation produced no headline breaking the style guide");
    const result = sameList(answerList(answer), expected);
    return [check("answer", result.passed, result.message)];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "substring-match",
      description: 'Matches banned words inside longer words ("shockwaves").',
      cells: cells({ substring: true }),
    },
    {
      id: "length-inclusive",
      description: "Flags a headline of exactly the maximum length.",
      cells: cells({ inclusiveLength: true }),
    },
    {
      id: "case-sensitive",
      description: "Misses a banned word written with a capital letter.",
      cells: cells({ caseSensitive: true }),
    },
  ],
});
