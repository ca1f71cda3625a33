/** Incidents (resolved ones with free-text timelines, open ones awaiting escalation), postmortems and cover requests. */
import { addDays, sample } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { DAY, JUNE_START, NOW, isoUtc, seconds, wallClock } from "./clock.js";
import { incidentId } from "./ids.js";
import { trackerConflicts } from "./tools.js";
import { ESCALATE_AFTER_MINUTES, SEVERITIES, makePage, onCallIn } from "./world.js";
import type {
  ActionItem,
  Engineer,
  Incident,
  OncallWorld,
  OverrideRequest,
  Page,
  Severity,
} from "./world.js";

const NOTES = [
  "rolled back the last deploy",
  "error rate recovering",
  "scaled the worker pool from 8 to 16",
  "upstream provider confirmed degradation",
  "failed over to the replica",
  "customer support notified",
];
const ITEMS = [
  "Add an alert on {s} queue depth",
  "Raise the {s} connection pool limit",
  "Write a runbook section for {s} failover",
  "Add a canary stage to the {s} deploy pipeline",
  "Load-test {s} at twice the June peak",
  "Make the {s} retry budget configurable",
  "Remove the manual step from the {s} rollback",
  "Add a dashboard for {s} p99 by endpoint",
];

/** A new incident of a page, titled after it (id and timeline come later). */
function incidentOf(
  page: Page,
  status: Incident["status"],
  opened: number,
  resolved: number | null,
  escalatedTo: Engineer | null = null,
): Incident {
  const title = `${page.alert} on ${page.service.name}`;
  return { id: "", page, status, opened, resolved, escalatedTo, timeline: "", title };
}

/** Resolved incidents from acknowledged sev1/sev2 pages, and June 30's open incidents. */
export function planIncidents(context: GenerateContext, world: OncallWorld): void {
  const { random, factors } = context;
  const pool = world.pages.filter(
    (page) =>
      page.severity !== "sev3" &&
      page.acked !== null &&
      page.ackedBy &&
      page.assigned &&
      !world.pinned.has(page),
  );
  for (const page of sample(random, pool, Math.min(pool.length, 8 + 6 * factors.rows))) {
    // Whole minutes, as the timeline prints them, so the pager's times and the timeline agree.
    page.fired -= page.fired % 60;
    page.acked! -= page.acked! % 60;
    const opened = page.fired + random.int(60, 240);
    world.incidents.push(incidentOf(page, "resolved", opened, Math.max(page.resolved!, page.acked! + 300)));
  }
  const onCall = onCallIn(world);
  const now = seconds(NOW);
  const open = (
    severity: Severity,
    ageMinutes: number,
    status: Incident["status"],
    escalated: boolean,
    first = false,
  ): void => {
    const service = first ? world.services[0]! : random.pick(world.services);
    const opened = now - ageMinutes * 60;
    const page = makePage(service, random.pick(["LatencyP99High", "QueueBacklog"]), severity, opened - 60);
    page.assigned = onCall(service.team, "primary", page.fired);
    if (status === "acknowledged") [page.acked, page.ackedBy] = [opened + 120, page.assigned];
    world.pages.push(page);
    const secondary = escalated ? onCall(service.team, "secondary", now) : null;
    world.incidents.push(incidentOf(page, status, opened, null, secondary));
  };
  for (let n = 0; n < 5 + 2 * factors.rows; n += 1) {
    const severity = random.pick(SEVERITIES);
    open(severity, ESCALATE_AFTER_MINUTES[severity] + random.int(1, 50), "triggered", false, n === 0);
  }
  const severity = random.pick(SEVERITIES);
  open(severity, ESCALATE_AFTER_MINUTES[severity], "triggered", false);
  open("sev2", random.int(1, 29), "triggered", false);
  open("sev1", random.int(1, 9), "triggered", false);
  open("sev1", random.int(20, 90), "acknowledged", false);
  open("sev2", random.int(40, 90), "acknowledged", false);
  open("sev1", random.int(30, 60), "triggered", true);
}

function timelineOf(
  random: GenerateContext["random"],
  incident: Incident,
  world: OncallWorld,
  takeover: boolean,
): string {
  const page = incident.page;
  const minute = (at: number): number => at - (at % 60);
  const bot = (at: number, text: string): [number, string] => [
    minute(at),
    `${isoUtc(minute(at))} — PagerBot: ${text}`,
  ];
  const human = (at: number, who: Engineer, text: string): [number, string] => [
    minute(at),
    `${wallClock(minute(at), who.zone)} — @${who.handle}${text}`,
  ];
  const lines: Array<[number, string]> = [
    bot(page.fired, `${page.id} triggered (${page.alert} on ${page.service.name}, ${page.severity})`),
    bot(incident.opened, `incident opened, paging @${page.assigned!.handle}`),
  ];
  if (page.acked !== null) lines.push(human(page.acked, page.ackedBy!, " acknowledged"));
  if (incident.escalatedTo)
    lines.push(bot(incident.opened + 900, `escalated to @${incident.escalatedTo.handle}`));
  if (incident.status === "resolved") {
    const team = world.engineers.filter((engineer) => engineer.team === page.service.team);
    const span = incident.resolved! - page.acked!;
    for (let n = 0; n < random.int(1, 2); n += 1) {
      const at = page.acked! + random.int(60, span - 60);
      lines.push(human(at, random.pick(team), `: ${random.pick(NOTES)}`));
    }
    if (takeover || random.chance(0.35)) {
      const at = page.acked! + random.int(120, span - 30);
      lines.push(human(at, random.pick(team), " acknowledged (taking over as incident commander)"));
    }
    lines.push(human(incident.resolved!, page.ackedBy!, " resolved the incident"));
  }
  return lines
    .sort((a, b) => a[0] - b[0])
    .map((line) => line[1])
    .join("\n");
}

/** Incident ids and timelines (after page ids exist), postmortems of early incidents, July cover requests. */
export function finishIncidents(context: GenerateContext, world: OncallWorld): void {
  const { random, factors } = context;
  world.incidents.sort((a, b) => a.opened - b.opened);
  // The first resolved incident is always acknowledged by someone outside UTC and handed over later.
  const firstResolved = world.incidents.find((incident) => incident.status === "resolved")!;
  const away = (engineer: Engineer): boolean => engineer.zone.offsetMinutes !== 0;
  if (!away(firstResolved.page.ackedBy!))
    firstResolved.page.ackedBy =
      world.engineers.find(
        (engineer) => engineer.team === firstResolved.page.service.team && away(engineer),
      ) ?? world.engineers.find(away)!;
  world.incidents.forEach((incident, index) => {
    incident.id = incidentId.format(index + 1);
    incident.timeline = timelineOf(random, incident, world, incident === firstResolved);
  });
  const early = world.incidents.filter(
    (incident) => incident.status === "resolved" && incident.resolved! < JUNE_START + 23 * DAY,
  );
  for (const incident of sample(random, early, Math.min(early.length, 3 * factors.files))) {
    const service = incident.page.service;
    const team = world.engineers.filter((engineer) => engineer.team === service.team);
    const reviewed = addDays(isoUtc(incident.resolved!).slice(0, 10), random.int(2, 5));
    const items = sample(random, ITEMS, random.int(3, 5)).map((title): ActionItem => {
      const done = random.chance(0.2);
      return {
        title: title.replace("{s}", service.name),
        owner: random.pick(team),
        due: random.chance(0.3) ? null : addDays(reviewed, random.int(10, 40)),
        done,
        filed: !done && random.chance(0.25),
      };
    });
    world.postmortems.push({ incident, reviewed, author: random.pick(team), items });
  }
  world.postmortems.sort((a, b) => a.incident.id.localeCompare(b.incident.id));
  // The first postmortem plants every case: a done item, an undated open item the tracker's first write of
  // conflicts on (so it must be retried), and an open item already filed.
  const first = world.postmortems[0]!;
  const [done, undated, filed] = first.items as [ActionItem, ActionItem, ActionItem];
  Object.assign(done, { done: true, filed: false });
  Object.assign(undated, { done: false, filed: false, due: null });
  Object.assign(filed, { done: false, filed: true });
  const titles = ITEMS.map((title) => title.replace("{s}", first.incident.page.service.name));
  const conflicting = titles.find(trackerConflicts)!;
  const holder = first.items.find((item) => item.title === conflicting);
  if (holder) holder.title = undated.title;
  undated.title = conflicting;
  makeThreads(context, world);
}

function makeThreads(context: GenerateContext, world: OncallWorld): void {
  const { random, factors } = context;
  // The first requester writes in a zone other than UTC, so converting to UTC always matters.
  const away = random.pick(world.engineers.filter((engineer) => engineer.zone.offsetMinutes !== 0));
  const others = world.engineers.filter((engineer) => engineer !== away);
  const requesters = [away, ...sample(random, others, 3 * factors.files - 1)];
  requesters.forEach((requester, index) => {
    const zone = requester.zone;
    const colleagues = world.engineers.filter(
      (engineer) => engineer.team === requester.team && engineer !== requester,
    );
    const requests: OverrideRequest[] = [];
    for (let n = 0; n < 2 + (index % 2); n += 1) {
      const day = `2025-07-${String(1 + index * 2 + n * 7 > 28 ? random.int(1, 28) : 1 + index * 2 + n * 7).padStart(2, "0")}`;
      const start = seconds(`${day}T${String(random.int(17, 21))}:00:00Z`) - zone.offsetMinutes * 60;
      const declined = index % 4 === 3 || (index % 4 === 1 && n === 1);
      requests.push({
        team: requester.team,
        role: random.chance(0.7) ? "primary" : "secondary",
        engineer: random.pick(colleagues),
        start,
        end: start + random.int(4, 12) * 3600,
        zone,
        approved: !declined,
        alreadySet: !declined && n === 0 && index % 3 === 0,
      });
    }
    world.threads.push({
      requester,
      manager: `${context.faker.person.fullName()} (${requester.team} engineering manager)`,
      requests,
    });
  });
}
