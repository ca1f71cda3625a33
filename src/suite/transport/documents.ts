/** The office's shared drive: the transportation policy, the stop-closure notice and the incident inbox. */
import { MONTH_NAMES, addDays, renderEmail, renderMarkdown, weekdayName } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import {
  CROWDED_DAYS,
  DAILY_HOURS_LIMIT,
  HAZARD_ZONES,
  LATE_START_MINUTES,
  SPEED_LIMIT_MPH,
  UNLOAD_BEFORE_BELL_MINUTES,
  WALK_LIMITS,
  WEEKLY_HOURS_LIMIT,
  hhmm,
} from "./world.js";
import type { IncidentMail, Random, TransportWorld } from "./world.js";

export const POLICY = "policies/transportation-policy.md";
export const CLOSURES = "notices/stop-closures.md";
export const INBOX = "inbox/incidents/";

function writePolicy(context: GenerateContext): void {
  context.writeFile(
    POLICY,
    renderMarkdown("Student transportation policy", [
      "Adopted by the Board of Education; administered by the Transportation Office. Times are local (Central).",
      { heading: "Eligibility" },
      "A student is eligible for bus service when the walking distance from home to school is at least the minimum for the student's grade band:",
      {
        table: {
          headers: ["band", "grades", "minimum distance (miles)"],
          rows: WALK_LIMITS.map(([band, grades, miles]) => [band, grades, miles.toFixed(1)]),
        },
      },
      `Hazardous walking zones: students living in ${HAZARD_ZONES.join(" or ")} are eligible at any distance.`,
      "Special needs: a student whose IEP or 504 plan requires transportation (transport needs `iep_transport` or `wheelchair`) is eligible at any distance.",
      { heading: "Bus capacity" },
      `A bus's rated capacity assumes three elementary students per seat. Routes serving middle and high schools seat two students per seat: their capacity is two-thirds of the rated capacity, rounded down. A route is overcrowded when its AM boardings exceed its capacity on ${CROWDED_DAYS} or more days of the same week.`,
      { heading: "On-time arrival" },
      `Buses unload at least ${UNLOAD_BEFORE_BELL_MINUTES} minutes before the school's bell. A run's arrival is the first door opening inside the school's geofence in the bus's AVL export; a run is late when it arrives later than ${UNLOAD_BEFORE_BELL_MINUTES} minutes before the bell (exactly ${UNLOAD_BEFORE_BELL_MINUTES} minutes before is on time).`,
      `Late-start Wednesdays: on Wednesdays every school's bell rings ${LATE_START_MINUTES} minutes after its regular bell time.`,
      { heading: "Speed" },
      `Buses never exceed ${SPEED_LIMIT_MPH} mph. A speeding episode is a run of consecutive GPS fixes above ${SPEED_LIMIT_MPH} mph in one export; a fix at or below the limit ends it. Door and ignition events and unreadable lines do not end an episode.`,
      { heading: "AVL exports" },
      "One line per event: timestamp, bus, event (GPS, DOOR_OPEN, DOOR_CLOSE, IGN_ON, IGN_OFF), then position and speed for GPS fixes and the geofence (`geo=`, a stop id, a school id, DEPOT or NONE) for door events. Current units (firmware 3.x) stamp local time with its UTC offset and report mph; legacy units (firmware 2.x) stamp UTC (`Z`) and report km/h (1 mph = 1.609344 km/h). Exports also carry raw NMEA sentences, modem messages and truncated writes; lines that do not parse are ignored.",
      { heading: "Driver hours" },
      {
        table: {
          headers: ["limit", "hours"],
          rows: [
            ["on duty per day", DAILY_HOURS_LIMIT],
            ["on duty per week (Monday to Sunday)", WEEKLY_HOURS_LIMIT],
          ],
        },
      },
      "A shift is on duty from clock-in to clock-out; a day's hours are the sum of its shifts. A driver exceeds a limit when the hours are more than the limit.",
      { heading: "Driver qualifications" },
      "A route's driver holds a class A or B CDL with both the P (passenger) and S (school bus) endorsements and a medical card valid on the day (a card is valid through its expiry date). A driver of a bus with a wheelchair lift also holds current lift training (valid through its expiry date).",
      { heading: "Wheelchair riders" },
      "A route carrying a student who uses a wheelchair runs a bus with a wheelchair lift. When it does not, the route gets the spare lift-equipped bus with the lowest bus number (routes handled in route-id order); the bus it gave up returns to the spare pool.",
      { heading: "Stop closures" },
      "When a stop closes, it is closed in the routing system and its riders move to the next open stop further along the same route (higher sequence); when no open stop follows, to the nearest open stop before it.",
      { heading: "Incident reporting" },
      "Drivers e-mail every incident to the office. The office files a state report for every incident involving a collision (any contact with a vehicle or object), an injury to anyone on board, or an evacuation of the bus: one report per incident, with the route, the driver and the date the incident happened. Student behavior and mechanical problems go to the school and the shop and are not reported to the state. An incident already on file is not filed again.",
    ]),
  );
}

const REASONS = ["water main work", "sidewalk replacement", "road resurfacing", "bridge inspection"];

function writeClosures(context: GenerateContext, world: TransportWorld): void {
  const routeOf = (stopId: string): string =>
    world.routes.find((route) => route.stops.some((stop) => stop.id === stopId))!.id;
  context.writeFile(
    CLOSURES,
    renderMarkdown("Stop closures, week of 30 June 2025", [
      "From Public Works and the city's construction schedule. These stops close from Monday 30 June until further notice.",
      {
        table: {
          headers: ["stop", "route", "location", "reason"],
          rows: world.closures.map((stop) => [
            stop.id,
            routeOf(stop.id),
            stop.location,
            context.random.pick(REASONS),
          ]),
        },
      },
    ]),
  );
}

const SUBJECTS: Record<IncidentMail["category"], string[]> = {
  collision: ["Fender bender", "Minor accident on AM run", "Contact with parked car"],
  injury: ["Student hurt on bus", "Injury on my run", "Student fell"],
  evacuation: ["Had to evacuate", "Smoke on the bus", "Evacuation this run"],
  behavior: ["Fight on the bus", "Behavior problem", "Students standing"],
  mechanical: ["Warning light", "Brake issue", "Lift slow again"],
};

function body(random: Random, mail: IncidentMail): string {
  const covering =
    mail.driver === mail.route.driver ? "" : ` I was covering the route for ${mail.route.driver.name}.`;
  return story(random, mail) + covering;
}

function story(random: Random, mail: IncidentMail): string {
  const route = mail.route.id.slice(3);
  const where = random.pick([`on route ${route}`, `on Rt. ${route}`, `on the ${route} run`]);
  const day =
    mail.when === "today"
      ? "this morning"
      : mail.when === "yesterday"
        ? "yesterday morning"
        : `on ${weekdayName(mail.date)} (${Number(mail.date.slice(8))} June)`;
  const bus = `bus ${Number(mail.route.bus.id.slice(4))}`;
  switch (mail.category) {
    case "collision":
      return `${capital(day)} ${where} a ${random.pick(["pickup", "delivery van", "sedan"])} ${random.pick(["clipped the rear bumper of", "backed into the side of", "rear-ended"])} ${bus} at a stop light. ${random.pick(["No injuries, I checked every student.", "Nobody was hurt, no injuries to report.", "No injuries to anyone on board."])} Police report taken.`;
    case "injury":
      return `${capital(day)} ${where} a student tripped in the aisle when I braked for a deer and was injured (${random.pick(["cut on the chin", "sprained wrist", "bloody nose"])}). The school nurse met us at drop-off and called the parent.`;
    case "evacuation":
      return `${capital(day)} ${where} the heater fan started smoking, so we evacuated ${bus} on the shoulder and waited for the relief bus. Shop has the bus now.`;
    case "behavior":
      return `${capital(day)} ${where} two students got into a shoving match over a seat. I stopped the bus and separated them; no one got hurt. Please pass this on to the principal.`;
    default:
      return `${capital(day)} ${where} the ${random.pick(["ABS warning light came on", "air pressure gauge dropped", "wheelchair lift ran slow"])} on ${bus}. Finished the run fine; please have the shop take a look.`;
  }
}
const capital = (text: string): string => text[0]!.toUpperCase() + text.slice(1);

const sentHeader = (date: string, minutes: number): string =>
  `${weekdayName(date).slice(0, 3)}, ${Number(date.slice(8))} ${MONTH_NAMES[Number(date.slice(5, 7)) - 1]!.slice(0, 3)} ${date.slice(0, 4)} ${hhmm(minutes)} -0500`;

function writeMails(context: GenerateContext, world: TransportWorld): void {
  const { random } = context;
  type Headers = { From: string; Sent: string; To: string; Subject: string };
  const originals = new Map<IncidentMail, { text: string[]; headers: Headers }>();
  const ordered = world.mails.map((mail, index) => ({ mail, index, minutes: random.int(9 * 60, 17 * 60) }));
  for (const { mail, index, minutes } of ordered) {
    const original = world.mails.find(
      (other) => !other.forwarded && other.route === mail.route && other.date === mail.date,
    )!;
    if (!originals.has(original))
      originals.set(original, {
        text: [
          body(random, original),
          `${original.driver.name}\n${random.pick(["Sent from my phone", "Driver", "Transportation"])}`,
        ],
        headers: {
          From: `${original.driver.name} <${original.driver.email}>`,
          Sent: sentHeader(original.sent, minutes),
          To: "Transportation Office <transportation@district.k12.us>",
          Subject: random.pick(SUBJECTS[original.category]),
        },
      });
    const { text, headers } = originals.get(original)!;
    const rendered = mail.forwarded
      ? renderEmail(
          {
            From: "Dispatch <dispatch@district.k12.us>",
            Sent: sentHeader(addDays(original.sent, 1), 8 * 60 + 5),
            To: headers.To,
            Subject: `FW: ${headers.Subject}`,
          },
          [
            "Forwarding for the incident log in case this did not reach you.",
            `---------- Forwarded message ---------\nFrom: ${headers.From}\nSent: ${headers.Sent}\nSubject: ${headers.Subject}`,
            ...text,
          ],
        )
      : renderEmail(headers, text);
    const day = (mail.forwarded ? addDays(original.sent, 1) : original.sent).replaceAll("-", "");
    context.writeFile(`${INBOX}${day}-${String(index + 1).padStart(3, "0")}.eml`, rendered);
  }
}

export function writeTransportDocuments(context: GenerateContext, world: TransportWorld): void {
  writePolicy(context);
  writeClosures(context, world);
  writeMails(context, world);
}
