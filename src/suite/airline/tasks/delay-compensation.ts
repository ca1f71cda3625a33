import {
  allRows,
  answerObjectEntries,
  check,
  checkStateDiff,
  defineTask,
  getRow,
  parseAnswerJson,
  type Check,
  type StateView,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { COMPENSATION_POLICY_PATH, parseCompensationPolicy } from "../documents.js";
import { airlineDomain } from "../domain.js";
import { AIRLINE_HELPERS } from "./python.js";
import {
  TODAY_TEXT,
  YESTERDAY,
  answerNumber,
  delayMinutes,
  flightNumberKey,
  flightsOn,
  weatherListed,
  ORACLE_OPTIONS,
} from "./shared.js";

interface Owed {
  byFlight: Map<string, number>;
  passengers: number;
  total: number;
}

/** What the compensation policy owes for yesterday's flights, from the initial state and the policy text. */
export function expectedCompensation(state: StateView): Owed {
  const policy = parseCompensationPolicy(state.readFile(COMPENSATION_POLICY_PATH) ?? "");
  const weather = weatherListed(state, YESTERDAY);
  const owed: Owed = { byFlight: new Map(), passengers: 0, total: 0 };
  for (const flight of flightsOn(state.db, YESTERDAY)) {
    if (flight.status === "cancelled") continue;
    const delay = delayMinutes(flight.actual_arrival, flight.scheduled_arrival);
    if (delay === null) continue;
    const km = getRow<{ distance_km: number }>(
      state.db,
      "SELECT distance_km FROM routes WHERE route_id = ?",
      flight.route_id,
    )?.distance_km;
    const band = policy.bands.find(
      (candidate) => (km ?? 0) >= candidate.fromKm && (km ?? 0) <= candidate.toKm,
    );
    if (!band || delay < band.minutes) continue;
    const code = flight.delay_code ?? "";
    if (policy.exemptCodes.includes(code)) continue;
    if (code === "RA" && weather.has(flight.flight_number)) continue;
    const flown = allRows(
      state.db,
      "SELECT 1 FROM bookings WHERE flight_id = ? AND status = 'flown'",
      flight.flight_id,
    ).length;
    if (flown === 0) continue;
    owed.byFlight.set(flight.flight_number, flown * band.amount);
    owed.passengers += flown;
    owed.total += flown * band.amount;
  }
  return owed;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedCompensation(initial);
  const parsed = parseAnswerJson(answer) as {
    passengers?: unknown;
    total_usd?: unknown;
    flights?: unknown;
  } | null;
  const entries = answerObjectEntries(answer, "flights");
  const flights =
    entries && new Map(entries.map(([key, value]) => [flightNumberKey(key), answerNumber(value)]));
  const flightsOk =
    flights !== null &&
    flights.size === expected.byFlight.size &&
    [...expected.byFlight].every(
      ([number, amount]) => Math.abs((flights.get(flightNumberKey(number)) ?? NaN) - amount) < 0.01,
    );
  const expectedText = JSON.stringify({
    flights: Object.fromEntries(expected.byFlight),
    passengers: expected.passengers,
    total_usd: expected.total,
  });
  return [
    check(
      "passengers-owed",
      answerNumber(parsed?.passengers) === expected.passengers,
      `expected ${expectedText}`,
    ),
    check(
      "total-owed",
      Math.abs(answerNumber(parsed?.total_usd) - expected.total) < 0.01,
      `expected total ${expected.total}`,
    ),
    check(
      "flights-owed",
      flightsOk,
      `expected flights ${JSON.stringify(Object.fromEntries(expected.byFlight))}`,
    ),
    ...checkStateDiff(initial.db, final.db, []),
  ];
}

interface Options {
  useDeparture?: boolean;
  ignoreWeatherExport?: boolean;
  strictThreshold?: boolean;
  trustFeed?: boolean;
  countAllBookings?: boolean;
}

function cells(options: Options = {}): string[] {
  return [
    AIRLINE_HELPERS,
    String.raw`
policy = read_text("policies/passenger-compensation.md")
bands = []
for row in md_table(policy, "Compensation bands"):
    bands.append({"band": row[0], "from": int(row[1]), "to": float("inf") if row[2] == "no limit" else int(row[2]), "minutes": int(row[3]), "amount": float(row[4])})
exempt = [code.strip() for code in re.search(r"delay code is one of: ([A-Z, ]+)\.", policy).group(1).split(",")]
weather_text = read_text("exports/weather-delays-" + YESTERDAY + ".csv")
weather = {row["flight_number"] for row in csv_rows(weather_text)}
${options.ignoreWeatherExport ? "weather = set()" : ""}
distance = {route["route_id"]: route["distance_km"] for route in fetch("list_routes", "routes")}
print(bands, exempt, sorted(weather))
`,
    String.raw`
flights = [flight for flight in fetch("list_flights", "flights", date=YESTERDAY) if flight["status"] != "cancelled"]
candidates = []
for flight in flights:
    ${options.trustFeed ? 'feed = tools.get_flight_status(flight_id=flight["flight_id"])' : 'feed = call("get_flight_status", flight_id=flight["flight_id"])'}
    delay = feed.get("${options.useDeparture ? "departure_delay_minutes" : "arrival_delay_minutes"}") or 0
    band = next(b for b in bands if b["from"] <= distance[flight["route_id"]] <= b["to"])
    if delay ${options.strictThreshold ? ">" : ">="} band["minutes"]:
        code = feed.get("delay_code") or ""
        if code in exempt or (code == "RA" and flight["flight_number"] in weather):
            continue
        candidates.append((flight, band))
print(len(flights), "flights,", len(candidates), "owed")
`,
    String.raw`
owed = {}
passengers = 0
for flight, band in candidates:
    ${options.countAllBookings ? 'booked = [b for b in fetch("list_bookings", "bookings", flight_id=flight["flight_id"]) if b["status"] in ("flown", "no_show")]' : 'booked = fetch("list_bookings", "bookings", flight_id=flight["flight_id"], status="flown")'}
    if booked:
        owed[flight["flight_number"]] = len(booked) * band["amount"]
        passengers += len(booked)
print(json.dumps({"flights": owed, "passengers": passengers, "total_usd": sum(owed.values())}))
`,
  ];
}

export const delayCompensationTask = defineTask({
  id: "airline.delay-compensation",
  domain: airlineDomain,
  summary:
    "Apply the passenger compensation policy to yesterday's flights: arrival delay against the distance band's threshold, exempt delay codes and weather-caused reactionary delays from the weather export, flown passengers only; the ops feed sometimes answers with an error body.",
  instruction: `Customer Relations here. ${TODAY_TEXT} Please work out the delay compensation we owe for yesterday's flights under our passenger compensation policy. Reply with only a JSON object {"flights": {"<flight number, e.g. RA 1003>": <amount owed on that flight in USD>, ...}, "passengers": <number of passengers owed compensation>, "total_usd": <total owed>}, listing only flights where something is owed.`,
  tools: ["list_routes", "list_flights", "get_flight", "get_flight_status", "list_bookings"],
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, ORACLE_OPTIONS, {
    "departure-delay": [{ useDeparture: true }, "Measures the departure delay instead of the arrival delay."],
    "ignores-weather-export": [
      { ignoreWeatherExport: true },
      "Pays reactionary delays the weather export shows were weather-caused.",
    ],
    "strict-threshold": [{ strictThreshold: true }, "Pays only delays strictly above the threshold."],
    "trusts-silent-failures": [
      { trustFeed: true },
      "Does not notice ops-feed answers that carry an error status and takes them as no delay.",
    ],
    "counts-no-shows": [{ countAllBookings: true }, "Pays no-show passengers too."],
  }),
});
