/** The team's shared drive: policies, the on-call schedule, monitoring exports, postmortems and cover requests. */
import { addDays, renderEmail, renderMarkdown } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { isoUtc, wallClockWithOffset } from "./clock.js";
import { writeMetrics } from "./generate-metrics.js";
import { ACK_LIMIT_MINUTES, ESCALATE_AFTER_MINUTES, SEVERITIES, SLO_TARGETS } from "./world.js";
import type { OncallWorld, OverrideRequest, Postmortem, RequestThread } from "./world.js";

export const SLO_POLICY = "policies/slo-policy.md";
export const PAGING_POLICY = "policies/paging-policy.md";
export const SCHEDULE = "oncall/schedule.md";
export const POSTMORTEMS = "postmortems/";
export const REQUESTS = "inbox/override-requests/";

function writeSloPolicy(context: GenerateContext, world: OncallWorld): void {
  context.writeFile(
    SLO_POLICY,
    renderMarkdown("Service level objectives", [
      "Effective 1 May 2025. Owner: SRE. Applies to every production service; a service's tier is on its record in the service catalog.",
      { heading: "Availability targets" },
      {
        table: {
          headers: ["tier", "availability target %"],
          rows: [1, 2, 3].map((tier) => [tier, SLO_TARGETS[tier]!.toFixed(1)]),
        },
      },
      { heading: "Exceptions" },
      "These services are held to a target other than their tier's:",
      {
        table: {
          headers: ["service", "availability target %", "reason"],
          rows: [
            [
              world.sloException.service,
              world.sloException.target.toFixed(2),
              "contractual commitment to the card networks",
            ],
          ],
        },
      },
      { heading: "Measuring availability" },
      "Valid events are all HTTP responses (2xx, 4xx and 5xx); bad events are the 5xx responses. 4xx responses are the client's error and count as good. Availability over a window is 1 - bad / valid.",
      "The monitoring exports hold cumulative counters, one per status class. A counter starts at zero when the process starts and falls back to zero when it restarts. The number of events in a window is the sum of the increases between consecutive samples of the window; when a sample is lower than the one before it the process restarted, and that sample's whole value is the increase. Missing samples (gaps in an export) are skipped.",
      { heading: "Error budget" },
      "The error budget is 100% minus the target. Budget burned over a window, in percent: (bad / valid) / (1 - target / 100) x 100.",
      { heading: "Latency" },
      'The latency indicator is the p95 of request durations by the nearest-rank method: sort the durations ascending and take the one at rank ceil(0.95 x n), counting from 1. Every request the service logged counts: nginx access lines (request time in seconds after `rt=`) and JSON events with `"event": "http_request"` (`duration_ms`). Load-balancer health checks and metrics scrapes (paths `/healthz` and `/metrics`) are not user requests and are left out.',
      { heading: "Error triage" },
      "When errors are counted by root cause, count one root cause per stack trace. For a Java trace it is the exception class on the trace's last `Caused by:` line, or the exception class on the line right after the ERROR line when the trace has no `Caused by:`. For a Python traceback it is the exception class on its last line.",
    ]),
  );
}

function writePagingPolicy(context: GenerateContext): void {
  context.writeFile(
    PAGING_POLICY,
    renderMarkdown("Paging and incident policy", [
      "Effective 1 May 2025. Times in the pager and the tracker are UTC.",
      { heading: "Acknowledgement targets" },
      {
        table: {
          headers: ["severity", "acknowledge within (minutes)"],
          rows: SEVERITIES.map((severity) => [severity, ACK_LIMIT_MINUTES[severity]]),
        },
      },
      "A page meets its target when it was acknowledged at most the target's minutes after it fired. A page nobody acknowledged breaches the target, unless it resolved on its own within the target.",
      { heading: "Assignment" },
      "Every page is assigned to the engineer who was primary on call for the owning team of the paged service at the moment it fired (oncall/schedule.md, overrides included).",
      { heading: "Response metrics" },
      "An incident's time to acknowledge runs from the moment its page fired to the first acknowledgement recorded in the incident's timeline; later acknowledgements (a hand-over to a new incident commander) do not count. The mean time to acknowledge (MTTA) of a set of incidents is the mean of their times to acknowledge.",
      { heading: "Escalation" },
      {
        table: {
          headers: ["severity", "escalate after (minutes unacknowledged)"],
          rows: SEVERITIES.map((severity) => [severity, ESCALATE_AFTER_MINUTES[severity]]),
        },
      },
      "An incident still `triggered` (nobody acknowledged it) and not escalated yet is escalated once more than these minutes have passed since it was opened. It goes to the owning team's secondary on call at that moment (overrides included).",
      { heading: "Postmortem action items" },
      "Every open action item (an unchecked box) of a postmortem must be in the tracker, filed against the postmortem's incident with the item's text as its title, the owner the item names and its due date. An item without a due date is due 14 days after the postmortem's review date. Checked items were done during the incident and are not filed.",
      { heading: "Schedule overrides" },
      "Cover requests go to the team's engineering manager by e-mail. Only the requests the manager approved are entered in the paging system, with their start and end converted to UTC.",
    ]),
  );
}

function writeSchedule(context: GenerateContext, world: OncallWorld): void {
  const stamp = (at: number): string => isoUtc(at).slice(0, 16).replace("T", " ");
  const overrides = [...world.overrides]
    .sort((a, b) => a.start - b.start)
    .map((item) => {
      const text = `${stamp(item.start)} → ${stamp(item.end)} UTC · ${item.team} · ${item.role}: @${item.engineer.handle} covers for @${item.covers.handle}`;
      return item.cancelled ? `~~${text}~~ (cancelled, back to the rotation)` : `${text} (${item.reason})`;
    });
  context.writeFile(
    SCHEDULE,
    renderMarkdown("On-call schedule", [
      "Every team has a primary and a secondary on call. Shifts hand over every Monday at 09:00 UTC: the row for a week covers from that Monday 09:00 UTC to the next Monday 09:00 UTC.",
      { heading: "Rotation" },
      {
        table: {
          headers: ["week starting", "team", "primary", "secondary"],
          rows: world.rotation.map((row) => [
            row.week,
            row.team,
            `@${row.primary.handle}`,
            `@${row.secondary.handle}`,
          ]),
        },
      },
      { heading: "Overrides" },
      "An override replaces the scheduled engineer of one role from its start until its end (UTC, end excluded). Struck-through overrides were cancelled and do not apply.",
      { bullets: overrides },
    ]),
  );
}

function writePostmortem(context: GenerateContext, postmortem: Postmortem): void {
  const { incident, reviewed, author, items } = postmortem;
  const lines = items.map((item) =>
    item.done
      ? `[x] ${item.title} — owner @${item.owner.handle} (done during the incident)`
      : `[ ] ${item.title} — owner @${item.owner.handle}${item.due ? `, due ${item.due}` : " (date to be agreed)"}`,
  );
  context.writeFile(
    `${POSTMORTEMS}${incident.id}.md`,
    renderMarkdown(`Postmortem: ${incident.title} (${incident.id})`, [
      `Review date: ${reviewed}. Author: @${author.handle}. Severity: ${incident.page.severity}.`,
      { heading: "What happened" },
      `Page ${incident.page.id} fired at ${isoUtc(incident.page.fired)}. The incident was resolved at ${isoUtc(incident.resolved!)}. See the incident timeline in the tracker for details.`,
      { heading: "Action items" },
      { bullets: lines },
    ]),
  );
}

function writeThread(context: GenerateContext, thread: RequestThread, index: number): void {
  const { requester, manager, requests } = thread;
  const numbers = (approved: boolean): string =>
    requests.flatMap((request, n) => (request.approved === approved ? [`#${n + 1}`] : [])).join(", ");
  const shift = ({ role, start, end, zone, engineer }: OverrideRequest, n: number): string =>
    `${n + 1}. ${role}, ${wallClockWithOffset(start, zone)} until ${wallClockWithOffset(end, zone)}: @${engineer.handle} covers`;
  const approved = numbers(true);
  const declined = numbers(false);
  const decision = [
    approved ? `Approved: ${approved}.` : "",
    declined ? `Declined: ${declined} (we are short-staffed then, please find other cover).` : "",
  ]
    .join(" ")
    .trim();
  context.writeFile(
    `${REQUESTS}${String(index + 1).padStart(2, "0")}-${requester.handle}.eml`,
    renderEmail(
      {
        From: `${requester.name} <${requester.email}>`,
        Date: `${addDays("2025-06-20", index % 8)}`,
        Subject: `Cover request for July (${requester.team})`,
      },
      [
        `Hi,`,
        `I need cover for these shifts in July. Team: ${requester.team}. Times are my local time.`,
        requests.map(shift).join("\n"),
        `Thanks,\n${requester.name}`,
        `---- Reply from ${manager} ----\n${decision}`,
      ],
    ),
  );
}

export function writeOncallDocuments(context: GenerateContext, world: OncallWorld): void {
  writeSloPolicy(context, world);
  writePagingPolicy(context);
  writeSchedule(context, world);
  writeMetrics(context, world);
  for (const postmortem of world.postmortems) writePostmortem(context, postmortem);
  world.threads.forEach((thread, index) => writeThread(context, thread, index));
}
