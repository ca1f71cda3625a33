import { check, defineTask, type GenerateContext, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { answerList, sameList } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";
import { addMinutes } from "../generate.js";

export function expectedBreaches(state: StateView): string[] {
  const rows = state.db
    .prepare(
      `SELECT s.slug FROM stories s WHERE s.embargo_until IS NOT NULL AND EXISTS (
         SELECT 1 FROM publish_events e WHERE e.story_id = s.story_id AND e.channel != 'partner_feed' AND e.published_at < s.embargo_until)
       ORDER BY s.slug`,
    )
    .all() as Array<{ slug: string }>;
  return rows.map((row) => row.slug);
}

/** Plants the three cases the policy decides: exactly on time, partner feed early, social early. */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const stories = db
    .prepare(
      `SELECT story_id, published_at FROM stories WHERE status = 'published' AND embargo_until IS NULL
         AND NOT EXISTS (SELECT 1 FROM publish_events e WHERE e.story_id = stories.story_id AND e.published_at < stories.published_at)
       ORDER BY story_id LIMIT 3`,
    )
    .all() as Array<{ story_id: string; published_at: string }>;
  if (stories.length < 3) throw new Error("not enough published stories to plant embargo cases");
  const setEmbargo = db.prepare("UPDATE stories SET embargo_until = ? WHERE story_id = ?");
  const addEvent = db.prepare(
    "INSERT INTO publish_events (story_id, channel, published_at) VALUES (?, ?, ?)",
  );
  const [exact, partner, social] = stories as [(typeof stories)[0], (typeof stories)[0], (typeof stories)[0]];
  setEmbargo.run(exact.published_at, exact.story_id);
  setEmbargo.run(partner.published_at, partner.story_id);
  addEvent.run(partner.story_id, "partner_feed", addMinutes(partner.published_at, -180));
  setEmbargo.run(social.published_at, social.story_id);
  addEvent.run(social.story_id, "social", addMinutes(social.published_at, -12));
}

interface Variant {
  webOnly?: boolean;
  countPartnerFeed?: boolean;
  inclusive?: boolean;
}

function cells(variant: Variant): string[] {
  const early = variant.inclusive ? "<=" : "<";
  return [
    NEWSROOM_PY,
    `print(read_text("policies/embargo-policy.md"))
embargoed = fetch_all("list_stories", "stories", embargoed=True)
print(len(embargoed), "embargoed stories")`,
    `breaches = []
for story in embargoed:
    ${
      variant.webOnly
        ? `times = [story["published_at"]] if story["published_at"] else []`
        : `events = fetch_all_retrying("list_publish_events", "events", story_id=story["story_id"])
    times = [e["published_at"] for e in events if ${variant.countPartnerFeed ? "True" : 'e["channel"] != "partner_feed"'}]`
    }
    if times and min(times) ${early} story["embargo_until"]:
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
  verify: ({ initial, answer }) => {
    const expected = expectedBreaches(initial);
    if (expected.length === 0) throw new Error("generation produced no embargo breach");
    const result = sameList(answerList(answer), expected);
    return [check("answer", result.passed, result.message)];
  },
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
