import { allRows, checkCountedWrites } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { NOW, seconds } from "../clock.js";
import { engineerIdsByHandle, pagingMinutes, readSchedule, serviceTeams } from "../facts.js";
import { onCallHandle } from "../schedule.js";
import { defineOncallTask } from "./common.js";

/** Triggered, unescalated incidents past the policy's minutes, and the secondary on call now for each. */
export function expectedEscalations(state: StateView): Map<string, string> {
  const minutes = pagingMinutes(state, "Escalation");
  const schedule = readSchedule(state);
  const ids = engineerIdsByHandle(state);
  const teams = serviceTeams(state);
  const now = seconds(NOW);
  const incidents = allRows<{ incident_id: string; service: string; severity: string; opened_at: string }>(
    state.db,
    "SELECT incident_id, service, severity, opened_at FROM incidents WHERE status = 'triggered' AND escalated_to IS NULL ORDER BY incident_id",
  );
  return new Map(
    incidents
      .filter((incident) => now - seconds(incident.opened_at) > minutes.get(incident.severity)! * 60)
      .map((incident) => [
        incident.incident_id,
        ids.get(onCallHandle(schedule, teams.get(incident.service)!, "secondary", now))!,
      ]),
  );
}

function verify(context: VerifyContext): Check[] {
  const expected = [...expectedEscalations(context.initial)];
  if (expected.length === 0) throw new Error("generation produced no incident to escalate");
  return checkCountedWrites(context, expected.length, [
    {
      table: "incidents",
      key: "incident_id",
      changed: new Map(expected.map(([id, engineer]) => [id, { escalated_to: engineer, escalated_at: NOW }])),
    },
    {
      table: "incident_events",
      key: "event_id",
      added: expected.map(([id, engineer]) => ({
        incident_id: id,
        kind: "escalated",
        actor: engineer,
        at: NOW,
      })),
    },
  ]);
}

function cell(near: Set<string>): string {
  return String.raw`
now = utc("${NOW}")
minutes = {k: int(v) for k, v in policy_table("policies/paging-policy.md", "Escalation").items()}
on_call = load_schedule(use_overrides=${near.has("ignores-overrides") ? "False" : "True"})
ids = engineer_ids()
teams = {s["service"]: s["team"] for s in fetch("list_services", "services")}
escalated = []
for incident in fetch("list_incidents", "incidents", status="triggered"):
    if incident["escalated_to"]:
        continue
    waited = (now - utc(incident["opened_at"])).total_seconds()
    if waited ${near.has("boundary-inclusive") ? ">=" : ">"} minutes[incident["severity"]] * 60:
        handle = on_call(teams[incident["service"]], "${near.has("escalates-to-primary") ? "primary" : "secondary"}", now)
        call("escalate_incident", incident_id=incident["incident_id"], engineer_id=ids[handle])
        escalated.append(incident["incident_id"])
print(f"Escalated {len(escalated)} incidents")
`;
}

export const escalateStaleIncidentsTask = defineOncallTask({
  slug: "escalate-stale-incidents",
  summary: "Escalate the incidents the paging policy says are due for escalation now.",
  instruction: `It is ${NOW.replace("T", " ").replace(":00Z", " UTC")}. Run the escalation sweep: every incident that our paging policy says should be escalated by now and hasn't been gets escalated with escalate_incident to the engineer the policy names (schedule in oncall/schedule.md). Leave everything else alone. Reply with the number of incidents you escalated, e.g. \`Escalated 4 incidents\`.`,
  tools: ["list_incidents", "get_incident", "escalate_incident", "list_services", "list_engineers"],
  verify,
  cell,
  nearMisses: [
    ["escalates-to-primary", "Escalates to the primary instead of the secondary."],
    ["boundary-inclusive", "Escalates an incident exactly at the escalation time."],
    ["ignores-overrides", "Takes the secondary from the rotation, ignoring the override in force now."],
  ],
});
