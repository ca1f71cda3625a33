import { addBusinessDays, getRow, defineTask, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { PATHS } from "../rules.js";
import { checkList, documentNumber } from "./expectations.js";
import { correctionDecisions } from "./mail.js";
import { NEWSROOM_PY } from "./python.js";

const DEADLINE = /no later than (\d+) business days after the date received/;

/** Slugs of threaded stories whose earliest log entry came after the policy's business-day deadline. */
export function expectedLateCorrections(state: StateView): string[] {
  const days = documentNumber(state, PATHS.correctionsPolicy, DEADLINE);
  const late = correctionDecisions(state).filter((decision) => {
    const sql = "SELECT MIN(logged_on) AS logged_on FROM corrections WHERE story_id = ?";
    const loggedOn = getRow<{ logged_on: string | null }>(state.db, sql, decision.storyId)?.logged_on;
    return loggedOn && loggedOn > addBusinessDays(decision.received, days);
  });
  if (late.length === 0) throw new Error("generation produced no late correction");
  return late.map((decision) => decision.slug);
}

function cells({ calendarDays = false, forwardDate = false }): string[] {
  const received = forwardDate ? `first["sent_at"][:10]` : `form_field(form, "Date received")`;
  return [
    NEWSROOM_PY,
    `policy = read_text("${PATHS.correctionsPolicy}")
print(policy)
limit = int(re.search(r"no later than (\\d+) business days", policy).group(1))
logged = {}
for c in fetch_all("list_corrections", "corrections"):
    logged.setdefault(c["story_id"], []).append(c["logged_on"])
threads = fetch_all("list_threads", "threads", mailbox="corrections")
print(limit, len(threads))

def deadline(day, count):
    current = date.fromisoformat(day)
    while count > 0:
        current += timedelta(days=1)
        if ${calendarDays ? "True" : "current.weekday() < 5"}:
            count -= 1
    return current.isoformat()`,
    `late = []
for t in threads:
    first = tools.get_thread(thread_id=t["thread_id"])["messages"][0]
    form = attachment_of(call("get_message", message_id=first["message_id"])["text"])
    story_id = form_field(form, "Story ID")
    if story_id in logged and min(logged[story_id]) > deadline(${received}, limit):
        late.append(form_field(form, "Story slug"))
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
  verify: ({ initial, answer }) => [checkList("answer", answer, expectedLateCorrections(initial))],
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
