/** The week under review: every bus's AM runs as AVL exports, ridership counts, timesheets and incident mails. */
import { addDays, isWeekend, sample } from "../../envs/index.js";
import { renderAvlDay } from "./avl.js";
import type { AvlEvent } from "./avl.js";
import {
  AVL_PAGE_LINES,
  LATE_START_DAY,
  LATE_START_MINUTES,
  PARTIAL_DAY,
  SATURDAY,
  UNLOAD_BEFORE_BELL_MINUTES,
  WEEK,
  minutesOf,
} from "./world.js";
import type { Category, Driver, IncidentMail, Random, Route, Shift, TransportWorld } from "./world.js";

interface RunPlan {
  delta: number;
  episodes: number[][];
  noisyEpisode?: boolean;
  exactFifty?: boolean;
  /** The stops (indexes along the route) the driver drove past without opening the door. */
  skips: number[];
  /** A stop whose door opened twice (a late runner), and a second door opening at the school. */
  reopen?: number;
  reopenSchool?: boolean;
}

/** Late runs (one on Thursday, one on a legacy unit, one exactly on the line), speeding episodes and their traps. */
function planWeek(random: Random, routes: Route[], rows: number): Map<string, RunPlan> {
  const plans = new Map<string, RunPlan>();
  for (const route of routes)
    for (const date of WEEK)
      plans.set(`${route.id}|${date}`, { delta: -random.int(60, 900), episodes: [], skips: [] });
  const key = (route: Route, date: string): RunPlan => plans.get(`${route.id}|${date}`)!;
  const legacy = routes.find((route) => route.bus.legacy)!;
  const current = routes.filter((route) => !route.bus.legacy);
  const late = [
    key(random.pick(routes), PARTIAL_DAY),
    key(legacy, random.pick(WEEK)),
    key(random.pick(current), LATE_START_DAY),
  ];
  for (let n = 0; n < rows; n += 1) late.push(key(random.pick(routes), random.pick(WEEK)));
  for (const plan of late) plan.delta = random.int(45, 720);
  const [onTheLine, ...onTime] = [...plans.values()].filter((plan) => plan.delta < 0);
  onTheLine!.delta = 0;
  // On time at the first door opening, past the line at a second one (the first opening is the arrival).
  for (const plan of sample(random, onTime, rows))
    Object.assign(plan, { delta: -random.int(60, 240), reopenSchool: true });
  const speeding = (route: Route): RunPlan => key(route, random.pick(WEEK.filter((d) => d !== PARTIAL_DAY)));
  const episode = (): number[] => Array.from({ length: random.int(2, 4) }, () => 51 + random.int(5, 75) / 10);
  const noisy = speeding(current[0]!);
  noisy.episodes.push([52.4, 53.1, 51.8]);
  noisy.noisyEpisode = true;
  speeding(legacy).episodes.push(episode());
  const twice = speeding(random.pick(current));
  twice.episodes.push(episode(), episode());
  for (let n = 1; n < rows; n += 1) speeding(random.pick(routes)).episodes.push(episode());
  speeding(current.at(-1)!).exactFifty = true;
  for (let n = 0; n < rows + 2; n += 1) {
    const route = random.pick(routes);
    key(route, random.pick(WEEK)).skips.push(random.int(0, route.stops.length - 1));
  }
  // A run that misses two stops and opens twice at a third; one stop missed on two days.
  const [twoStops, twoDays] = random.shuffle(routes);
  const open = (route: Route): number[] => route.stops.flatMap((stop, index) => (stop.closed ? [] : [index]));
  const [first, second, third] = sample(random, open(twoStops!), 3);
  Object.assign(key(twoStops!, random.pick(WEEK)), { skips: [first, second], reopen: third });
  const missedTwice = random.pick(open(twoDays!));
  for (const date of sample(random, WEEK, 2)) key(twoDays!, date).skips.push(missedTwice);
  return plans;
}

const ARRIVAL_LEAD = UNLOAD_BEFORE_BELL_MINUTES * 60;

/** One AM run: ignition at the depot, the highway leg, the stops, the school, back to the depot. */
function runEvents(random: Random, route: Route, date: string, plan: RunPlan): AvlEvent[] {
  const bell = minutesOf(route.school.bell) * 60 + (date === LATE_START_DAY ? LATE_START_MINUTES * 60 : 0);
  const events: AvlEvent[] = [];
  let t = 0;
  const push = (event: AvlEvent["event"], extra: Partial<AvlEvent> = {}, gap = random.int(50, 95)): void => {
    t += gap;
    events.push({ at: t, event, noiseAfter: random.chance(0.025), ...extra });
  };
  push("IGN_ON", {}, 0);
  const highway = Array.from({ length: random.int(3, 4) }, () => random.int(200, 450) / 10);
  const speeds = [...highway];
  plan.episodes.forEach((run, index) => speeds.splice(1 + index * 4, 0, ...run, 38.5));
  if (plan.exactFifty) speeds.splice(2, 0, 50.0);
  for (const mph of speeds)
    push("GPS", { mph, ...(plan.noisyEpisode && mph === 52.4 ? { noiseAfter: true } : {}) });
  const crossing = random.int(0, route.stops.length - 1);
  route.stops.forEach((stop, index) => {
    if (random.chance(0.4)) push("GPS", { mph: random.int(80, 300) / 10 });
    if (index === crossing) {
      push("DOOR_OPEN", {}, 40);
      push("DOOR_CLOSE", {}, random.int(6, 14));
    }
    if (stop.closed || plan.skips.includes(index)) return;
    for (let n = index === plan.reopen ? 2 : 1; n > 0; n -= 1) {
      push("DOOR_OPEN", { geo: stop.id }, random.int(30, 60));
      push("DOOR_CLOSE", { geo: stop.id }, random.int(20, 70));
    }
  });
  do push("GPS", { mph: random.int(100, 300) / 10 });
  while (events.length < AVL_PAGE_LINES);
  push("DOOR_OPEN", { geo: route.school.id }, random.int(40, 80));
  const arrivalIndex = events.length - 1;
  push("DOOR_CLOSE", { geo: route.school.id }, random.int(180, 360));
  if (plan.reopenSchool) {
    push("DOOR_OPEN", { geo: route.school.id }, random.int(90, 150));
    push("DOOR_CLOSE", { geo: route.school.id }, random.int(20, 60));
  }
  push("GPS", { mph: random.int(150, 400) / 10 }, random.int(90, 240));
  if (random.chance(0.3)) {
    push("DOOR_OPEN", { geo: "DEPOT" }, 60);
    push("DOOR_CLOSE", { geo: "DEPOT" }, random.int(20, 90));
  }
  push("IGN_OFF", {}, 30);
  const shift = bell - ARRIVAL_LEAD + plan.delta - events[arrivalIndex]!.at;
  for (const event of events) event.at += shift;
  return events;
}

export function planRuns(random: Random, routes: Route[], rows: number): TransportWorld["avl"] {
  const plans = planWeek(random, routes, rows);
  const days: TransportWorld["avl"] = [];
  for (const route of routes)
    for (const date of WEEK) {
      const lines = renderAvlDay(
        random,
        route.bus,
        date,
        runEvents(random, route, date, plans.get(`${route.id}|${date}`)!),
      );
      const arrival = lines.findIndex(
        (line) => line.includes(` DOOR_OPEN `) && line.endsWith(`geo=${route.school.id}`),
      );
      if (arrival < AVL_PAGE_LINES)
        throw new Error(`school arrival on the first AVL page (${route.id} ${date})`);
      days.push({ bus: route.bus, date, lines });
    }
  return days;
}

const effectiveCapacity = (route: Route): number =>
  route.school.level === "elementary" ? route.bus.capacity : Math.floor((route.bus.capacity * 2) / 3);

/**
 * AM boardings: mostly under capacity; crowded routes (one a 77-seat secondary bus, 52 over its 51 on a day),
 * a route over on one day of the week and one of the week before, one at capacity, one crowded weeks earlier.
 */
export function planRidership(random: Random, routes: Route[]): TransportWorld["ridership"] {
  const over: Map<Route, (cap: number, day: number) => number> = new Map();
  const elementary = routes.filter((route) => route.school.level === "elementary");
  const secondary = routes.filter((route) => route.school.level !== "elementary");
  over.set(elementary[0]!, (cap, day) => (day % 2 === 0 ? cap + random.int(1, 8) : cap - random.int(2, 6)));
  secondary[0]!.bus.capacity = 77;
  over.set(secondary[0]!, (cap, day) =>
    day === 1 ? cap + 1 : day === 3 ? random.int(cap + 1, 77) : cap - random.int(1, 5),
  );
  over.set(secondary[1]!, (cap, day) => (day === 2 ? cap + random.int(1, 5) : cap - random.int(1, 6)));
  over.set(secondary[2]!, (cap, day) => (day === 0 || day === 4 ? cap : cap - random.int(1, 6)));
  const earlier = new Map([
    ["2025-06-10", elementary[1]],
    ["2025-06-12", elementary[1]],
    ["2025-06-20", secondary[1]],
  ]);
  const june = Array.from({ length: 26 }, (_, day) => addDays("2025-06-02", day)).filter(
    (date) => !isWeekend(date),
  );
  return june.flatMap((date) =>
    routes.map((route) => {
      const cap = effectiveCapacity(route);
      const planted = WEEK.includes(date as (typeof WEEK)[number]) ? over.get(route) : undefined;
      const boardings = planted
        ? planted(cap, WEEK.indexOf(date as (typeof WEEK)[number]))
        : earlier.get(date) === route
          ? cap + random.int(1, 6)
          : Math.round(cap * (0.5 + random.next() * 0.42));
      return { route, date, boardings };
    }),
  );
}

const hm = (text: string): [string, string] => [text.slice(0, 5), text.slice(6, 11)];

/** Timesheets: split runs; planted a three-shift day over the limit, a 52.5-hour week, a week of exactly 50. */
export function planShifts(random: Random, drivers: Driver[], routes: Route[]): Shift[] {
  const shifts: Shift[] = [];
  const add = (driver: Driver, date: string, duty: string, span: string): void => {
    const [start, end] = hm(span);
    shifts.push({ driver, date, duty, start, end });
  };
  const [split, heavy, even, trip] = random.shuffle(routes).map((route) => route.driver);
  for (const driver of drivers)
    WEEK.forEach((date, day) => {
      if (driver === heavy || driver === even) {
        add(driver, date, "am_route", "06:00-11:00");
        add(driver, date, "pm_route", "12:00-17:00");
      } else if (driver === split && day === 1) {
        add(driver, date, "am_route", "05:45-09:30");
        add(driver, date, "midday", "09:45-13:00");
        add(driver, date, "pm_route", "13:15-16:45");
      } else if (driver === trip && day === 3) add(driver, date, "field_trip", "06:30-17:15");
      else {
        add(driver, date, "am_route", `06:${random.int(10, 45)}-0${random.int(8, 9)}:${random.int(10, 55)}`);
        if (random.chance(0.3))
          add(driver, date, "midday", `10:${random.int(10, 40)}-12:${random.int(10, 30)}`);
        const pm = `14:${random.int(0, 30).toString().padStart(2, "0")}-16:${random.int(30, 59)}`;
        add(driver, date, "pm_route", pm);
      }
    });
  add(heavy!, SATURDAY, "field_trip", "08:00-10:30");
  return shifts.sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      a.driver.id.localeCompare(b.driver.id) ||
      a.start.localeCompare(b.start),
  );
}

const OTHER: Category[] = ["behavior", "mechanical"];

/**
 * Incident mails: a collision saying "no injuries", a report of yesterday, a forwarded copy, one already filed,
 * one from a substitute driver; two spare drivers share a name with a route driver (the address tells them apart).
 */
export function planMails(random: Random, routes: Route[], drivers: Driver[], count: number): IncidentMail[] {
  const used = new Set<string>();
  const mails: IncidentMail[] = [];
  const make = (
    category: Category,
    when: IncidentMail["when"] = random.pick(["today", "today", "named"] as const),
  ): IncidentMail => {
    let route: Route, date: string;
    do {
      route = random.pick(routes);
      date = random.pick(WEEK);
    } while (used.has(`${route.id}|${date}`));
    used.add(`${route.id}|${date}`);
    const sent = when === "today" ? date : addDays(date, when === "yesterday" ? 1 : random.int(1, 2));
    const mail: IncidentMail = { route, driver: route.driver, date, sent, category, when };
    mails.push(mail);
    return mail;
  };
  make("collision", "today");
  const injury = make("injury");
  make(random.pick(["evacuation", "collision"] as const), "yesterday");
  make("collision").filed = true;
  mails.push({ ...injury, forwarded: true });
  const [substitute, namesake] = drivers.slice(routes.length);
  const covered = make(random.pick(["evacuation", "collision"] as const), "named");
  covered.driver = substitute!;
  const others = routes.filter((route) => route !== injury.route && route !== covered.route);
  const rename = (spare: Driver, driver: Driver): void =>
    void Object.assign(spare, { name: driver.name, email: driver.email.replace("@", "2@") });
  rename(substitute!, random.pick(others).driver);
  rename(namesake!, injury.driver);
  while (mails.length < count)
    make(
      random.chance(0.4) ? random.pick(["collision", "injury", "evacuation"] as const) : random.pick(OTHER),
    );
  return mails;
}
