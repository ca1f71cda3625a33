import type { SeededRandom } from "../../core/index.js";
import type { GenerateContext } from "../../envs/index.js";
import {
  addDays,
  between,
  dateRange,
  groupBy,
  insertDrafts,
  makeDate,
  sample,
  toDayNumber,
  weightedPick,
} from "../../envs/index.js";
import {
  writeConnectionStandards,
  writeCompensationPolicy,
  writeCrewDutyRules,
  writeNetworkMemo,
  writeOpsEmails,
  writeRebookingMemo,
  writeStationMemos,
  writeWeatherExports,
} from "./documents.js";
import {
  AIRCRAFT_TYPES,
  BAND_THRESHOLDS,
  HUB,
  HUB_MCT,
  NOW_TIME,
  SPOKES,
  TIERS,
  UM_MCT,
  type AircraftType,
} from "./reference.js";
import { bookingId, crewId, flightId, memberId } from "./ids.js";
import type { BookingRecord, FlightRecord } from "./schema.js";

/** Minutes since the epoch day of an ISO date-time `YYYY-MM-DDTHH:MM`. */
export function minutesOf(stamp: string): number {
  return (
    toDayNumber(stamp.slice(0, 10)) * 1440 + Number(stamp.slice(11, 13)) * 60 + Number(stamp.slice(14, 16))
  );
}

/** The ISO date-time `minutes` after midnight of `date` (may run into the next day). */
export function stampAt(date: string, minutes: number): string {
  const day = Math.floor(minutes / 1440);
  const rest = minutes - day * 1440;
  const pad = (value: number): string => String(value).padStart(2, "0");
  return `${addDays(date, day)}T${pad(Math.floor(rest / 60))}:${pad(rest % 60)}`;
}

const PNR_CHARACTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A booking reference that is not `taken` yet: six letters and digits, without I, O, 0 and 1. */
export function drawPnr(random: SeededRandom, taken: (pnr: string) => boolean): string {
  for (;;) {
    let code = "";
    for (let i = 0; i < 6; i += 1) code += PNR_CHARACTERS[random.int(0, PNR_CHARACTERS.length - 1)];
    if (!taken(code)) return code;
  }
}

/** The ISO date-time of a minute count as `minutesOf` gives it (its inverse). */
export function stampOf(minutes: number): string {
  return stampAt("1970-01-01", minutes);
}

function blockMinutes(distanceKm: number): number {
  return Math.round((25 + distanceKm / 7.5) / 5) * 5;
}

/** A flight while the schedule is built: its row, the seats of its aircraft and its place in a rotation. */
interface FlightRow extends FlightRecord {
  seats: number;
  rotation: number;
  sector: number;
  weatherListed: boolean;
}

type BookingRow = Omit<BookingRecord, "rebooked_from">;

/** A flight of the schedule as planned (numbered once the schedule is sorted): no actual times yet. */
function scheduledFlight(leg: {
  number: string;
  date: string;
  route: string;
  tail: string;
  seats: number;
  departs: number;
  block: number;
  rotation: number;
  sector: number;
}): FlightRow {
  const [origin, destination] = leg.route.split("-") as [string, string];
  return {
    flight_id: "",
    flight_number: leg.number,
    flight_date: leg.date,
    route_id: leg.route,
    origin,
    destination,
    tail: leg.tail,
    scheduled_departure: stampAt(leg.date, leg.departs),
    scheduled_arrival: stampAt(leg.date, leg.departs + leg.block),
    actual_departure: null,
    actual_arrival: null,
    status: "scheduled",
    delay_code: null,
    pax_boarded: null,
    seats: leg.seats,
    rotation: leg.rotation,
    sector: leg.sector,
    weatherListed: false,
  };
}

/** The columns of `flights` and `bookings`, named as the rows built here name their fields. */
const FLIGHT_COLUMNS =
  "flight_id, flight_number, flight_date, route_id, origin, destination, tail, scheduled_departure, scheduled_arrival, actual_departure, actual_arrival, status, delay_code, pax_boarded";
const BOOKING_COLUMNS =
  "booking_id, pnr, segment, flight_id, passenger_name, member_id, fare_class, status, booked_at, notes, rebooked_from";

const COMPENSATION_SCENARIOS = ["exact", "dep-only", "ra-weather", "wx", "ra-plain", "under"] as const;

const UM_NOTES = [
  "UMNR age 9 - escort form on file, met by aunt at arrival",
  "Unaccompanied minor, 11 yrs; handover to gate agent at each stop",
  "UM service booked (age 7), guardian contact on file",
  "Minor travelling alone - UMNR, age 13",
];
const UM_DISTRACTOR_NOTES = [
  "UM service declined - travelling with father",
  "Child (8) travelling with grandmother; no UM service",
  "Parent asked about UM service for next trip",
];
const OTHER_NOTES = [
  "WCHR - wheelchair to aircraft door",
  "VGML vegetarian meal",
  "Pet in cabin (cat, carrier under seat)",
  "Requests aisle seat",
  "Travelling with infant on lap",
  "Oxygen concentrator approved",
  "Gate-check stroller",
];

export function generateAirline(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate } = context;
  const today = referenceDate;
  const yesterday = addDays(today, -1);
  const tomorrow = addDays(today, 1);
  const window = [yesterday, today, tomorrow];
  const firstDay = makeDate(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 1);
  const now = minutesOf(`${today}T${NOW_TIME}`);

  // Stations and routes.
  const spokeCount = Math.min(SPOKES.length, 2 + 4 * factors.rows);
  const spokes = SPOKES.slice(0, spokeCount);
  db.prepare("INSERT INTO airports VALUES (?, ?, ?, ?, 1)").run(HUB.code, HUB.name, HUB.city, HUB.country);
  const insertAirport = db.prepare("INSERT INTO airports VALUES (?, ?, ?, ?, 0)");
  const insertRoute = db.prepare("INSERT INTO routes VALUES (?, ?, ?, ?)");
  const distance = new Map<string, number>();
  const routeLoad = new Map<string, number>();
  for (const [code, name, city, country, km] of spokes) {
    insertAirport.run(code, name, city, country);
    for (const [origin, destination] of [
      [HUB.code, code],
      [code, HUB.code],
    ] as const) {
      const routeId = `${origin}-${destination}`;
      insertRoute.run(routeId, origin, destination, km);
      distance.set(routeId, km);
      routeLoad.set(routeId, between(random, 0.5, 0.9));
    }
  }

  // Fleet: the grounded type first (spares with the lowest tails), then the rotation aircraft.
  const rotations = 2 * factors.rows;
  const groundedType = AIRCRAFT_TYPES[0] as AircraftType;
  const aircraft: Array<{ tail: string; type: AircraftType; status: string }> = [];
  let tailNumber = 101;
  const nextTail = (): string => `N${tailNumber++}RA`;
  const spareStatuses = ["maintenance", "active", "active"];
  for (const status of spareStatuses) aircraft.push({ tail: nextTail(), type: groundedType, status });
  const rotationTails: string[] = [];
  const rotationTypes: AircraftType[] = [];
  for (let r = 0; r < rotations; r += 1) {
    const type = AIRCRAFT_TYPES[r % AIRCRAFT_TYPES.length] as AircraftType;
    const tail = nextTail();
    aircraft.push({ tail, type, status: "active" });
    rotationTails.push(tail);
    rotationTypes.push(type);
  }
  for (const type of AIRCRAFT_TYPES.slice(1))
    for (let n = 0; n < Math.max(1, factors.rows / 2); n += 1)
      aircraft.push({ tail: nextTail(), type, status: random.chance(0.5) ? "maintenance" : "active" });
  const seatsOf = new Map(aircraft.map((plane) => [plane.tail, plane.type.seats]));
  insertDrafts(
    db,
    "aircraft",
    "tail, type_code, type_name, seats, status, base, delivered_on",
    aircraft,
    (plane) => ({
      type_code: plane.type.code,
      type_name: plane.type.name,
      seats: plane.type.seats,
      base: HUB.code,
      delivered_on: addDays(today, -between(random, 400, 5000) | 0),
    }),
  );

  // The schedule: every rotation flies hub-A-hub-B-hub every day of the month up to tomorrow.
  const flights: FlightRow[] = [];
  const days = dateRange(firstDay, tomorrow);
  const plan: Array<{ rotation: number; sector: number; route: string; departs: number; block: number }> = [];
  for (let r = 0; r < rotations; r += 1) {
    const a = spokes[(2 * r) % spokes.length]?.[0] as string;
    const b = spokes[(2 * r + 1) % spokes.length]?.[0] as string;
    let clock = r === 0 ? 420 : 330 + ((r * 97) % 450);
    const legs = [`${HUB.code}-${a}`, `${a}-${HUB.code}`, `${HUB.code}-${b}`, `${b}-${HUB.code}`];
    legs.forEach((route, sector) => {
      const block = blockMinutes(distance.get(route) ?? 500);
      plan.push({ rotation: r, sector, route, departs: clock, block });
      clock += block + 40;
    });
  }
  for (const day of days)
    for (const leg of plan) {
      const tail = rotationTails[leg.rotation] as string;
      const number = `RA ${1000 + leg.rotation * 4 + leg.sector + 1}`;
      flights.push(scheduledFlight({ ...leg, number, date: day, tail, seats: seatsOf.get(tail) ?? 0 }));
    }
  // Extra sections tomorrow on the second spare of the grounded type (it is busy while they fly).
  const spareTail = aircraft[1]?.tail as string;
  const firstSpoke = spokes[0]?.[0] as string;
  for (const [number, route, departs] of [
    ["RA 9001", `${HUB.code}-${firstSpoke}`, 490],
    ["RA 9002", `${firstSpoke}-${HUB.code}`, 575],
  ] as const)
    flights.push(
      scheduledFlight({
        number,
        date: tomorrow,
        route,
        tail: spareTail,
        seats: seatsOf.get(spareTail) ?? 0,
        departs,
        block: blockMinutes(distance.get(route) ?? 200),
        rotation: -1,
        sector: number === "RA 9001" ? 0 : 1,
      }),
    );
  flights.sort((x, y) =>
    x.scheduled_departure === y.scheduled_departure
      ? x.flight_number.localeCompare(y.flight_number)
      : x.scheduled_departure.localeCompare(y.scheduled_departure),
  );
  flights.forEach((flight, index) => (flight.flight_id = flightId.format(index + 1)));

  // The weakest route loses two flights this month (before the booking window) to cancellations.
  const weakest = [...routeLoad.entries()].sort((x, y) => x[1] - y[1])[0]?.[0];
  for (const flight of sample(
    random,
    flights.filter((flight) => flight.route_id === weakest && flight.flight_date < addDays(yesterday, -1)),
    2,
  ))
    flight.status = "cancelled";

  // Actual times with knock-on delays along each rotation, for everything that has departed by now.
  const byRotationDay = groupBy(flights, (flight) => `${flight.rotation}|${flight.flight_date}`);
  const ownCodes = ["TECH", "WX", "ATC", "CREW", "OPS", "SEC"];
  const ownWeights = [3, 3, 2, 2, 3, 0.3];
  for (const legs of byRotationDay.values()) {
    let readyAt = -Infinity;
    for (const flight of legs) {
      const scheduled = minutesOf(flight.scheduled_departure);
      if (scheduled >= now) break;
      if (flight.status === "cancelled") continue;
      if (flight.flight_date < today && random.chance(0.012)) {
        flight.status = "cancelled";
        continue;
      }
      const roll = random.next();
      const own = roll < 0.7 ? random.int(-5, 10) : roll < 0.93 ? random.int(15, 90) : random.int(100, 260);
      const departs = Math.max(scheduled + own, readyAt + 30);
      const delay = departs - scheduled;
      if (delay >= 15) {
        if (departs === readyAt + 30 && readyAt + 30 > scheduled + own) flight.delay_code = "RA";
        else flight.delay_code = weightedPick(random, ownCodes, ownWeights);
      }
      const arrives = departs + daysBetweenMinutes(flight) + random.int(-12, 8);
      flight.actual_departure = stampOf(departs);
      flight.actual_arrival = stampOf(arrives);
      if (flight.delay_code === "RA") flight.weatherListed = random.chance(0.4);
      if (flight.delay_code === "WX") flight.weatherListed = true;
      readyAt = arrives;
    }
  }
  const setActual = (
    flight: FlightRow,
    departDelay: number,
    arriveDelay: number,
    code: string | null,
  ): void => {
    flight.actual_departure = stampOf(minutesOf(flight.scheduled_departure) + departDelay);
    flight.actual_arrival = stampOf(minutesOf(flight.scheduled_arrival) + arriveDelay);
    flight.delay_code = code;
    flight.weatherListed = code === "WX";
    flight.status = "arrived";
  };

  // Yesterday's compensation scenarios, on flights out of the hub.
  const yesterdayFlights = flights.filter(
    (flight) => flight.flight_date === yesterday && flight.rotation >= 0,
  );
  const outbound = random.shuffle(yesterdayFlights.filter((flight) => flight.origin === HUB.code));
  const scenarioCount = Math.min(outbound.length, 4 + 2 * factors.rows);
  for (let index = 0; index < scenarioCount; index += 1) {
    const flight = outbound[index] as FlightRow;
    const km = distance.get(flight.route_id) ?? 0;
    const threshold =
      (BAND_THRESHOLDS.find((band) => km <= band.maxKm) ?? BAND_THRESHOLDS[2])?.minutes ?? 180;
    const scenario = COMPENSATION_SCENARIOS[index % COMPENSATION_SCENARIOS.length];
    if (scenario === "exact") setActual(flight, threshold + 5, threshold, "TECH");
    else if (scenario === "wx") setActual(flight, threshold + 45, threshold + 40, "WX");
    else if (scenario === "ra-weather") {
      setActual(flight, threshold + 30, threshold + 25, "RA");
      flight.weatherListed = true;
    } else if (scenario === "ra-plain") setActual(flight, threshold + 20, threshold + 15, "RA");
    else if (scenario === "dep-only") setActual(flight, threshold + 10, threshold - 10, "OPS");
    else setActual(flight, threshold + 2, threshold - 1, "CREW");
  }

  // Statuses of today's flights and the cancellations of the day.
  for (const flight of flights) {
    if (flight.status === "cancelled" || flight.actual_departure === null) continue;
    flight.status = minutesOf(flight.actual_arrival as string) <= now ? "arrived" : "departed";
    if (flight.flight_date < today) flight.status = "arrived";
  }
  // Hub connections (inbound then outbound 40-150 minutes later) in the booking window.
  const connectionPairs: Array<[FlightRow, FlightRow]> = [];
  for (const day of window) {
    const dayFlights = flights.filter((flight) => flight.flight_date === day);
    for (const first of dayFlights.filter((flight) => flight.destination === HUB.code)) {
      for (const second of dayFlights.filter((flight) => flight.origin === HUB.code)) {
        if (second.destination === first.origin) continue;
        const gap = minutesOf(second.scheduled_departure) - minutesOf(first.scheduled_arrival);
        if (gap >= 40 && gap <= 150) connectionPairs.push([first, second]);
      }
    }
  }
  const withOnward = new Set(connectionPairs.map(([first]) => first.flight_id));
  const todaysInbound = flights.filter(
    (flight) =>
      flight.flight_date === today &&
      flight.rotation > 0 &&
      flight.destination === HUB.code &&
      withOnward.has(flight.flight_id),
  );
  // Flights still to come first; flights cancelled earlier this morning when the afternoon has no connections.
  const cancellable = [
    ...random.shuffle(todaysInbound.filter((flight) => minutesOf(flight.scheduled_departure) > now + 30)),
    ...random.shuffle(todaysInbound.filter((flight) => minutesOf(flight.scheduled_departure) <= now + 30)),
  ];
  const cancelledToday = cancellable.slice(0, factors.rows);
  const alternativeIds = new Set<string>();
  for (const flight of cancelledToday) {
    flight.status = "cancelled";
    flight.actual_departure = null;
    flight.actual_arrival = null;
    flight.delay_code = null;
    flight.weatherListed = false;
    for (const other of flights)
      if (
        other.route_id === flight.route_id &&
        other.scheduled_departure > flight.scheduled_departure &&
        other.flight_date <= tomorrow
      )
        alternativeIds.add(other.flight_id);
  }

  // Yesterday's planted connections: a tight miss, a late inbound that still made a delayed outbound, a clear miss.
  const scenarioFlights = new Set(outbound.slice(0, scenarioCount).map((flight) => flight.flight_id));
  const plantedPairs: Array<[FlightRow, FlightRow]> = [];
  const usedPlant = new Set<string>();
  for (const pair of random.shuffle(connectionPairs.filter(([first]) => first.flight_date === yesterday))) {
    if (plantedPairs.length >= 4 * factors.rows) break;
    const [first, second] = pair;
    // 0: tight miss, 1: made with little time (under the minors' minimum), 2: late inbound onto a delayed onward flight, 3: clear miss.
    const kind = plantedPairs.length % 4;
    const scheduledGap = minutesOf(second.scheduled_departure) - minutesOf(first.scheduled_arrival);
    if (kind === 1 && scheduledGap < 60) continue;
    // Only the "made it on a delayed onward flight" plant moves the onward flight, so it avoids the compensation scenarios.
    if (usedPlant.has(first.flight_id) || usedPlant.has(second.flight_id)) continue;
    if (kind === 2 && scenarioFlights.has(second.flight_id)) continue;
    if (first.status === "cancelled" || second.status === "cancelled") continue;
    usedPlant.add(first.flight_id);
    usedPlant.add(second.flight_id);
    const secondDepart = minutesOf(second.actual_departure as string);
    const firstDepartDelay =
      minutesOf(first.actual_departure as string) - minutesOf(first.scheduled_departure);
    const schedArrive = minutesOf(first.scheduled_arrival);
    let arriveAt: number;
    if (kind === 0) arriveAt = secondDepart - random.int(10, 30);
    else if (kind === 1) arriveAt = secondDepart - random.int(40, 55);
    else if (kind === 2) {
      arriveAt = minutesOf(second.scheduled_departure) + random.int(5, 20);
      const departs = arriveAt + random.int(45, 70);
      const shift = departs - secondDepart;
      second.actual_departure = stampOf(departs);
      second.actual_arrival = stampOf(minutesOf(second.actual_arrival as string) + shift);
      second.delay_code = "RA";
      second.weatherListed = false;
    } else arriveAt = secondDepart + random.int(15, 60);
    const arriveDelay = arriveAt - schedArrive;
    setActual(first, Math.max(firstDepartDelay, arriveDelay + random.int(-5, 5)), arriveDelay, "TECH");
    plantedPairs.push(pair);
  }

  // Bookings: target loads per flight, connecting itineraries first, then point-to-point passengers.
  const windowFlights = flights.filter((flight) => window.includes(flight.flight_date));
  const target = new Map<string, number>();
  for (const flight of windowFlights) {
    let count = Math.round(
      flight.seats * (routeLoad.get(flight.route_id) ?? 0.7) * between(random, 0.85, 1.1),
    );
    if (alternativeIds.has(flight.flight_id)) count = flight.seats - random.int(2, 5);
    if (cancelledToday.includes(flight)) count = Math.round(flight.seats * between(random, 0.6, 0.8));
    target.set(flight.flight_id, Math.max(6, Math.min(flight.seats, count)));
  }
  const load = new Map<string, number>();
  const room = (flight: FlightRow): boolean =>
    (load.get(flight.flight_id) ?? 0) < (target.get(flight.flight_id) ?? 0);
  const itineraries: FlightRow[][] = [];
  // Connecting passengers of the cancelled flights: booked late, no loyalty tier, so only their connection ranks them.
  const lateConnections = new Set<FlightRow[]>();
  const addItinerary = (legs: FlightRow[]): void => {
    for (const leg of legs) load.set(leg.flight_id, (load.get(leg.flight_id) ?? 0) + 1);
    itineraries.push(legs);
  };
  for (const pair of plantedPairs)
    for (let n = 0; n < 2; n += 1) if (room(pair[0]) && room(pair[1])) addItinerary(pair);
  for (const flight of cancelledToday) {
    const onward = connectionPairs.filter(([first, second]) => first === flight && room(second));
    for (const pair of onward.slice(0, 3)) {
      addItinerary(pair);
      lateConnections.add(itineraries[itineraries.length - 1] as FlightRow[]);
    }
  }
  for (const pair of connectionPairs) {
    const wanted = random.int(0, 2);
    for (let n = 0; n < wanted; n += 1) if (room(pair[0]) && room(pair[1])) addItinerary(pair);
  }
  for (const flight of windowFlights) while (room(flight)) addItinerary([flight]);
  const shuffledItineraries = random.shuffle(itineraries);

  // Loyalty members and passengers.
  const memberCount = Math.ceil(shuffledItineraries.length * 0.2);
  const insertMember = db.prepare("INSERT INTO loyalty_members VALUES (?, ?, ?, ?)");
  const members: Array<{ id: string; name: string }> = [];
  for (let n = 1; n <= memberCount; n += 1) {
    const name = `${faker.person.firstName()} ${faker.person.lastName()}`;
    const tierRoll = random.next();
    const tier =
      tierRoll < 0.5 ? TIERS[0] : tierRoll < 0.75 ? TIERS[1] : tierRoll < 0.9 ? TIERS[2] : TIERS[3];
    const id = memberId.format(n);
    members.push({ id, name });
    insertMember.run(id, name, tier, addDays(today, -random.int(30, 3000)));
  }
  const bookings: BookingRow[] = [];
  const itineraryOf = new Map<string, FlightRow[]>();
  for (const legs of shuffledItineraries) {
    const pnr = drawPnr(random, (code) => itineraryOf.has(code));
    itineraryOf.set(pnr, legs);
    const late = lateConnections.has(legs);
    const member = random.chance(0.35) && !late ? random.pick(members) : null;
    const name = member ? member.name : `${faker.person.firstName()} ${faker.person.lastName()}`;
    const fare = random.next() < 0.12 ? "J" : random.next() < 0.3 ? "W" : "Y";
    const firstLeg = legs[0] as FlightRow;
    const bookedAt = stampAt(
      addDays(firstLeg.flight_date, late ? -1 : -random.int(2, 70)),
      random.int(360, 1380),
    );
    const note = random.chance(0.08) ? random.pick(OTHER_NOTES) : null;
    const cancelled = random.chance(0.03) && !late;
    legs.forEach((leg, index) =>
      bookings.push({
        booking_id: "",
        pnr,
        segment: index + 1,
        flight_id: leg.flight_id,
        passenger_name: name,
        member_id: member?.id ?? null,
        fare_class: fare,
        status: cancelled ? "cancelled" : "confirmed",
        booked_at: bookedAt,
        notes: note,
      }),
    );
  }
  const byPnr = groupBy(bookings, (booking) => booking.pnr);
  const bookingsOfPnr = (pnr: string): BookingRow[] => byPnr.get(pnr) ?? [];

  // Minors' notes: on yesterday's connections (by the connection's real gap) and on today's cancelled flights.
  const gapOf = (legs: FlightRow[]): number =>
    minutesOf(legs[1]?.actual_departure as string) - minutesOf(legs[0]?.actual_arrival as string);
  const yesterdayConnections = [...itineraryOf.entries()].filter(
    ([pnr, legs]) =>
      legs.length === 2 &&
      legs[0]?.flight_date === yesterday &&
      legs[0].actual_arrival !== null &&
      legs[1]?.actual_departure !== null &&
      bookingsOfPnr(pnr)[0]?.status === "confirmed",
  );
  const noted = new Set<string>();
  const noteOn = (pnr: string, text: string): void => {
    noted.add(pnr);
    for (const booking of bookingsOfPnr(pnr)) booking.notes = text;
  };
  const byGap = (low: number, high: number): string[] =>
    yesterdayConnections
      .filter(([pnr, legs]) => !noted.has(pnr) && gapOf(legs) >= low && gapOf(legs) < high)
      .map(([pnr]) => pnr);
  const umCount = factors.rows;
  for (let n = 0; n < umCount; n += 1) {
    for (const [low, high] of [
      [-600, HUB_MCT],
      [HUB_MCT, UM_MCT],
      [UM_MCT, 600],
    ] as const) {
      const pick = byGap(low, high)[0];
      if (pick) noteOn(pick, UM_NOTES[random.int(0, UM_NOTES.length - 1)] as string);
    }
    const distractor = byGap(-600, UM_MCT)[0];
    if (distractor) noteOn(distractor, UM_DISTRACTOR_NOTES[n % UM_DISTRACTOR_NOTES.length] as string);
  }
  for (const flight of cancelledToday) {
    const onFlight = bookings.filter(
      (booking) =>
        booking.flight_id === flight.flight_id && booking.status === "confirmed" && !noted.has(booking.pnr),
    );
    const singles = onFlight.filter((booking) => (itineraryOf.get(booking.pnr)?.length ?? 0) === 1);
    // Booked late and without a loyalty tier: only the UMNR rule puts these passengers first.
    const [late, distractor] = singles
      .filter((booking) => booking.member_id === null)
      .sort((x, y) => y.booked_at.localeCompare(x.booked_at));
    if (late) noteOn(late.pnr, UM_NOTES[random.int(0, UM_NOTES.length - 1)] as string);
    if (distractor) noteOn(distractor.pnr, UM_DISTRACTOR_NOTES[random.int(0, 2)] as string);
  }

  // Booking outcomes for flights that have departed: flown, no-show, or a missed connection (no-show onward).
  for (const [pnr, legs] of itineraryOf) {
    const rows = bookingsOfPnr(pnr);
    legs.forEach((leg, index) => {
      const row = rows[index] as BookingRow;
      if (row.status === "cancelled" || leg.actual_departure === null) return;
      if (index > 0 && legs[0]?.status === "cancelled") return;
      row.status = random.chance(0.05) ? "no_show" : "flown";
    });
    if (legs.length === 2 && legs[0]?.actual_arrival && legs[1]?.actual_departure) {
      const [first, second] = rows as [BookingRow, BookingRow];
      if (first.status === "no_show") second.status = "no_show";
      else if (first.status === "flown" && gapOf(legs) < HUB_MCT) second.status = "no_show";
    }
  }
  // A passenger who made yesterday's connection but never boarded the onward flight (stayed in Boston).
  const stayedAtHub = yesterdayConnections.find(
    ([pnr, legs]) =>
      gapOf(legs) >= HUB_MCT && bookingsOfPnr(pnr).every((booking) => booking.status === "flown"),
  );
  if (stayedAtHub) (bookingsOfPnr(stayedAtHub[0])[1] as BookingRow).status = "no_show";
  // And one who never showed up for the inbound flight (both segments no-show).
  const neverCame = yesterdayConnections.find(
    ([pnr]) => pnr !== stayedAtHub?.[0] && !noted.has(pnr) && bookingsOfPnr(pnr)[0]?.status === "flown",
  );
  if (neverCame) for (const booking of bookingsOfPnr(neverCame[0])) booking.status = "no_show";
  bookings.sort((x, y) =>
    x.flight_id === y.flight_id
      ? x.booked_at.localeCompare(y.booked_at) || x.pnr.localeCompare(y.pnr)
      : x.flight_id.localeCompare(y.flight_id),
  );
  bookings.forEach((booking, index) => (booking.booking_id = bookingId.format(index + 1)));
  const flownCount = new Map<string, number>();
  for (const booking of bookings)
    if (booking.status === "flown")
      flownCount.set(booking.flight_id, (flownCount.get(booking.flight_id) ?? 0) + 1);
  for (const flight of flights)
    if (flight.status === "arrived" || flight.status === "departed")
      flight.pax_boarded = window.includes(flight.flight_date)
        ? (flownCount.get(flight.flight_id) ?? 0)
        : Math.min(
            flight.seats,
            Math.round(flight.seats * (routeLoad.get(flight.route_id) ?? 0.7) * between(random, 0.8, 1.15)),
          );
  insertDrafts(db, "flights", FLIGHT_COLUMNS, flights, (flight) => ({ ...flight }));
  insertDrafts(db, "bookings", BOOKING_COLUMNS, bookings, (booking) => ({ ...booking, rebooked_from: null }));

  generateCrew(context, flights, rotationTypes, window);

  // Workspace documents.
  writeCompensationPolicy(context);
  writeConnectionStandards(context);
  writeRebookingMemo(context);
  writeNetworkMemo(context);
  writeCrewDutyRules(context);
  const weatherDays = Array.from({ length: 3 * factors.files }, (_, index) => addDays(yesterday, -index));
  writeWeatherExports(
    context,
    weatherDays.map((day) => ({
      day,
      rows: flights
        .filter((flight) => flight.flight_date === day && flight.weatherListed)
        .map((flight) => ({
          flight_number: flight.flight_number,
          station: flight.delay_code === "WX" ? flight.origin : HUB.code,
          delay_minutes: minutesOf(flight.actual_arrival as string) - minutesOf(flight.scheduled_arrival),
        })),
    })),
  );
  const groundedTail = rotationTails[0] as string;
  writeOpsEmails(context, {
    groundedTail,
    groundedType: groundedType.name,
    maintenanceTail: aircraft[0]?.tail as string,
    count: 3 * factors.files,
    spokes: spokes.map((spoke) => spoke[0]),
  });
  writeStationMemos(
    context,
    spokes.slice(0, 2 * factors.files).map((spoke) => ({ code: spoke[0], city: spoke[2] })),
  );
}

function daysBetweenMinutes(flight: FlightRow): number {
  return minutesOf(flight.scheduled_arrival) - minutesOf(flight.scheduled_departure);
}

/** Crew and their assignments for the booking window: one captain, first officer and cabin crew per sector. */
function generateCrew(
  context: GenerateContext,
  flights: FlightRow[],
  rotationTypes: AircraftType[],
  window: string[],
): void {
  const { db, random, faker } = context;
  const roles = ["captain", "first_officer", "cabin"] as const;
  const insertCrew = db.prepare("INSERT INTO crew VALUES (?, ?, ?, ?, ?, ?)");
  const pool: Array<{ id: string; role: string; quals: string[]; status: string; lastRelease: number }> = [];
  let next = 1;
  const typeCodes = AIRCRAFT_TYPES.map((type) => type.code);
  for (const role of roles) {
    for (const type of AIRCRAFT_TYPES) {
      const rotationsOfType = rotationTypes.filter((t) => t.code === type.code).length;
      const count = Math.ceil(rotationsOfType * 1.7) + 2;
      for (let n = 0; n < count; n += 1) {
        const quals =
          role === "cabin"
            ? [
                type.code,
                ...sample(
                  random,
                  typeCodes.filter((code) => code !== type.code),
                  random.int(1, 2),
                ),
              ].sort()
            : random.chance(0.2)
              ? [type.code, random.pick(typeCodes.filter((code) => code !== type.code))].sort()
              : [type.code];
        const status = n === count - 1 ? "reserve" : random.chance(0.08) ? "leave" : "active";
        const id = crewId.format(next++);
        pool.push({ id, role, quals, status, lastRelease: -Infinity });
        insertCrew.run(
          id,
          `${faker.person.firstName()} ${faker.person.lastName()}`,
          role,
          HUB.code,
          quals.join(","),
          status,
        );
      }
    }
  }
  const insertAssignment = db.prepare(
    "INSERT INTO crew_assignments (crew_id, flight_id, position) VALUES (?, ?, ?)",
  );
  for (const day of window) {
    const duties = groupBy(
      flights.filter((flight) => flight.flight_date === day && flight.rotation >= 0),
      (flight) => flight.rotation,
    );
    const ordered = [...duties.entries()].sort(
      (x, y) =>
        minutesOf(x[1][0]?.scheduled_departure as string) - minutesOf(y[1][0]?.scheduled_departure as string),
    );
    const busy = new Set<string>();
    for (const [rotation, legs] of ordered) {
      const type = rotationTypes[rotation]?.code as string;
      const report = minutesOf(legs[0]?.scheduled_departure as string) - 60;
      const release = minutesOf(legs[legs.length - 1]?.scheduled_arrival as string) + 30;
      for (const role of roles) {
        const candidates = random.shuffle(
          pool.filter(
            (member) =>
              member.role === role &&
              member.status === "active" &&
              member.quals.includes(type) &&
              !busy.has(member.id) &&
              report - member.lastRelease >= 11 * 60,
          ),
        );
        const chosen = candidates[0];
        if (!chosen) continue;
        busy.add(chosen.id);
        chosen.lastRelease = release;
        for (const leg of legs)
          insertAssignment.run(chosen.id, leg.flight_id, role === "cabin" ? "cabin_1" : role);
      }
    }
  }
}
