import { allRows, defineTask, type GenerateContext, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { addMinutes } from "../generate.js";
import { PATHS } from "../rules.js";
import { checkList } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";

export function expectedBreaches(state: StateView): string[] {
  const rows = allRows<{ slug: string }>(
    state.db,
    `SELECT s.slug FROM stories s WHERE s.embargo_until IS NOT NULL AND EXISTS (
       SELECT 1 FROM publish_events e WHERE e.story_id = s.story_id AND e.channel != 'partner_feed' AND e.published_at < s.embargo_until)`,
  );
  if (rows.length === 0) throw new Error("generation produced no embargo breach");
  return rows.map((row) => row.slug);
}

/** Plants the three cases the policy decides: web exactly on time, partner feed early, social early. */
function prepare({ db }: GenerateContext): void {
  const stories = allRows<{ story_id: string; published_at: string }>(
    db,
    `SELECT story_id, published_at FROM stories s WHERE status = 'published' AND embargo_until IS NULL
       AND NOT EXISTS (SELECT 1 FROM publish_events e WHERE e.story_id = s.story_id AND e.published_at < s.published_at)
     ORDER BY story_id LIMIT 3`,
  );
  if (stories.length < 3) throw new Error("not enough published stories to plant embargo cases");
  const setEmbargo = db.prepare("UPDATE stories SET embargo_until = published_at WHERE story_id = ?");
  const addEvent = db.prepare("INSERT INTO publish_events VALUES (NULL, ?, ?, ?)"); // event_id assigned
  for (const story of stories) setEmbargo.run(story.story_id);
  addEvent.run(stories[1]!.story_id, "partner_feed", addMinutes(stories[1]!.published_at, -180));
  addEvent.run(stories[2]!.story_id, "social", addMinutes(stories[2]!.published_at, -12));
}

function cells({ webOnly = false, countPartnerFeed = false, inclusive = false }): string[] {
  const events = `[e["published_at"] for e in fetch_all("list_publish_events", "events", story_id=story["story_id"])${countPartnerFeed ? "" : ` if e["channel"] != "partner_feed"`}]`;
  return [
    NEWSROOM_PY,
    `print(read_text("${PATHS.embargoPolicy}"))
embargoed = fetch_all("list_stories", "stories", embargoed=True)
print(len(embargoed), "embargoed stories")`,
    `breaches = []
for story in embargoed:
    times = ${webOnly ? `[story["published_at"]] if story["published_at"] else []` : events}
    if times and min(times) ${inclusive ? "<=" : "<"} story["embargo_until"]:
        breaches.append(story["slug"])
print(json.dumps(sorted(breaches)))`,
  ];
}

export const embargoBreachesTask = defineTask({
  id: "newsroom.embargo-breaches",
  domain: newsroomDomain,
  summary:
    "Find embargoed stories that appeared on any channel before the embargo (partner feed excluded, exact time allowed; flaky publishing log).",
  instruction:
    "A press office says we keep breaking embargoes. Check every story that has an embargo time against our embargo policy and the publishing log. Reply with only a JSON list of the slugs of the stories that breached their embargo, sorted alphabetically.",
  tools: ["list_stories", "get_story", "list_publish_events"],
  prepare,
  verify: ({ initial, answer }) => [checkList("answer", answer, expectedBreaches(initial))],
  oracle: cells({}),
  nearMisses: [
    {
      id: "web-only",
      description: "Compares only the first web publication with the embargo, missing early social posts.",
      cells: cells({ webOnly: true }),
    },
    {
      id: "partner-feed",
      description: "Counts partner-feed delivery under embargo as publication.",
      cells: cells({ countPartnerFeed: true }),
    },
    {
      id: "exact-time",
      description: "Treats publishing at exactly the embargo time as a breach.",
      cells: cells({ inclusive: true }),
    },
  ],
});
