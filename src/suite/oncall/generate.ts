import { personName, sample, weightedPick } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { DAY, HOUR, JUNE_START, NOW, ZONES, seconds, shiftStart } from "./clock.js";
import type { Zone } from "./clock.js";
import { writeOncallDocuments } from "./documents.js";
import { insertWorld } from "./insert.js";
import { finishIncidents, planIncidents } from "./generate-incidents.js";
import { deployId, engineerId, pageId } from "./ids.js";
import { replicaTimesOut } from "./tools.js";
import { ACK_LIMIT_MINUTES, ROTATION_WEEKS, SLO_TARGETS, TEAMS, makePage, onCallIn } from "./world.js";
import type { Engineer, OncallWorld, Override, Page, Random, Role, Service, Severity } from "./world.js";

/** A word list written as one comma-separated line. */
const list = (text: string): string[] => text.split(", ");
const SERVICE_NAMES = list(
  "checkout-api, payments-api, search-api, auth-service, ledger-worker, inventory-svc, notifications, cart-service, recommendations, edge-gateway, billing-sync, media-proxy",
);
const ALERTS: Array<[string, Severity[]]> = [
  ["LatencyP99High", ["sev2", "sev3", "sev3"]],
  ["PodCrashLooping", ["sev1", "sev2", "sev3"]],
  ["DiskUsageHigh", ["sev2", "sev3"]],
  ["QueueBacklog", ["sev1", "sev2", "sev3"]],
  ["CertificateExpiry", ["sev3"]],
];
const REASONS = ["family event", "travel", "doctor's appointment", "conference talk", "moving house", "swap"];
const CHANGES = list(
  "bump dependencies, feature flag rollout, connection pool tuning, config change, hotfix, schema migration",
);

function makePeople(context: GenerateContext): { engineers: Engineer[]; services: Service[] } {
  const { random, faker, factors } = context;
  const emails = new Set<string>();
  const handles = new Set<string>();
  const engineers: Engineer[] = [];
  for (const team of TEAMS)
    for (let n = 0; n < 4 + factors.rows; n += 1) {
      const person = personName(faker, "acme.dev", emails);
      let handle = `${person.firstName[0]!}${person.lastName}`.toLowerCase().replace(/[^a-z]/g, "");
      while (handles.has(handle)) handle += random.int(2, 9);
      handles.add(handle);
      const zone = engineers.length === 0 ? ZONES[1] : random.pick(ZONES);
      engineers.push({ id: "", name: person.fullName, handle, email: person.email, team, zone });
    }
  engineers.forEach((engineer, index) => (engineer.id = engineerId.format(index + 1)));
  const services = SERVICE_NAMES.slice(0, 3 * factors.files).map((name, index): Service => ({
    name,
    team: TEAMS[index % TEAMS.length]!,
    tier: index < 3 ? [1, 1, 2][index]! : random.pick([1, 2, 2, 3]),
    runtime: index % 2 === 0 ? "java" : "python",
  }));
  return { engineers, services };
}

function makeRotation(random: Random, engineers: Engineer[]): OncallWorld["rotation"] {
  return TEAMS.flatMap((team) => {
    const members = random.shuffle(engineers.filter((engineer) => engineer.team === team));
    const member = (index: number): Engineer => members[index % members.length]!;
    return ROTATION_WEEKS.map((week, index) => ({
      week,
      team,
      primary: member(index),
      secondary: member(index + 1),
    }));
  });
}

/** June overrides: per team a few, one of them cancelled, none crossing a handover; plus one live now. */
function makeOverrides(
  context: GenerateContext,
  engineers: Engineer[],
  world: Pick<OncallWorld, "rotation">,
): Override[] {
  const { random, factors } = context;
  const overrides: Override[] = [];
  const rotation = onCallIn({ engineers, rotation: world.rotation, overrides: [] });
  const days = Array.from({ length: 27 }, (_, index) => index + 1);
  const build = (team: string, role: Role, start: number, end: number, cancelled: boolean): void => {
    const covers = rotation(team, role, start);
    const engineer = random.pick(engineers.filter((item) => item.team === team && item !== covers));
    overrides.push({ team, role, engineer, covers, start, end, cancelled, reason: random.pick(REASONS) });
  };
  for (const team of TEAMS) {
    sample(random, days, 1 + factors.rows)
      .sort((a, b) => a - b)
      .forEach((day, index) => {
        const start = JUNE_START + day * DAY + random.int(10, 20) * HOUR;
        let end = start + random.int(4, 14) * HOUR;
        if (shiftStart(end - 1) !== shiftStart(start)) end = shiftStart(start) + 7 * DAY;
        build(team, index <= 1 || random.chance(0.6) ? "primary" : "secondary", start, end, index === 1);
      });
  }
  build("platform", "secondary", seconds(NOW) - 6 * HOUR, seconds(NOW) + 14 * HOUR, false);
  return overrides;
}

/** Acknowledges and resolves a page the way people do: mostly within the limit, some late, a few never. */
function settle(random: Random, page: Page, responder: Engineer): void {
  const limit = ACK_LIMIT_MINUTES[page.severity] * 60;
  if (random.chance(0.08)) {
    page.resolved =
      page.fired + (random.chance(0.5) ? random.int(60, limit - 30) : limit + random.int(60, 2400));
    return;
  }
  page.acked = page.fired + Math.round(limit * (0.15 + random.next() * 1.3));
  page.ackedBy = responder;
  page.resolved = page.acked + random.int(5, 240) * 60;
}

function makePages(context: GenerateContext, world: OncallWorld): void {
  const { random, factors } = context;
  const onCall = onCallIn(world);
  const junePage = (service: Service, alert: string, severity: Severity, fired: number): Page => {
    const page = makePage(service, alert, severity, fired);
    page.assigned = onCall(service.team, "primary", fired);
    settle(random, page, page.assigned);
    world.pages.push(page);
    return page;
  };
  for (let n = 0; n < 36 * factors.rows; n += 1) {
    const [alert, severities] = random.pick(ALERTS);
    const service = random.pick(world.services);
    const weights = severities.map(() => 1);
    const severity = weightedPick(random, severities, weights);
    junePage(service, alert, severity, JUNE_START + random.int(0, 29 * DAY - 1));
  }
  // Error spikes: the deploy task's pages.
  for (let n = 0; n < 9 + 2 * factors.rows; n += 1) {
    const fired = JUNE_START + random.int(0, 28) * DAY + random.int(8 * HOUR, 21 * HOUR);
    const severity = random.chance(0.3) ? "sev1" : "sev2";
    junePage(world.services[n % world.services.length]!, "HighErrorRate", severity, fired);
  }
  // Ack-SLA boundaries: exactly at the limit, one second past it, auto-resolved inside and outside it.
  const boundary = (severity: Severity, ackAfter: number | null, resolveAfter: number): void => {
    const service = random.pick(world.services);
    const page = junePage(service, "PodCrashLooping", severity, JUNE_START + random.int(0, 28 * DAY));
    page.acked = ackAfter === null ? null : page.fired + ackAfter;
    page.ackedBy = ackAfter === null ? null : page.assigned;
    page.resolved = page.fired + resolveAfter;
    world.pinned.add(page);
  };
  boundary("sev1", 300, 3600);
  boundary("sev1", 301, 3600);
  boundary("sev2", 900, 5400);
  boundary("sev1", null, 200);
  boundary("sev2", null, 2400);
  planUnassigned(context, world, junePage);
}

/** Pages that lost their assignee, among them the schedule's traps: overrides, a cancelled one, a Monday night. */
function planUnassigned(
  context: GenerateContext,
  world: OncallWorld,
  junePage: (s: Service, a: string, v: Severity, f: number) => Page,
): void {
  const { random, factors } = context;
  const lost: Page[] = sample(
    random,
    world.pages.filter((page) => page.alert !== "HighErrorRate"),
    4 + 2 * factors.rows,
  );
  const serviceOf = (team: string): Service =>
    random.pick(world.services.filter((service) => service.team === team));
  const june = world.overrides.filter((item) => item.role === "primary" && item.start < seconds(NOW) - DAY);
  for (const override of [
    ...june.filter((item) => item.cancelled).slice(0, 1),
    ...june.filter((item) => !item.cancelled).slice(0, 2),
  ])
    lost.push(
      junePage(
        serviceOf(override.team),
        "QueueBacklog",
        "sev2",
        override.start + random.int(600, override.end - override.start - 600),
      ),
    );
  // Monday before the 09:00 handover, on a team no override covers then: the old week's primary has it.
  const onCall = onCallIn(world);
  const rotation = onCallIn({ ...world, overrides: [] });
  for (const monday of ["2025-06-16", "2025-06-23"]) {
    const fired = seconds(`${monday}T00:00:00Z`) + random.int(1 * HOUR, 8 * HOUR);
    const free = TEAMS.filter((team) => onCall(team, "primary", fired) === rotation(team, "primary", fired));
    lost.push(junePage(serviceOf(random.pick(free)), "DiskUsageHigh", "sev3", fired));
  }
  for (const page of lost) page.assigned = null;
}

function makeDeploys(context: GenerateContext, world: OncallWorld): void {
  const { random, factors } = context;
  const add = (service: Service, at: number, zone: Zone): void => {
    const by = random.pick(world.engineers.filter((item) => item.team === service.team));
    world.deploys.push({ id: "", service, version: "", at, zone, by, summary: random.pick(CHANGES) });
  };
  for (const service of world.services)
    for (let n = 0; n < 6 * factors.rows; n += 1)
      add(service, JUNE_START + random.int(0, 30 * DAY - 1), random.pick(ZONES));
  world.pages
    .filter((page) => page.alert === "HighErrorRate")
    .forEach((spike, index) => {
      const decoy = index % 2 === 0;
      add(spike.service, spike.fired - random.int(10, 100) * 60, decoy ? ZONES[2] : random.pick(ZONES));
      if (decoy) add(spike.service, spike.fired + random.int(30, 90) * 60, ZONES[1]);
      // Another service's deploy minutes before the spike: the decoy for code that ignores the service.
      const other = world.services.find((service) => service !== spike.service)!;
      if (index === 1) add(other, spike.fired - random.int(2, 8) * 60, ZONES[0]);
    });
  world.deploys.sort((a, b) => a.at - b.at);
  const versions = new Map<string, number>();
  world.deploys.forEach((deploy, index) => {
    deploy.id = deployId.format(index + 1);
    const count = (versions.get(deploy.service.name) ?? random.int(20, 60)) + 1;
    versions.set(deploy.service.name, count);
    deploy.version = `v2.${Math.floor(count / 10)}.${count % 10}`;
  });
}

/** A late sev1/sev2 page of 1-29 June whose details the replica times out on: skipping error bodies misses it. */
function plantTimedOutBreach(random: Random, world: OncallWorld): void {
  for (const incident of world.incidents) world.pinned.add(incident.page);
  const candidates = world.pages.filter(
    (item) => replicaTimesOut(item.id) && item.fired < JUNE_START + 29 * DAY && !world.pinned.has(item),
  );
  const page = candidates.find((item) => item.severity !== "sev3") ?? candidates[0];
  if (!page) throw new Error("no page to plant a timed-out breach on");
  if (page.severity === "sev3") page.severity = "sev2";
  page.acked = page.fired + ACK_LIMIT_MINUTES[page.severity] * 60 + random.int(60, 900);
  page.ackedBy = page.assigned ?? world.engineers.find((item) => item.team === page.service.team)!;
  page.resolved = page.acked + random.int(5, 240) * 60;
}

/** Fills the oncall database and writes its workspace documents for one scale. */
export function generateOncall(context: GenerateContext): void {
  const { engineers, services } = makePeople(context);
  const rotation = makeRotation(context.random, engineers);
  const world: OncallWorld = {
    engineers,
    services,
    rotation,
    overrides: makeOverrides(context, engineers, { rotation }),
    pages: [],
    deploys: [],
    incidents: [],
    postmortems: [],
    threads: [],
    pinned: new Set(),
    sloException: { service: services[1]!.name, target: 99.95 },
  };
  if (SLO_TARGETS[services[1]!.tier]! >= world.sloException.target)
    throw new Error("the SLO exception must be stricter");
  makePages(context, world);
  makeDeploys(context, world);
  planIncidents(context, world);
  world.pages.sort((a, b) => a.fired - b.fired);
  world.pages.forEach((page, index) => (page.id = pageId.format(index + 1)));
  plantTimedOutBreach(context.random, world);
  finishIncidents(context, world);
  insertWorld(context, world);
  writeOncallDocuments(context, world);
}
