import { addBusinessDays, check, defineTask, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { PATHS } from "../rules.js";
import { answerList, sameList } from "./expectations.js";
import { correctionDecisions } from "./mail.js";
import { NEWSROOM_PY } from "./python.js";

export function expectedLateCorrections(state: StateView): string[] {
  const policy = state.readFile(PATHS.correctionsPolicy) ?? "";
  const days = Number(/no later than (\d+) business days after the date received/.exec(policy)?.[1]);
  if (!days) throw new Error("the corrections policy lost its logging deadline");
  const late: string[] = [];
  for (const decision of correctionDecisions(state)) {
    const row = state.db
      .prepare("SELECT MIN(logged_on) AS logged_on FROM corrections WHERE story_id = ?")
      .get(decision.storyId) as { logged_on: string | null };
    if (row.logged_on && row.logged_on > addBusinessDays(decision.received, days)) late.push(decision.slug);
  }
  return late.sort();
}

interface Variant {
  calendarDays?: boolean;
  forwardDate?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    NEWSROOM_PY,
    `policy = read_text("${PATHS.correctionsPolicy}")
print(policy)
limit = int(re.search(r"no later than (\\d+) business days", policy).group(1))
logged = {}
for c in fetch_all("list_corrections", "corrections"):
    logged.setdefault(c["story_id"], []).append(c["logged_on"])
threads = fetch_all("list_threads", "threads", mailbox="corrections")
print(limit, len(threads))`,
    `late = []
for t in threads:
    first = tools.get_thread(thread_id=t["thread_id"])["messages"][0]
    text = message_text(first["message_id"])
    form = attachment_of(text)
    story_id = re.search(r"^Story ID:\\s+(\\S+)", form, re.M).group(1)
    slug = re.search(r"^Story slug:\\s+(\\S+)", form, re.M).group(1)
    received = ${variant.forwardDate ? 'first["sent_at"][:10]' : 're.search(r"^Date received:\\s+(\\S+)", form, re.M).group(1)'}
    if story_id not in logged:
        continue
    deadline = ${variant.calendarDays ? "(date.fromisoformat(received) + timedelta(days=limit)).isoformat()" : "add_business_days(received, limit)"}
    if min(logged[story_id]) > deadline:
        late.append(slug)
print(json.dumps(sorted(late)))`,
  ];
}

export const correctionsTurnaroundTask = defineTask({
  id: "newsroom.corrections-turnaround",
  domain: newsroomDomain,
  summary:
    "Find corrections logged later than the corrections policy allows, counting business days from the request form's received date.",
  instruction:
    "Audit how fast we log corrections. For every correction request thread in the corrections mailbox whose story has an entry in the corrections log, check whether the (earliest) log entry was made within the deadline of our corrections policy. Reply with only a JSON list of the slugs of the stories whose correction was logged late, sorted alphabetically (an empty list if none).",
  tools: ["list_threads", "get_thread", "get_message", "list_corrections", "list_stories", "get_story"],
  verify: ({ initial, answer }) => {
    const expected = expectedLateCorrections(initial);
    if (expected.length === 0) throw new Error("generation produced no late correction");
    const result = sameList(answerList(answer), expected);
    return [check("answer", result.passed, result.message)];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "calendar-days",
      description: "Counts the deadline in calendar days, so weekends make on-time corrections look late.",
      cells: cells({ calendarDays: true }),
    },
    {
      id: "forward-date",
      description:
        "Counts from the date the desk forwarded the request instead of the date received on the form.",
      cells: cells({ forwardDate: true }),
    },
  ],
});
