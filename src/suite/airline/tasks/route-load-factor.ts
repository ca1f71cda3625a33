import {
  allRows,
  answerObjectEntries,
  check,
  checkStateDiff,
  defineTask,
  parseAnswerJson,
  type Check,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { NETWORK_MEMO_PATH, parseLoadFactorThreshold } from "../documents.js";
import { airlineDomain } from "../domain.js";
import { AIRLINE_HELPERS } from "./python.js";
import { TODAY, TODAY_TEXT, YESTERDAY, answerNumber, ORACLE_OPTIONS } from "./shared.js";

const MONTH_START = `${TODAY.slice(0, 8)}01`;

/** Routes below the memo's threshold, with their load factor over the month up to yesterday. */
export function expectedWatchList(context: Pick<VerifyContext, "initial">): {
  watch: Map<string, number>;
  operated: number;
} {
  const threshold = parseLoadFactorThreshold(context.initial.readFile(NETWORK_MEMO_PATH) ?? "");
  const rows = allRows<{ route_id: string; pax: number; seats: number; flights: number }>(
    context.initial.db,
    `SELECT f.route_id, SUM(f.pax_boarded) AS pax, SUM(a.seats) AS seats, COUNT(*) AS flights
     FROM flights f JOIN aircraft a ON a.tail = f.tail
     WHERE f.flight_date BETWEEN ? AND ? AND f.status <> 'cancelled'
     GROUP BY f.route_id ORDER BY f.route_id`,
    MONTH_START,
    YESTERDAY,
  );
  return {
    watch: new Map(
      rows.filter((row) => row.pax / row.seats < threshold).map((row) => [row.route_id, row.pax / row.seats]),
    ),
    operated: rows.reduce((sum, row) => sum + row.flights, 0),
  };
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const { watch: expected, operated } = expectedWatchList({ initial });
  const parsed = parseAnswerJson(answer) as { flights_operated?: unknown } | null;
  const entries = answerObjectEntries(answer, "watch_list");
  const given =
    entries && new Map(entries.map(([key, value]) => [key.trim().toUpperCase(), answerNumber(value)]));
  const routesOk =
    given !== null && given.size === expected.size && [...expected.keys()].every((route) => given.has(route));
  const valuesOk =
    routesOk &&
    [...expected].every(([route, factor]) => Math.abs((given?.get(route) ?? NaN) - factor) <= 0.0006);
  const expectedText = JSON.stringify(
    Object.fromEntries([...expected].map(([route, factor]) => [route, Number(factor.toFixed(3))])),
  );
  return [
    check(
      "watch-list-routes",
      routesOk,
      routesOk
        ? "the watch list has the right routes"
        : `expected ${expectedText}, found '${answer.slice(0, 200)}'`,
    ),
    check("load-factors", valuesOk, valuesOk ? "load factors match" : `expected ${expectedText}`),
    check(
      "flights-operated",
      answerNumber(parsed?.flights_operated) === operated,
      `expected flights_operated ${operated}, found ${String(parsed?.flights_operated)}`,
    ),
    ...checkStateDiff(initial.db, final.db, []),
  ];
}

interface Options {
  countCancelled?: boolean;
  firstPageOnly?: boolean;
  noRetry?: boolean;
}

function cells(options: Options = {}): string[] {
  const lister = options.noRetry ? "tools.list_flights" : 'lambda **kw: call("list_flights", **kw)';
  return [
    AIRLINE_HELPERS,
    String.raw`
memo = read_text("memos/network-planning.md")
threshold = int(re.search(r"load factor is below (\d+)%", memo).group(1)) / 100
seats = {plane["tail"]: plane["seats"] for plane in fetch("list_aircraft", "aircraft")}
print(threshold, len(seats), "aircraft")
`,
    String.raw`
list_flights = ${lister}
flights, page = [], 1
while True:
    result = list_flights(date_from="${MONTH_START}", date_to=YESTERDAY, page=page, per_page=25)
    flights.extend(result["flights"])
    if ${options.firstPageOnly ? "True" : 'not result["has_more"]'}:
        break
    page += 1
print(len(flights), "flights in", page, "pages")
`,
    String.raw`
totals = {}
for flight in flights:
    if flight["status"] == "cancelled" and ${options.countCancelled ? "False" : "True"}:
        continue
    pax, flown = totals.get(flight["route_id"], (0, 0))
    totals[flight["route_id"]] = (pax + (flight["pax_boarded"] or 0), flown + seats[flight["tail"]])
watch = {route: round(pax / flown, 3) for route, (pax, flown) in sorted(totals.items()) if pax / flown < threshold}
operated = sum(1 for flight in flights if flight["status"] != "cancelled")
print(json.dumps({"flights_operated": operated, "watch_list": watch}))
`,
  ];
}

export const routeLoadFactorTask = defineTask({
  id: "airline.route-load-factor",
  domain: airlineDomain,
  summary:
    "Compute every route's load factor over the month so far (passengers boarded over seats of the operating aircraft, cancelled flights out) by paging through the whole schedule, whose deep pages fail transiently, and list the routes under the network memo's threshold.",
  instruction: `Network Planning here. ${TODAY_TEXT} Please run the route performance review described in our network planning memo for this month so far (from the 1st up to and including yesterday). Reply with only a JSON object {"flights_operated": <number of flights that operated in the period, all routes>, "watch_list": {"<route id, e.g. BOS-PWM>": <load factor as a fraction rounded to 3 decimals>, ...}} containing exactly the routes that go on the watch list.`,
  tools: ["list_routes", "list_aircraft", "get_aircraft", "list_flights", "get_flight"],
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, ORACLE_OPTIONS, {
    "first-page-only": [{ firstPageOnly: true }, "Reads only the first page of the schedule."],
    "counts-cancelled-seats": [
      { countCancelled: true },
      "Counts the seats of cancelled flights as flown (with no passengers).",
    ],
    "no-retry": [{ noRetry: true }, "Does not retry the schedule listing's 503 and stops there."],
  }),
});
