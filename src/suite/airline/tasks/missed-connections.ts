import type Database from "better-sqlite3";
import {
  allRows,
  answerListItems,
  check,
  checkStateDiff,
  defineTask,
  type Check,
  type StateView,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { CONNECTION_STANDARDS_PATH, parseConnectionStandards } from "../documents.js";
import { airlineDomain } from "../domain.js";
import { AIRLINE_HELPERS } from "./python.js";
import { TODAY_TEXT, YESTERDAY, minutesOf, ORACLE_OPTIONS } from "./shared.js";

export interface Connection {
  pnr: string;
  gap: number;
  notes: string | null;
}

/** Yesterday's two-segment itineraries whose passenger flew the inbound leg, with the real connection time. */
export function yesterdayConnections(db: Database.Database): Connection[] {
  return allRows<{ pnr: string; arrived: string; departed: string; notes: string | null }>(
    db,
    `SELECT b1.pnr, f1.actual_arrival AS arrived, f2.actual_departure AS departed, b1.notes
     FROM bookings b1
     JOIN bookings b2 ON b2.pnr = b1.pnr AND b2.segment = b1.segment + 1
     JOIN flights f1 ON f1.flight_id = b1.flight_id
     JOIN flights f2 ON f2.flight_id = b2.flight_id
     WHERE f1.flight_date = ? AND b1.status = 'flown'
       AND f1.actual_arrival IS NOT NULL AND f2.actual_departure IS NOT NULL
     ORDER BY b1.pnr`,
    YESTERDAY,
  ).map((row) => ({ pnr: row.pnr, gap: minutesOf(row.departed) - minutesOf(row.arrived), notes: row.notes }));
}

export function expectedMissed(state: StateView): string[] {
  const { all } = parseConnectionStandards(state.readFile(CONNECTION_STANDARDS_PATH) ?? "");
  return yesterdayConnections(state.db)
    .filter((connection) => connection.gap < all)
    .map((connection) => connection.pnr)
    .sort();
}

export function checkPnrList(answer: string, key: string, expected: string[]): Check {
  const list = answerListItems(answer, key)?.map((pnr) => pnr.toUpperCase());
  const ok =
    list !== undefined && list.length === expected.length && expected.every((pnr) => list.includes(pnr));
  return check(
    `answer-${key.replace(/_/g, "-")}`,
    ok,
    ok
      ? `answer lists the ${expected.length} PNRs`
      : `expected {"${key}": ${JSON.stringify(expected)}}, found '${answer.slice(0, 200)}'`,
  );
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  return [
    checkPnrList(answer, "missed", expectedMissed(initial)),
    ...checkStateDiff(initial.db, final.db, []),
  ];
}

export interface ConnectionOptions {
  scheduledTimes?: boolean;
  ignoreMinimum?: boolean;
  trustFeed?: boolean;
  noShowSignal?: boolean;
}

/** Cells that collect yesterday's connections with their real gaps into `connections` (pnr -> dict). */
export function connectionCells(options: ConnectionOptions = {}): string[] {
  return [
    AIRLINE_HELPERS,
    String.raw`
standards = read_text("policies/connection-standards.md")
mct = {row[0]: int(row[1]) for row in md_table(standards, "Minimum connection times")}
print(mct)
flights = {f["flight_id"]: f for f in fetch("list_flights", "flights", date=YESTERDAY)}
feed = {}
for flight_id, flight in flights.items():
    if flight["status"] == "cancelled":
        continue
    ${options.trustFeed ? "feed[flight_id] = tools.get_flight_status(flight_id=flight_id)" : 'feed[flight_id] = call("get_flight_status", flight_id=flight_id)'}
print(len(flights), "flights")
`,
    String.raw`
segments = {}
for flight_id in feed:
    for booking in fetch("list_bookings", "bookings", flight_id=flight_id):
        segments.setdefault(booking["pnr"], []).append(booking)
connections = {}
for pnr, legs in segments.items():
    legs.sort(key=lambda b: b["segment"])
    if len(legs) != 2${options.noShowSignal ? "" : ' or legs[0]["status"] != "flown"'}:
        continue
    first, second = flights[legs[0]["flight_id"]], flights[legs[1]["flight_id"]]
    ${
      options.scheduledTimes
        ? 'arrived, departed = first["scheduled_arrival"], second["scheduled_departure"]'
        : 'arrived, departed = feed.get(first["flight_id"], {}).get("actual_arrival"), feed.get(second["flight_id"], {}).get("actual_departure")'
    }
    if not arrived or not departed:
        continue
    connections[pnr] = {"gap": minutes_between(arrived, departed), "notes": legs[0]["notes"], "onward_status": legs[1]["status"]}
print(len(connections), "connections")
`,
  ];
}

function cells(options: ConnectionOptions = {}): string[] {
  const test = options.noShowSignal
    ? 'c["onward_status"] == "no_show"'
    : `c["gap"] < ${options.ignoreMinimum ? "0" : 'mct["all passengers"]'}`;
  return [
    ...connectionCells(options),
    String.raw`
missed = sorted(pnr for pnr, c in connections.items() if ${test})
print(json.dumps({"missed": missed}))
`,
  ];
}

export const missedConnectionsTask = defineTask({
  id: "airline.missed-connections",
  domain: airlineDomain,
  summary:
    "Find yesterday's missed hub connections: two-segment PNRs whose passenger flew the inbound leg with less than the minimum connection time between actual arrival and actual onward departure, reading actual times from an ops feed that sometimes answers with an error body.",
  instruction: `Customer Relations here. ${TODAY_TEXT} For the misconnection report, find every passenger itinerary that missed its connection at the hub yesterday, judged by our connection standards. Count only passengers who actually flew the inbound flight. Reply with only a JSON object {"missed": [<booking references (PNRs), sorted>]}.`,
  tools: ["list_flights", "get_flight", "get_flight_status", "list_bookings"],
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, ORACLE_OPTIONS, {
    "scheduled-times": [{ scheduledTimes: true }, "Judges connections by the scheduled times."],
    "ignores-minimum": [
      { ignoreMinimum: true },
      "Counts only connections where the onward flight left before the inbound landed.",
    ],
    "trusts-silent-failures": [
      { trustFeed: true },
      "Takes ops-feed error bodies as missing data and skips those flights.",
    ],
    "no-show-signal": [{ noShowSignal: true }, "Takes onward no-shows as the misconnections."],
  }),
});
