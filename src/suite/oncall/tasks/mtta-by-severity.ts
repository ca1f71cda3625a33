import { allRows, checkAnswerAmounts, groupBy } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { timelineInstant } from "../facts.js";
import { defineOncallTask } from "./common.js";

/** Minutes from the page firing to the first acknowledgement, from a timeline's text. */
export function minutesToAcknowledge(timeline: string): number {
  const lines = timeline.split("\n");
  const fired = lines.find((line) => / triggered \(/.test(line));
  const acked = lines.find((line) => / acknowledged/.test(line));
  if (!fired || !acked)
    throw new Error(`timeline without a trigger or an acknowledgement: ${timeline.slice(0, 120)}`);
  return (timelineInstant(acked) - timelineInstant(fired)) / 60;
}

/** Mean time to acknowledge of the resolved incidents, by severity, in minutes. */
export function expectedMtta(state: StateView): Map<string, number> {
  const incidents = allRows<{ severity: string; timeline: string }>(
    state.db,
    "SELECT severity, timeline FROM incidents WHERE status = 'resolved' ORDER BY incident_id",
  );
  const bySeverity = groupBy(
    incidents,
    (incident) => incident.severity,
    (incident) => minutesToAcknowledge(incident.timeline),
  );
  return new Map(
    [...bySeverity]
      .sort()
      .map(([severity, values]) => [severity, values.reduce((sum, value) => sum + value, 0) / values.length]),
  );
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedMtta(initial);
  if (expected.size < 2)
    throw new Error("generation produced resolved incidents of fewer than two severities");
  return [checkAnswerAmounts("answer", answer, expected, 0.051)];
}

function cell(near: Set<string>): string {
  const zone = near.has("ignores-time-zones") ? '"UTC"' : "m.group(3)";
  return String.raw`
def instant(line):
    m = re.match(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)", line)
    if m:
        return utc(m.group(1))
    m = re.match(r"(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) ([A-Z]+)", line)
    return wall(m.group(1), m.group(2), ${zone})

minutes = {}
for summary in fetch("list_incidents", "incidents", status="resolved"):
    incident = call("get_incident", incident_id=summary["incident_id"])["incident"]
    lines = incident["timeline"].split("\n")
    fired = ${near.has("from-incident-opened") ? 'utc(incident["opened_at"])' : 'instant(next(l for l in lines if " triggered (" in l))'}
    acks = [l for l in lines if " acknowledged" in l]
    acked = instant(acks[${near.has("last-acknowledgement") ? "-1" : "0"}])
    minutes.setdefault(incident["severity"], []).append((acked - fired).total_seconds() / 60)
print(json.dumps({s: round(sum(v) / len(v), 1) for s, v in sorted(minutes.items())}))
`;
}

export const mttaBySeverityTask = defineOncallTask({
  slug: "mtta-by-severity",
  summary: "Mean time to acknowledge by severity over the resolved incidents, from their timelines.",
  instruction:
    'For the reliability report: what is our mean time to acknowledge for resolved incidents, by severity, as the paging policy (policies/paging-policy.md) defines it? Reply with a JSON object mapping each severity to the mean in minutes, rounded to one decimal, e.g. {"sev1": 4.5, "sev2": 12.0}.',
  tools: ["list_incidents", "get_incident"],
  verify,
  cell,
  nearMisses: [
    ["ignores-time-zones", "Reads every timeline time as UTC."],
    ["last-acknowledgement", "Uses the last acknowledgement (a hand-over) instead of the first."],
    ["from-incident-opened", "Measures from the incident's opening instead of the page firing."],
  ],
});
