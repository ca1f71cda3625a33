import { addDays, personName, sample } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { writeTransportDocuments } from "./documents.js";
import { planMails, planRuns, planRidership, planShifts } from "./generate-week.js";
import { busId, driverId, routeId, schoolId, stopId, studentId } from "./ids.js";
import { insertWorld } from "./insert.js";
import { HAZARD_ZONES, WALK_LIMITS, ZONES, hhmm, minutesOf } from "./world.js";
import type { Bus, Driver, Level, Random, Route, School, Student, TransportWorld } from "./world.js";

export const TODAY = "2025-06-30";
const NAMES = ["Lincoln", "Hawthorne", "Roosevelt", "Garfield", "Madison", "Jefferson"];
const LEVELS: Level[] = ["elementary", "middle", "high", "elementary", "middle", "elementary"];
const BELLS: Record<Level, string[]> = {
  elementary: ["08:40", "08:50"],
  middle: ["08:00", "08:05"],
  high: ["07:30", "07:35"],
};
const STREETS = "Oak Maple Elm Cedar Pine Birch Walnut Chestnut Hickory Spruce Willow Ash".split(" ");
const GRADES: Record<Level, string[]> = {
  elementary: ["K", "1", "2", "3", "4", "5"],
  middle: ["6", "7", "8"],
  high: ["9", "10", "11", "12"],
};
export const walkLimit = (level: Level): number => WALK_LIMITS.find(([band]) => band === level)![2];

function makeSchools(random: Random, count: number): School[] {
  return Array.from({ length: count }, (_, index) => {
    const level = LEVELS[index]!;
    const kind = level === "high" ? "High School" : level === "middle" ? "Middle School" : "Elementary";
    return {
      id: schoolId.format(index + 1),
      name: `${NAMES[index]!} ${kind}`,
      level,
      bell: random.pick(BELLS[level]),
    };
  });
}

/** In-service buses (one per route) and the spare pool: two plain spares numbered first, then lift spares. */
function makeBuses(random: Random, routes: number, liftSpares: number): Bus[] {
  const numbers = random.shuffle(Array.from({ length: routes + liftSpares + 3 }, (_, index) => index + 1));
  const unit = (legacy: boolean): string => `${legacy ? "GT300" : "GT520"}-${random.int(1000, 9999)}`;
  const make = (lift: boolean, legacy: boolean, status: Bus["status"]): Bus => ({
    id: busId.format(numbers.pop()!),
    capacity: random.pick([48, 54, 66, 72, 77]),
    lift,
    legacy,
    avlUnit: unit(legacy),
    status,
  });
  const inService = Array.from({ length: routes }, (_, index) =>
    make(index % 4 === 1, index % 3 === 2, "in_service"),
  );
  const spares = [make(false, false, "spare"), make(false, true, "spare"), make(true, false, "shop")];
  for (let n = 0; n < liftSpares; n += 1) spares.push(make(true, random.chance(0.5), "spare"));
  const pool = spares.filter((bus) => bus.status === "spare");
  const sortedIds = pool.map((bus) => bus.id).sort();
  // The plain spares carry the lowest spare numbers: "the first spare" is the wrong bus.
  pool.sort((a, b) => Number(a.lift) - Number(b.lift)).forEach((bus, index) => (bus.id = sortedIds[index]!));
  return [...inService, ...spares];
}

function makeDrivers(context: GenerateContext, count: number): Driver[] {
  const { random, faker } = context;
  const emails = new Set<string>();
  return Array.from({ length: count }, (_, index) => {
    const person = personName(faker, "district.k12.us", emails);
    return {
      id: driverId.format(index + 1),
      name: person.fullName,
      email: person.email,
      cdlClass: random.chance(0.3) ? "A" : "B",
      endorsements: random.chance(0.2) ? "P,S,N" : "P,S",
      medicalExpires: addDays(TODAY, random.int(20, 700)),
      liftUntil: random.chance(0.5) ? addDays(TODAY, random.int(20, 400)) : null,
    };
  });
}

/** Unqualified route drivers: no S endorsement, an expired card, a class C licence, a lift bus without training. */
function plantQualifications(random: Random, routes: Route[]): void {
  for (const route of routes)
    if (route.bus.lift) route.driver.liftUntil = addDays(TODAY, random.int(20, 400));
  const plain = routes.filter((route) => !route.bus.lift);
  plain[0]!.driver.endorsements = "P";
  plain[1]!.driver.medicalExpires = addDays(TODAY, -random.int(1, 60));
  plain[2]!.driver.medicalExpires = TODAY;
  plain[3]!.driver.cdlClass = "C";
  const lifted = routes.filter((route) => route.bus.lift);
  lifted[0]!.driver.liftUntil = random.chance(0.5) ? null : addDays(TODAY, -random.int(1, 90));
  lifted[1]!.driver.liftUntil = TODAY;
}

function makeRoutes(
  random: Random,
  schools: School[],
  buses: Bus[],
  drivers: Driver[],
  count: number,
): Route[] {
  let stopNumber = 0;
  return Array.from({ length: count }, (_, index): Route => {
    const school = schools[index % schools.length]!;
    const zones =
      index === 0
        ? ["Old Mill", "Riverside"]
        : sample(
            random,
            ZONES.filter((z) => !HAZARD_ZONES.includes(z)),
            2,
          );
    const stopCount = random.int(5, 7);
    const start = minutesOf(school.bell) - 15 - stopCount * 5;
    const stops = Array.from({ length: stopCount }, (_, seq) => ({
      id: stopId.format((stopNumber += 1)),
      seq: seq + 1,
      location: `${random.pick(STREETS)} St & ${random.int(1, 40)}th Ave`,
      zone: zones[seq < stopCount / 2 ? 0 : 1]!,
      pickup: hhmm(start + seq * 5),
      closed: false,
    }));
    return { id: routeId.format(101 + index), school, bus: buses[index]!, driver: drivers[index]!, stops };
  });
}

/** Closures for the notice: two in a row, a last stop, one before a stop already closed, then simple ones. */
function planClosures(random: Random, routes: Route[], extra: number): TransportWorld["closures"] {
  const [a, b, c, ...rest] = random.shuffle(routes.slice(1));
  const closures = [a!.stops[1]!, a!.stops[2]!, b!.stops.at(-1)!, c!.stops[0]!];
  c!.stops[1]!.closed = true;
  for (const route of rest.slice(0, extra))
    closures.push(route.stops[random.int(0, route.stops.length - 2)]!);
  return closures;
}

function makeStudents(context: GenerateContext, routes: Route[], schools: School[]): Student[] {
  const { random, faker, factors } = context;
  const students: Student[] = [];
  const add = (
    school: School,
    stop: Student["stop"],
    zone: string,
    miles: number,
    needs: Student["needs"] = "none",
  ): Student => {
    const student: Student = {
      id: "",
      name: `${faker.person.firstName()} ${faker.person.lastName()}`,
      grade: random.pick(GRADES[school.level]),
      school,
      zone,
      miles: Math.round(miles * 100) / 100,
      needs,
      stop,
    };
    students.push(student);
    return student;
  };
  for (const route of routes) {
    const open = route.stops.filter((stop) => !stop.closed);
    const limit = walkLimit(route.school.level);
    for (let n = 0; n < 30 + random.int(0, 14); n += 1) {
      const stop = n < open.length ? open[n]! : random.pick(open);
      const miles = limit + 0.1 + random.next() * 3;
      add(route.school, stop, stop.zone, miles, random.chance(0.04) ? "iep_transport" : "none");
    }
  }
  for (let n = 0; n < 12 * factors.rows; n += 1) {
    const school = random.pick(schools);
    add(school, null, random.pick(ZONES), 0.2 + random.next() * 4);
  }
  plantEligibility(random, routes, students);
  students.forEach((student, index) => (student.id = studentId.format(index + 1)));
  return random.shuffle(students).sort((x, y) => x.id.localeCompare(y.id));
}

/** Riders the policy does and does not carry: short walks, the exact limit, hazard zones, IEPs, wheelchairs. */
function plantEligibility(random: Random, routes: Route[], students: Student[]): void {
  const planted = new Set<Student>();
  const pick = (candidates: Student[]): Student => {
    const student = random.pick(candidates.filter((s) => !planted.has(s)));
    planted.add(student);
    return student;
  };
  const hazard = students.filter((s) => s.stop !== null && HAZARD_ZONES.includes(s.zone));
  for (let n = 0; n < 2; n += 1) pick(hazard).miles = 0.4 + Math.round(random.next() * 4) / 10;
  // The rest on plain riders (no hazard zone, no transport needs), one case each.
  const riderOf = (route: Route): Student =>
    pick(
      students.filter(
        (s) =>
          s.stop !== null &&
          route.stops.includes(s.stop) &&
          s.needs === "none" &&
          !HAZARD_ZONES.includes(s.zone),
      ),
    );
  for (const route of routes.filter((_, index) => index % 2 === 0))
    riderOf(route).miles = walkLimit(route.school.level) - 0.1 - Math.round(random.next() * 5) / 10;
  riderOf(routes.find((route) => route.school.level !== "elementary")!).miles = 1.2;
  riderOf(routes[1]!).miles = walkLimit(routes[1]!.school.level);
  riderOf(routes[2]!).miles = walkLimit(routes[2]!.school.level);
  // Living in a hazard zone, riding from a stop across the line: the home zone decides.
  Object.assign(riderOf(routes[0]!), { zone: HAZARD_ZONES[0], miles: 0.6 });
  const iep = riderOf(routes[3]!);
  iep.needs = "iep_transport";
  iep.miles = 0.3;
}

/** Wheelchair riders: on plain buses (the swaps), on a lift bus, and an IEP rider on a plain bus. */
function plantWheelchairs(random: Random, routes: Route[], students: Student[], swaps: number): void {
  const ridersOf = (route: Route): Student[] =>
    students.filter(
      (s) =>
        s.stop !== null &&
        route.stops.includes(s.stop) &&
        s.needs === "none" &&
        s.miles > walkLimit(s.school.level),
    );
  const plain = random.shuffle(routes.filter((route) => !route.bus.lift));
  for (const route of plain.slice(0, swaps)) random.pick(ridersOf(route)).needs = "wheelchair";
  random.pick(ridersOf(plain[swaps]!)).needs = "iep_transport";
  random.pick(ridersOf(routes.find((route) => route.bus.lift)!)).needs = "wheelchair";
}

/** Fills the transport database and writes its workspace documents for one scale. */
export function generateTransport(context: GenerateContext): void {
  const { random, factors } = context;
  const routeCount = 2 + 4 * factors.rows;
  const swaps = factors.rows >= 4 ? 3 : factors.rows >= 2 ? 2 : 1;
  const schools = makeSchools(random, 2 + factors.files);
  const buses = makeBuses(random, routeCount, swaps + 1);
  const drivers = makeDrivers(context, routeCount + 3);
  const routes = makeRoutes(random, schools, buses, drivers, routeCount);
  plantQualifications(random, routes);
  const closures = planClosures(random, routes, factors.rows - 1);
  const students = makeStudents(context, routes, schools);
  plantWheelchairs(random, routes, students, swaps);
  const world: TransportWorld = {
    schools,
    buses,
    drivers,
    routes,
    students,
    closures,
    shifts: planShifts(random, drivers, routes),
    ridership: planRidership(random, routes),
    mails: planMails(random, routes, drivers, 9 * factors.files + 1),
    avl: planRuns(random, routes, factors.rows),
  };
  insertWorld(context, world);
  writeTransportDocuments(context, world);
}
