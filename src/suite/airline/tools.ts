import { z } from "zod";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import {
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  insertKeyedRow,
  requireEntity,
  updateEntity,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
  optionalDate,
} from "../../envs/index.js";
import { bookingId, crewId, flightId, memberId, tailNumber } from "./ids.js";
import { minutesOf } from "./generate.js";

const airportCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "expected a three-letter IATA airport code such as 'BOS'")
  .describe("IATA airport code, e.g. 'BOS'");

const listAirports = defineListTool({
  name: "list_airports",
  description:
    "List the stations the airline serves (code, name, city, country, is_hub). Paginated: returns `airports`, `page`, `per_page`, `total`, `has_more`.",
  key: "airports",
  from: "airports",
  orderBy: "code",
  map: (row) => withBooleans(row, "is_hub"),
});

const listRoutes = defineListTool({
  name: "list_routes",
  description:
    "List routes (route_id 'ORIGIN-DESTINATION', origin, destination, distance_km). Paginated: returns `routes`, `page`, `per_page`, `total`, `has_more`.",
  filters: { origin: airportCode.optional(), destination: airportCode.optional() },
  key: "routes",
  from: "routes",
  where: { origin: "=", destination: "=" },
  orderBy: "route_id",
});

const aircraftStatus = z.enum(["active", "maintenance", "grounded"]);

const listAircraft = defineListTool({
  name: "list_aircraft",
  description:
    "List the fleet: tail, type_code, type_name, seats, status (active, maintenance, grounded), base. Paginated: returns `aircraft`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    type_code: z.string().optional().describe("Only aircraft of this type code, e.g. 'AT46'"),
    status: aircraftStatus.optional().describe("Only aircraft in this status"),
  },
  key: "aircraft",
  from: "aircraft",
  where: { type_code: "=", status: "=" },
  orderBy: "tail",
});

const getAircraft = defineGetTool({
  name: "get_aircraft",
  description: "Get one aircraft by tail number. Returns `aircraft`.",
  input: { tail: tailNumber.schema("The aircraft's tail number") },
  key: "aircraft",
  from: "aircraft",
  notFound: tailNumber,
});

const FLIGHT_COLUMNS =
  "flight_id, flight_number, flight_date, route_id, origin, destination, tail, scheduled_departure, scheduled_arrival, status, pax_boarded";

const listFlightsBase = defineListTool({
  name: "list_flights",
  description:
    "List flights from the schedule (scheduled times in local time, tail of the aircraft operating it, status scheduled/departed/arrived/cancelled, pax_boarded once it has flown). Actual times and delay codes come from get_flight_status. Ordered by scheduled departure. Paginated: returns `flights`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    date: optionalDate("Only flights on this flight date, YYYY-MM-DD"),
    date_from: optionalDate("Only flights on or after this date, YYYY-MM-DD"),
    date_to: optionalDate("Only flights on or before this date, YYYY-MM-DD"),
    origin: airportCode.optional(),
    destination: airportCode.optional(),
    status: z.enum(["scheduled", "departed", "arrived", "cancelled"]).optional(),
    tail: tailNumber.schema("Only flights operated by this aircraft").optional(),
  },
  key: "flights",
  from: "flights",
  select: FLIGHT_COLUMNS,
  where: {
    date: "flight_date = ?",
    date_from: "flight_date >= ?",
    date_to: "flight_date <= ?",
    origin: "=",
    destination: "=",
    status: "=",
    tail: "=",
  },
  orderBy: "scheduled_departure, flight_id",
});

/** The schedule listing times out now and then on deep pages (a 503 to retry). */
const listFlights = withTransientFailures(listFlightsBase, { when: (input) => input.page === 3 });

/** The confirmed bookings of a flight: the seats taken. */
export function seatsBooked(db: ToolContext["db"], id: string): number {
  return (
    getRow<{ n: number }>(
      db,
      "SELECT COUNT(*) AS n FROM bookings WHERE flight_id = ? AND status = 'confirmed'",
      id,
    )?.n ?? 0
  );
}

/** The id after the highest booking id: new bookings are numbered on. */
export function nextBookingId(db: ToolContext["db"]): string {
  const last = getRow<{ id: string }>(db, "SELECT MAX(booking_id) AS id FROM bookings")?.id ?? "BK-000000";
  return bookingId.format(Number(last.slice(3)) + 1);
}

function seatsOf(db: ToolContext["db"], tail: unknown): number {
  return getRow<{ seats: number }>(db, "SELECT seats FROM aircraft WHERE tail = ?", tail)?.seats ?? 0;
}

const getFlight = defineGetTool({
  name: "get_flight",
  description:
    "Get one flight with its capacity: `flight` (schedule fields), `seats` (of its aircraft), `seats_booked` (confirmed bookings) and `seats_free`.",
  input: { flight_id: flightId.schema("The flight") },
  key: "flight",
  from: "flights",
  select: FLIGHT_COLUMNS,
  notFound: flightId,
  related: {
    seats: (db, _id, flight) => seatsOf(db, flight.tail),
    seats_booked: (db, id) => seatsBooked(db, String(id)),
    seats_free: (db, id, flight) => Math.max(0, seatsOf(db, flight.tail) - seatsBooked(db, String(id))),
  },
});

const delay = (actual: unknown, scheduled: unknown): number | null =>
  actual && scheduled ? minutesOf(String(actual)) - minutesOf(String(scheduled)) : null;

const getFlightStatusBase = defineGetTool({
  name: "get_flight_status",
  description:
    "The operations feed for one flight: `flight_id`, `status`, `actual_departure`, `actual_arrival` (null until it happens), `departure_delay_minutes`, `arrival_delay_minutes` (against the schedule) and `delay_code`.",
  input: { flight_id: flightId.schema("The flight") },
  from: "flights",
  notFound: flightId,
  map: (row) => ({
    flight_id: row.flight_id,
    status: row.status,
    actual_departure: row.actual_departure,
    actual_arrival: row.actual_arrival,
    departure_delay_minutes: delay(row.actual_departure, row.scheduled_departure),
    arrival_delay_minutes: delay(row.actual_arrival, row.scheduled_arrival),
    delay_code: row.delay_code,
  }),
});

/** The feed as it answers the first request for a flight with a delay record: a timeout in the body. */
const feedTimingOut = withSilentFailures(getFlightStatusBase, {
  body: () => ({ status: "error", error: "ops feed timeout: no data returned, retry the request" }),
});

/**
 * The ops feed times out on the first request for a flight with a delay record (the disruption lookup is
 * slow): the body says so, without an MCP error, and asking again succeeds. The kit counts the failures per
 * episode database, so an oracle and its replay meet the same failures.
 */
const getFlightStatus: typeof getFlightStatusBase = {
  ...getFlightStatusBase,
  handler: (input, context) =>
    (getRow(
      context.db,
      "SELECT 1 FROM flights WHERE flight_id = ? AND delay_code IS NOT NULL",
      input.flight_id,
    )
      ? feedTimingOut
      : getFlightStatusBase
    ).handler(input, context),
};

const listBookings = defineListTool({
  name: "list_bookings",
  description:
    "List passenger bookings (booking_id, pnr, segment, flight_id, passenger_name, member_id, fare_class, status confirmed/flown/no_show/cancelled/rebooked, booked_at, notes, rebooked_from). Bookings exist for yesterday's, today's and tomorrow's flights. Paginated: returns `bookings`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    flight_id: flightId.schema("Only bookings on this flight").optional(),
    pnr: z
      .string()
      .regex(/^[A-Z0-9]{6}$/, "pnr must be six letters or digits, e.g. 'K7QXZP'")
      .optional(),
    status: z.enum(["confirmed", "flown", "no_show", "cancelled", "rebooked"]).optional(),
  },
  key: "bookings",
  from: "bookings",
  where: { flight_id: "=", pnr: "=", status: "=" },
  orderBy: "booking_id",
});

const listLoyaltyMembers = defineListTool({
  name: "list_loyalty_members",
  description:
    "List loyalty programme members (member_id, name, tier blue/silver/gold/platinum, joined_on). Paginated: returns `members`, `page`, `per_page`, `total`, `has_more`.",
  filters: { tier: z.enum(["blue", "silver", "gold", "platinum"]).optional() },
  key: "members",
  from: "loyalty_members",
  where: { tier: "=" },
  orderBy: "member_id",
});

const getLoyaltyMember = defineGetTool({
  name: "get_loyalty_member",
  description: "Get one loyalty member. Returns `member`.",
  input: { member_id: memberId.schema("The loyalty member") },
  key: "member",
  from: "loyalty_members",
  notFound: memberId,
});

const listCrew = defineListTool({
  name: "list_crew",
  description:
    "List crew members (crew_id, name, role captain/first_officer/cabin, base, qualifications as comma-separated aircraft type codes, status active/reserve/leave). Paginated: returns `crew`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    role: z.enum(["captain", "first_officer", "cabin"]).optional(),
    status: z.enum(["active", "reserve", "leave"]).optional(),
    qualified_on: z
      .string()
      .optional()
      .describe("Only crew qualified on this aircraft type code, e.g. 'AT46'"),
  },
  key: "crew",
  from: "crew",
  where: { role: "=", status: "=", qualified_on: "(',' || qualifications || ',') LIKE '%,' || ? || ',%'" },
  orderBy: "crew_id",
});

const listCrewAssignments = defineListTool({
  name: "list_crew_assignments",
  description:
    "List crew assignments (assignment_id, crew_id, flight_id, position, with the flight's flight_number, flight_date, scheduled_departure and scheduled_arrival). Rosters cover yesterday, today and tomorrow. Paginated: returns `assignments`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    crew_id: crewId.schema("Only this crew member's assignments").optional(),
    flight_id: flightId.schema("Only assignments on this flight").optional(),
    date: optionalDate("Only assignments on flights of this date, YYYY-MM-DD"),
  },
  key: "assignments",
  from: "crew_assignments a JOIN flights f ON f.flight_id = a.flight_id",
  select:
    "a.assignment_id, a.crew_id, a.flight_id, a.position, f.flight_number, f.flight_date, f.scheduled_departure, f.scheduled_arrival",
  where: { crew_id: "a.crew_id = ?", flight_id: "a.flight_id = ?", date: "f.flight_date = ?" },
  orderBy: "a.assignment_id",
});

const rebookBooking = defineTool({
  name: "rebook_booking",
  description:
    "Move a confirmed booking onto another flight: the old booking becomes `rebooked` and a new confirmed booking (same PNR, segment, passenger) is created on the new flight with `rebooked_from` set. Fails when the new flight has no free seat or is not scheduled. Returns `booking` (the new one).",
  kind: "write",
  inputSchema: z.object({
    booking_id: bookingId.schema("The booking to move"),
    flight_id: flightId.schema("The flight to move it to"),
  }),
  handler: ({ booking_id, flight_id }, { db }: ToolContext) => {
    const booking = requireEntity<Record<string, unknown>>(db, "bookings", bookingId, booking_id);
    if (booking.status !== "confirmed")
      throw new ToolFailure(
        `booking ${booking_id} is ${String(booking.status)}; only confirmed bookings can be rebooked`,
      );
    const flight = requireEntity<{ status: string; tail: string }>(
      db,
      "flights",
      flightId,
      flight_id,
      "status, tail",
    );
    if (flight.status !== "scheduled")
      throw new ToolFailure(
        `flight ${flight_id} is ${flight.status}; passengers can only be moved onto scheduled flights`,
      );
    if (flight_id === booking.flight_id)
      throw new ToolFailure(`booking ${booking_id} is already on ${flight_id}`);
    const seats = seatsOf(db, flight.tail);
    if (seatsBooked(db, flight_id) >= seats)
      throw new ToolFailure(`flight ${flight_id} is full (${seats} seats booked); choose another flight`);
    const moved = {
      ...booking,
      booking_id: nextBookingId(db),
      flight_id,
      status: "confirmed",
      rebooked_from: booking_id,
    };
    return db.transaction(() => {
      cachedStatement(db, "UPDATE bookings SET status = 'rebooked' WHERE booking_id = ?").run(booking_id);
      return { booking: insertKeyedRow(db, "bookings", "booking_id", moved) };
    })();
  },
});

const assignAircraft = defineTool({
  name: "assign_aircraft",
  description:
    "Put a scheduled flight on another aircraft (tail swap). Only flights in status scheduled can be swapped. Returns `flight`.",
  kind: "write",
  inputSchema: z.object({
    flight_id: flightId.schema("The flight"),
    tail: tailNumber.schema("The aircraft that will operate it"),
  }),
  handler: ({ flight_id, tail }, { db }: ToolContext) => {
    const flight = requireEntity<{ status: string }>(db, "flights", flightId, flight_id, "status");
    requireEntity(db, "aircraft", tailNumber, tail, "tail");
    if (flight.status !== "scheduled")
      throw new ToolFailure(
        `flight ${flight_id} is ${flight.status}; only scheduled flights can change aircraft`,
      );
    cachedStatement(db, "UPDATE flights SET tail = ? WHERE flight_id = ?").run(tail, flight_id);
    return { flight: getRow(db, `SELECT ${FLIGHT_COLUMNS} FROM flights WHERE flight_id = ?`, flight_id) };
  },
});

const setAircraftStatus = defineTool({
  name: "set_aircraft_status",
  description: "Set an aircraft's status (active, maintenance, grounded). Returns `aircraft`.",
  kind: "write",
  inputSchema: z.object({ tail: tailNumber.schema("The aircraft"), status: aircraftStatus }),
  handler: ({ tail, status }, { db }: ToolContext) => {
    requireEntity(db, "aircraft", tailNumber, tail, "tail");
    return { aircraft: updateEntity(db, "aircraft", tailNumber, tail, { status }) };
  },
});

export const airlineTools: DomainTool[] = [
  listAirports,
  listRoutes,
  listAircraft,
  getAircraft,
  listFlights,
  getFlight,
  getFlightStatus,
  listBookings,
  listLoyaltyMembers,
  getLoyaltyMember,
  listCrew,
  listCrewAssignments,
  rebookBooking,
  assignAircraft,
  setAircraftStatus,
] as DomainTool[];
