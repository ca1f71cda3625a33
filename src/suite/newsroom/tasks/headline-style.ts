import { defineNewsroomTask } from "./python.js";
import { allRows, type GenerateContext, type StateView, requireFile } from "../../../envs/index.js";
import { PATHS, STYLE } from "../rules.js";
import { checkList, documentNumber } from "./expectations.js";

const QUARTER_START = "2025-04-01";

export function expectedHeadlineBreaches(state: StateView): string[] {
  const maxChars = documentNumber(state, PATHS.styleGuide, /A headline is at most (\d+) characters/);
  const guide = requireFile(state, PATHS.styleGuide);
  const line = /Never use these words in a headline: ([^.]+)\./.exec(guide)?.[1] ?? "";
  const banned = [...line.matchAll(/"([^"]+)"/g)].map((match) => match[1]!.toLowerCase());
  if (banned.length === 0) throw new Error("the style guide lost its banned words");
  const sql = "SELECT slug, headline FROM stories WHERE status = 'published' AND published_at >= ?";
  const breaches = allRows<{ slug: string; headline: string }>(state.db, sql, QUARTER_START).filter((row) => {
    const words = row.headline.toLowerCase().split(/[^a-z']+/);
    return row.headline.length > maxChars || banned.some((word) => words.includes(word));
  });
  if (breaches.length === 0) throw new Error("generation produced no headline breaking the style guide");
  return breaches.map((row) => row.slug);
}

/**
 * Plants, on clean short second-quarter headlines: one of exactly the maximum length, one opening with a
 * capitalised banned word, and one with a banned word inside a longer word ("shockwaves").
 */
function prepare({ db }: GenerateContext): void {
  const rows = allRows<{ story_id: string; headline: string }>(
    db,
    "SELECT story_id, headline FROM stories WHERE status = 'published' AND published_at >= ? AND length(headline) < 40 ORDER BY story_id",
    QUARTER_START,
  ).filter((row) => !STYLE.bannedWords.some((word) => row.headline.toLowerCase().includes(word)));
  if (rows.length < 3) throw new Error("not enough short Q2 headlines to plant the style cases");
  const [exact, capital, inside] = rows.map((row) => row.headline);
  const update = db.prepare("UPDATE stories SET headline = ? WHERE story_id = ?");
  const max = STYLE.maxHeadlineChars;
  const long = `${exact} after a long night of talks at the county hall annex building`.slice(0, max - 1);
  update.run(`${long.trimEnd().padEnd(max - 1, "s")}s`, rows[0]!.story_id);
  update.run(`Shock as ${capital!.replace(/^./, (letter) => letter.toLowerCase())}`, rows[1]!.story_id);
  update.run(`${inside} and sends shockwaves`, rows[2]!.story_id);
}

function cells({ substring = false, inclusiveLength = false, caseSensitive = false }): string[] {
  return [
    `guide = read_text("${PATHS.styleGuide}")
limit = int(re.search(r"A headline is at most (\\d+) characters", guide).group(1))
banned = [w.lower() for w in re.findall(r'"([^"]+)"', re.search(r"Never use these words in a headline: ([^.]+)\\.", guide).group(1))]
stories = fetch_all("list_stories", "stories", status="published", published_from="${QUARTER_START}")
print(limit, banned, len(stories))`,
    `bad = []
for story in stories:
    h = tools.get_story(story_id=story["story_id"])["story"]["headline"]
    words = ${caseSensitive ? `re.split(r"[^A-Za-z']+", h)` : `re.split(r"[^a-z']+", h.lower())`}
    too_long = len(h) ${inclusiveLength ? ">=" : ">"} limit
    if too_long or any(${substring ? "w in h.lower()" : "w in words"} for w in banned):
        bad.append(story["slug"])
print(json.dumps(sorted(bad)))`,
  ];
}

export const headlineStyleTask = defineNewsroomTask({
  id: "newsroom.headline-style",
  summary:
    "Audit second-quarter headlines against the style guide (length limit, banned whole words in any case).",
  instruction:
    "Audit the headlines of every story published since 1 April 2025 against the headline rules in our style guide. Reply with only a JSON list of the slugs of the stories whose headline breaks a rule, sorted alphabetically.",
  tools: ["list_stories", "get_story"],
  prepare,
  verify: ({ initial, answer }) => [checkList("answer", answer, expectedHeadlineBreaches(initial))],
  cells,
  nearMisses: {
    "substring-match": [{ substring: true }, 'Matches banned words inside longer words ("shockwaves").'],
    "length-inclusive": [{ inclusiveLength: true }, "Flags a headline of exactly the maximum length."],
    "case-sensitive": [{ caseSensitive: true }, "Misses a banned word written with a capital letter."],
  },
});
