import {
  addDays,
  allRows,
  check,
  checkStateDiff,
  defineTask,
  parseAnswerNumber,
  parseCsv,
  cachedStatement,
  getRow,
  insertKeyedRow,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { CONNECTION_STANDARDS_PATH, parseConnectionStandards } from "../documents.js";
import { airlineDomain } from "../domain.js";
import {
  connectionCells,
  yesterdayConnections,
  type Connection,
  type ConnectionOptions,
} from "./missed-connections.js";
import { PYTHON_IS_MINOR } from "./python.js";
import { TODAY_TEXT, YESTERDAY, isUnaccompaniedMinor, minutesOf, ORACLE_OPTIONS } from "./shared.js";
import { drawPnr, stampOf } from "../generate.js";
import { nextBookingId } from "../tools.js";
import { HUB_MCT, UM_MCT } from "../reference.js";

export const ESCORT_REPORT_PATH = `reports/escort-incidents-${YESTERDAY}.csv`;

interface Incident {
  pnr: string;
  passenger: string;
  gap: number;
}

/** Yesterday's connections of unaccompanied minors (by their booking notes) below the UMNR minimum. */
export function expectedIncidents(state: StateView): Incident[] {
  const { minor } = parseConnectionStandards(state.readFile(CONNECTION_STANDARDS_PATH) ?? "");
  const names = new Map(
    allRows<{ pnr: string; passenger_name: string }>(
      state.db,
      "SELECT pnr, passenger_name FROM bookings WHERE segment = 1",
    ).map((row) => [row.pnr, row.passenger_name]),
  );
  return yesterdayConnections(state.db)
    .filter((connection) => isUnaccompaniedMinor(connection.notes) && connection.gap < minor)
    .map((connection) => ({
      pnr: connection.pnr,
      passenger: names.get(connection.pnr) ?? "",
      gap: connection.gap,
    }))
    .sort((x, y) => x.pnr.localeCompare(y.pnr));
}

/**
 * Makes sure every rule of the report decides something at every scale: an unaccompanied minor below the
 * all-passengers minimum, one between the two minimums, and a declined-service note below the UMNR minimum.
 */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const standards = parseConnectionStandards(context.readFile(CONNECTION_STANDARDS_PATH) ?? "");
  const all = Number.isFinite(standards.all) ? standards.all : HUB_MCT;
  const minor = Number.isFinite(standards.minor) ? standards.minor : UM_MCT;
  const read = (): Connection[] => yesterdayConnections(db);
  // A small network may have no connection between the two minimums: an unaccompanied minor's itinerary
  // is added on yesterday's tightest hub pair with a longer gap, whose inbound flight was then held at its
  // origin (a technical delay) so that the connection lands there.
  const target = Math.round((all + minor) / 2);
  if (!read().some((c) => c.gap >= all && c.gap < minor)) {
    const pairs = allRows<{
      inbound: string;
      onward: string;
      arrived: string;
      inbound_departed: string;
      departed: string;
      delay_code: string | null;
    }>(
      db,
      `SELECT f1.flight_id AS inbound, f2.flight_id AS onward, f1.actual_arrival AS arrived,
              f1.actual_departure AS inbound_departed, f2.actual_departure AS departed, f1.delay_code
       FROM flights f1 JOIN flights f2 ON f2.flight_date = f1.flight_date AND f2.origin = f1.destination
       JOIN aircraft a1 ON a1.tail = f1.tail JOIN aircraft a2 ON a2.tail = f2.tail
       WHERE f1.flight_date = ? AND f1.destination = 'BOS' AND f2.destination <> f1.origin
         AND f1.actual_arrival IS NOT NULL AND f2.actual_departure IS NOT NULL
         AND f1.pax_boarded < a1.seats AND f2.pax_boarded < a2.seats
       ORDER BY f1.flight_id, f2.flight_id`,
      YESTERDAY,
    )
      .map((pair) => ({ ...pair, gap: minutesOf(pair.departed) - minutesOf(pair.arrived) }))
      .filter((pair) => pair.gap >= minor)
      .sort((x, y) => x.gap - y.gap);
    const pair = pairs[0];
    if (pair) {
      const shift = pair.gap - target;
      const moved = (stamp: string): string => stampOf(minutesOf(stamp) + shift);
      cachedStatement(
        db,
        "UPDATE flights SET actual_departure = ?, actual_arrival = ?, delay_code = ? WHERE flight_id = ?",
      ).run(moved(pair.inbound_departed), moved(pair.arrived), pair.delay_code ?? "TECH", pair.inbound);
      const pnr = drawPnr(
        context.random,
        (code) => !!getRow(db, "SELECT 1 FROM bookings WHERE pnr = ?", code),
      );
      const name = `${context.faker.person.firstName()} ${context.faker.person.lastName()}`;
      [pair.inbound, pair.onward].forEach((flight, index) => {
        insertKeyedRow(db, "bookings", "booking_id", {
          booking_id: nextBookingId(db),
          pnr,
          segment: index + 1,
          flight_id: flight,
          passenger_name: name,
          member_id: null,
          fare_class: "Y",
          status: "flown",
          booked_at: `${addDays(YESTERDAY, -12)}T19:05`,
          notes: "Unaccompanied minor, 8 yrs; handover to gate agent at each stop",
          rebooked_from: null,
        });
        cachedStatement(db, "UPDATE flights SET pax_boarded = pax_boarded + 1 WHERE flight_id = ?").run(
          flight,
        );
      });
    }
  }
  const connections = read();
  const setNote = cachedStatement(db, "UPDATE bookings SET notes = ? WHERE pnr = ?");
  const plants: Array<{
    low: number;
    high: number;
    note: string;
    matches: (note: string | null) => boolean;
  }> = [
    { low: -Infinity, high: all, note: "UMNR age 10 - escort form on file", matches: isUnaccompaniedMinor },
    {
      low: all,
      high: minor,
      note: "Unaccompanied minor, 8 yrs; handover to gate agent at each stop",
      matches: isUnaccompaniedMinor,
    },
    {
      low: -Infinity,
      high: minor,
      note: "UM service declined - travelling with older sister",
      matches: (note) => note !== null && /UM service declined/.test(note),
    },
  ];
  for (const plant of plants) {
    const inBand = connections.filter((c) => c.gap >= plant.low && c.gap < plant.high);
    if (inBand.some((c) => plant.matches(c.notes))) continue;
    const free = inBand.find((c) => c.notes === null);
    if (!free) continue;
    setNote.run(plant.note, free.pnr);
    free.notes = plant.note;
  }
}

const normalName = (text: string): string => text.trim().replace(/\s+/g, " ").toLowerCase();

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedIncidents(initial);
  const expectedText = JSON.stringify(expected);
  const text = final.readFile(ESCORT_REPORT_PATH);
  const rows = text === null ? [] : parseCsv(text, { trim: true });
  const byPnr = new Map(rows.map((row) => [(row.pnr ?? "").toUpperCase(), row]));
  const reportOk =
    text !== null &&
    rows.length === expected.length &&
    byPnr.size === expected.length &&
    expected.every((incident) => {
      const row = byPnr.get(incident.pnr);
      return (
        row !== undefined &&
        normalName(row.passenger_name ?? "") === normalName(incident.passenger) &&
        parseAnswerNumber(row.connection_minutes ?? "") === incident.gap
      );
    });
  return [
    check(
      "report-file",
      reportOk,
      text === null
        ? `no report at ${ESCORT_REPORT_PATH}`
        : reportOk
          ? "the report lists the incidents"
          : `expected rows ${expectedText}, found '${text.slice(0, 300)}'`,
    ),
    check(
      "answer-count",
      parseAnswerNumber(answer) === expected.length,
      `expected ${expected.length}, found '${answer.slice(0, 100)}'`,
    ),
    ...checkStateDiff(initial.db, final.db, []),
  ];
}

interface Options extends ConnectionOptions {
  allPassengerMinimum?: boolean;
  naiveMinorMatch?: boolean;
  skipsMissed?: boolean;
}

function cells(options: Options = {}): string[] {
  const minor = options.naiveMinorMatch
    ? 'def is_minor(note):\n    return bool(note) and bool(re.search(r"\\bUM|minor|child", note, re.I))'
    : PYTHON_IS_MINOR;
  const limit = options.allPassengerMinimum
    ? 'mct["all passengers"]'
    : 'next(value for key, value in mct.items() if "UMNR" in key)';
  return [
    ...connectionCells(options),
    String.raw`
${minor}
limit = ${limit}
names = {}
incidents = []
for pnr, c in sorted(connections.items()):
    if is_minor(c["notes"]) and ${options.skipsMissed ? 'mct["all passengers"] <= c["gap"] < limit' : 'c["gap"] < limit'}:
        legs = fetch("list_bookings", "bookings", pnr=pnr)
        incidents.append((pnr, legs[0]["passenger_name"], c["gap"]))
lines = ["pnr,passenger_name,connection_minutes"] + ['%s,"%s",%d' % row for row in incidents]
tools.write_file(path="${ESCORT_REPORT_PATH}", content="\n".join(lines) + "\n")
print(len(incidents))
`,
  ];
}

export const escortIncidentsTask = defineTask({
  id: "airline.escort-incidents",
  domain: airlineDomain,
  summary:
    "Report yesterday's escort incidents: connecting passengers whose free-text booking notes show the UMNR service (not declined, not travelling with an adult) and whose real connection (actual times from an ops feed that sometimes answers with an error body) was below the UMNR minimum, written to a CSV report.",
  instruction: `Customer Care here. ${TODAY_TEXT} Please put together yesterday's escort-incident report for unaccompanied minors connecting at the hub, as our connection standards define an escort incident. Count only children who actually flew the inbound flight. Write the report to ${ESCORT_REPORT_PATH} with the header pnr,passenger_name,connection_minutes and one row per incident (connection_minutes = minutes from the inbound flight's actual arrival to the onward flight's actual departure), then reply with only the number of incidents.`,
  tools: ["list_flights", "get_flight", "get_flight_status", "list_bookings"],
  workspaceWrite: true,
  prepare,
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, ORACLE_OPTIONS, {
    "all-passenger-minimum": [
      { allPassengerMinimum: true },
      "Uses the all-passengers minimum connection time instead of the UMNR minimum.",
    ],
    "naive-minor-match": [
      { naiveMinorMatch: true },
      "Takes every note mentioning UM, a minor or a child as the UMNR service, declined ones included.",
    ],
    "trusts-silent-failures": [
      { trustFeed: true },
      "Takes ops-feed error bodies as missing data and skips those connections.",
    ],
    "skips-missed-connections": [
      { skipsMissed: true },
      "Reports only minors between the two minimums, taking those below the all-passengers minimum as missed connections rather than escort incidents.",
    ],
  }),
});
