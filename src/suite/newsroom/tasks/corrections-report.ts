import { check, defineTask, type GenerateContext, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { DESKS, PATHS, correctionId } from "../rules.js";
import { compareNumbers } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";

const QUARTER = { from: "2025-04-01", to: "2025-06-30" };

export function expectedReport(state: StateView): Map<string, number> {
  const policy = state.readFile(PATHS.correctionsPolicy) ?? "";
  const excluded = /(\w+) corrections are left out of the report/.exec(policy)?.[1]?.toLowerCase();
  if (!excluded) throw new Error("the corrections policy lost its report rule");
  const report = new Map<string, number>(DESKS.map((desk) => [desk, 0]));
  const rows = state.db
    .prepare(
      "SELECT s.desk, COUNT(*) AS n FROM corrections c JOIN stories s ON s.story_id = c.story_id WHERE c.logged_on BETWEEN ? AND ? AND c.kind != ? GROUP BY s.desk",
    )
    .all(QUARTER.from, QUARTER.to, excluded) as Array<{ desk: string; n: number }>;
  for (const row of rows) report.set(row.desk, row.n);
  return report;
}

/** Plants a correction logged the day before the quarter, and one logged today (the quarter's last day). */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const stories = db
    .prepare("SELECT story_id FROM stories WHERE status = 'published' ORDER BY story_id LIMIT 2")
    .all() as Array<{ story_id: string }>;
  const count = (db.prepare("SELECT COUNT(*) AS n FROM corrections").get() as { n: number }).n;
  const insert = db.prepare("INSERT INTO corrections VALUES (?, ?, ?, ?, ?)");
  insert.run(
    correctionId.format(count + 1),
    stories[0]!.story_id,
    "factual",
    "An earlier version of this article gave the wrong date for the hearing.",
    "2025-03-31",
  );
  insert.run(
    correctionId.format(count + 2),
    stories[1]!.story_id,
    "caption",
    "An earlier version of this article's caption named the wrong street.",
    QUARTER.to,
  );
}

interface Variant {
  includeExcluded?: boolean;
  allDates?: boolean;
}

function cells(variant: Variant): string[] {
  const filters = variant.allDates ? "" : `, logged_from="${QUARTER.from}", logged_to="${QUARTER.to}"`;
  return [
    NEWSROOM_PY,
    `policy = read_text("${PATHS.correctionsPolicy}")
excluded = re.search(r"(\\w+) corrections are left out of the report", policy).group(1).lower()
corrections = fetch_all("list_corrections", "corrections"${filters})
print(excluded, len(corrections))`,
    `report = {desk: 0 for desk in ${JSON.stringify(DESKS)}}
desks = {}
for c in corrections:
    if ${variant.includeExcluded ? "False" : 'c["kind"] == excluded'}:
        continue
    if c["story_id"] not in desks:
        desks[c["story_id"]] = tools.get_story(story_id=c["story_id"])["story"]["desk"]
    report[desks[c["story_id"]]] += 1
print(json.dumps(report))`,
  ];
}

export const correctionsReportTask = defineTask({
  id: "newsroom.corrections-report",
  domain: newsroomDomain,
  summary:
    "Count the second quarter's logged corrections per desk as the corrections policy's quarterly report defines it.",
  instruction: `Prepare the quarterly corrections report for April-June 2025 (corrections logged ${QUARTER.from} to ${QUARTER.to} inclusive), following the corrections policy. Reply with only a JSON object mapping every desk (${DESKS.join(", ")}) to its count, 0 for a desk with none.`,
  tools: ["list_corrections", "get_story", "list_stories"],
  prepare,
  verify: ({ initial, answer }) => {
    const expected = expectedReport(initial);
    const problems = compareNumbers(answer, expected);
    if ([...expected.values()].every((n) => n === 0))
      throw new Error("generation produced no correction in the quarter");
    return [check("answer", problems.length === 0, problems.slice(0, 4).join("; ") || "ok")];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "counts-spelling",
      description: "Counts the spelling corrections the report leaves out.",
      cells: cells({ includeExcluded: true }),
    },
    {
      id: "whole-log",
      description: "Counts the whole log instead of the quarter.",
      cells: cells({ allDates: true }),
    },
  ],
});
