import type Database from "better-sqlite3";
import {
  allRows,
  answerListItems,
  answerObjectEntries,
  check,
  checkStateDiff,
  defineTask,
  getRow,
  type Check,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { airlineDomain } from "../domain.js";
import { seatsBooked } from "../tools.js";
import { AIRLINE_HELPERS, PYTHON_IS_MINOR } from "./python.js";
import type { BookingRecord, FlightRecord } from "../schema.js";
import { TODAY, TODAY_TEXT, TOMORROW, isUnaccompaniedMinor, ORACLE_OPTIONS } from "./shared.js";

const TIER_RANK: Record<string, number> = { platinum: 0, gold: 1, silver: 2, blue: 3 };

interface Plan {
  moves: Map<string, { booking: BookingRecord; flightId: string }>;
  unplaced: string[];
}

/** The rebooking memo applied to every flight cancelled today, from the initial state. */
export function expectedRebooking(db: Database.Database): Plan {
  const plan: Plan = { moves: new Map(), unplaced: [] };
  const cancelled = allRows<FlightRecord>(
    db,
    "SELECT * FROM flights WHERE flight_date = ? AND status = 'cancelled' ORDER BY scheduled_departure, flight_id",
    TODAY,
  );
  for (const flight of cancelled) {
    const alternatives = allRows<FlightRecord & { seats: number }>(
      db,
      `SELECT f.*, a.seats FROM flights f JOIN aircraft a ON a.tail = f.tail
       WHERE f.route_id = ? AND f.scheduled_departure > ? AND f.flight_date <= ? AND f.status = 'scheduled'
       ORDER BY f.scheduled_departure, f.flight_id`,
      flight.route_id,
      flight.scheduled_departure,
      TOMORROW,
    ).map((alternative) => ({
      id: alternative.flight_id,
      free: alternative.seats - seatsBooked(db, alternative.flight_id),
    }));
    const passengers = allRows<BookingRecord>(
      db,
      "SELECT * FROM bookings WHERE flight_id = ? AND status = 'confirmed'",
      flight.flight_id,
    ).map((booking) => {
      const onward =
        (getRow<{ n: number }>(
          db,
          "SELECT COUNT(*) AS n FROM bookings WHERE pnr = ? AND segment > ?",
          booking.pnr,
          booking.segment,
        )?.n ?? 0) > 0;
      const tier = booking.member_id
        ? getRow<{ tier: string }>(
            db,
            "SELECT tier FROM loyalty_members WHERE member_id = ?",
            booking.member_id,
          )?.tier
        : undefined;
      return {
        booking,
        key: [
          isUnaccompaniedMinor(booking.notes) ? 0 : 1,
          onward ? 0 : 1,
          tier ? (TIER_RANK[tier] ?? 4) : 4,
        ] as const,
      };
    });
    passengers.sort(
      (x, y) =>
        x.key[0] - y.key[0] ||
        x.key[1] - y.key[1] ||
        x.key[2] - y.key[2] ||
        x.booking.booked_at.localeCompare(y.booking.booked_at) ||
        x.booking.booking_id.localeCompare(y.booking.booking_id),
    );
    for (const { booking } of passengers) {
      const seat = alternatives.find((alternative) => alternative.free > 0);
      if (!seat) {
        plan.unplaced.push(booking.booking_id);
        continue;
      }
      seat.free -= 1;
      plan.moves.set(booking.booking_id, { booking, flightId: seat.id });
    }
  }
  return plan;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const plan = expectedRebooking(initial.db);
  const rebooked = answerObjectEntries(answer, "rebooked");
  const rebookedOk =
    rebooked !== null &&
    rebooked.length === plan.moves.size &&
    rebooked.every(
      ([id, flight]) =>
        plan.moves.get(id.trim().toUpperCase())?.flightId === String(flight).trim().toUpperCase(),
    );
  const unplaced = answerListItems(answer, "not_accommodated")?.map((id) => id.toUpperCase());
  const unplacedOk =
    unplaced !== undefined &&
    unplaced.length === plan.unplaced.length &&
    plan.unplaced.every((id) => unplaced.includes(id));
  const expectedAnswer = JSON.stringify({
    rebooked: Object.fromEntries([...plan.moves].map(([id, move]) => [id, move.flightId])),
    not_accommodated: plan.unplaced,
  });
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "bookings",
        key: "booking_id",
        changed: new Map([...plan.moves.keys()].map((id) => [id, { status: "rebooked" }])),
        added: [...plan.moves].map(([id, move]) => ({
          pnr: move.booking.pnr,
          segment: move.booking.segment,
          flight_id: move.flightId,
          passenger_name: move.booking.passenger_name,
          status: "confirmed",
          rebooked_from: id,
        })),
      },
    ]),
    check(
      "answer-rebooked",
      rebookedOk,
      rebookedOk ? "answer lists the rebookings" : `expected ${expectedAnswer}`,
    ),
    check(
      "answer-not-accommodated",
      unplacedOk,
      unplacedOk ? "answer lists who could not be placed" : `expected ${expectedAnswer}`,
    ),
  ];
}

interface Options {
  bookingOrderOnly?: boolean;
  noMinorPriority?: boolean;
  noConnectionPriority?: boolean;
  naiveMinorMatch?: boolean;
}

function cells(options: Options = {}): string[] {
  const minor = options.naiveMinorMatch
    ? 'def is_minor(note):\n    return bool(note) and bool(re.search(r"\\bUM|minor", note, re.I))'
    : PYTHON_IS_MINOR;
  const key = options.bookingOrderOnly
    ? '(b["booked_at"], b["booking_id"])'
    : `(${options.noMinorPriority ? "0" : '0 if is_minor(b["notes"]) else 1'}, ${options.noConnectionPriority ? "0" : '0 if onward[b["booking_id"]] else 1'}, tier_rank.get(tiers.get(b["member_id"]), 4), b["booked_at"], b["booking_id"])`;
  return [
    AIRLINE_HELPERS,
    String.raw`
memo = read_text("memos/rebooking-priority.md")
print(memo)
${minor}
cancelled = fetch("list_flights", "flights", date=TODAY, status="cancelled")
print([(f["flight_id"], f["flight_number"], f["route_id"], f["scheduled_departure"]) for f in cancelled])
`,
    String.raw`
tier_rank = {"platinum": 0, "gold": 1, "silver": 2, "blue": 3}
tiers = {}
work = []
for flight in cancelled:
    passengers = fetch("list_bookings", "bookings", flight_id=flight["flight_id"], status="confirmed")
    onward = {}
    for b in passengers:
        itinerary = fetch("list_bookings", "bookings", pnr=b["pnr"])
        onward[b["booking_id"]] = any(other["segment"] > b["segment"] for other in itinerary)
        if b["member_id"] and b["member_id"] not in tiers:
            tiers[b["member_id"]] = call("get_loyalty_member", member_id=b["member_id"])["member"]["tier"]
    later = [f for f in fetch("list_flights", "flights", origin=flight["origin"], destination=flight["destination"], date_from=TODAY, date_to=TOMORROW)
             if f["status"] == "scheduled" and f["scheduled_departure"] > flight["scheduled_departure"]]
    later.sort(key=lambda f: (f["scheduled_departure"], f["flight_id"]))
    free = {f["flight_id"]: call("get_flight", flight_id=f["flight_id"])["seats_free"] for f in later}
    work.append((flight, passengers, onward, later, free))
    print(flight["flight_number"], len(passengers), "passengers;", free)
`,
    String.raw`
rebooked, unplaced = {}, []
for flight, passengers, onward, later, free in work:
    for b in sorted(passengers, key=lambda b: ${key}):
        target = next((f["flight_id"] for f in later if free[f["flight_id"]] > 0), None)
        if target is None:
            unplaced.append(b["booking_id"])
            continue
        call("rebook_booking", booking_id=b["booking_id"], flight_id=target)
        free[target] -= 1
        rebooked[b["booking_id"]] = target
print(json.dumps({"rebooked": rebooked, "not_accommodated": unplaced}))
`,
  ];
}

export const rebookCancelledFlightsTask = defineTask({
  id: "airline.rebook-cancelled-flights",
  domain: airlineDomain,
  summary:
    "Rebook the passengers of today's cancelled flights by the priority memo (unaccompanied minors from the notes, onward connections from the PNR, loyalty tier, booking time) onto later flights of the same route with free seats, never overbooking.",
  instruction: `Customer service here. ${TODAY_TEXT} Some of today's flights have been cancelled. Please rebook their passengers following our rebooking priority memo, using the rebooking tool. Reply with only a JSON object {"rebooked": {"<old booking_id>": "<flight_id of the new flight>", ...}, "not_accommodated": [<booking_ids of passengers you could not place>]}.`,
  tools: [
    "list_flights",
    "get_flight",
    "list_bookings",
    "get_loyalty_member",
    "list_loyalty_members",
    "rebook_booking",
  ],
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, ORACLE_OPTIONS, {
    "booking-order-only": [
      { bookingOrderOnly: true },
      "Rebooks first come, first served, ignoring the priority memo.",
    ],
    "no-minor-priority": [{ noMinorPriority: true }, "Forgets that unaccompanied minors go first."],
    "no-connection-priority": [
      { noConnectionPriority: true },
      "Does not look up onward connections on the PNR.",
    ],
    "naive-minor-match": [
      { naiveMinorMatch: true },
      "Treats every note mentioning UM or a minor as an unaccompanied minor, declined services included.",
    ],
  }),
});
