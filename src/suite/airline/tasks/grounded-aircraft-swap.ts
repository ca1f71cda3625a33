import {
  allRows,
  answerObjectEntries,
  check,
  checkStateDiff,
  defineTask,
  getRow,
  groupBy,
  type Check,
  type StateView,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { airlineDomain } from "../domain.js";
import { AIRLINE_HELPERS } from "./python.js";
import type { FlightRecord } from "../schema.js";
import { TODAY, TODAY_TEXT, minutesOf, ORACLE_OPTIONS } from "./shared.js";

/** The ops-control AOG email: the tail it grounds and the turnaround it asks to keep around swapped flights. */
export function aogEmail(state: StateView): { tail: string; turnaround: number } {
  for (const path of state.listFiles().filter((file) => file.startsWith("emails/"))) {
    const text = state.readFile(path) ?? "";
    const match = /^Subject: AOG (N\d{3}RA)\b/m.exec(text);
    const turnaround = /keeping at least (\d+) minutes/.exec(text)?.[1];
    if (match?.[1] && turnaround) return { tail: match[1], turnaround: Number(turnaround) };
  }
  throw new Error("no AOG email in the workspace");
}

/** The tail named by the ops-control AOG email. */
export function groundedTail(state: StateView): string {
  return aogEmail(state).tail;
}

/** The swaps the email asks for: each not-yet-departed flight of the grounded aircraft, in departure order, onto the lowest free active tail of its type. */
export function expectedSwaps(state: StateView): { tail: string; swaps: Map<string, string> } {
  const { tail, turnaround } = aogEmail(state);
  const type = getRow<{ type_code: string }>(
    state.db,
    "SELECT type_code FROM aircraft WHERE tail = ?",
    tail,
  )?.type_code;
  const candidates = allRows<{ tail: string }>(
    state.db,
    "SELECT tail FROM aircraft WHERE type_code = ? AND status = 'active' AND tail <> ? ORDER BY tail",
    type,
    tail,
  ).map((row) => row.tail);
  const flights = allRows<FlightRecord>(
    state.db,
    "SELECT * FROM flights WHERE flight_date >= ? AND status <> 'cancelled' ORDER BY scheduled_departure, flight_id",
    TODAY,
  );
  const span = (flight: FlightRecord): [number, number] => [
    minutesOf(flight.scheduled_departure),
    minutesOf(flight.scheduled_arrival),
  ];
  const busy = groupBy(flights, (flight) => flight.tail);
  const swaps = new Map<string, string>();
  for (const flight of flights.filter((row) => row.tail === tail && row.status === "scheduled")) {
    const [departs, arrives] = span(flight);
    const free = candidates.find((candidate) =>
      (busy.get(candidate) ?? [])
        .map(span)
        .every(([start, end]) => start >= arrives + turnaround || end + turnaround <= departs),
    );
    if (!free) continue;
    swaps.set(flight.flight_id, free);
    busy.set(free, [...(busy.get(free) ?? []), flight]);
  }
  return { tail, swaps };
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const { tail, swaps } = expectedSwaps(initial);
  const given = answerObjectEntries(answer, "swaps")?.map(([key, value]) => [
    key.trim().toUpperCase(),
    String(value).trim().toUpperCase(),
  ]);
  const answerOk =
    given !== undefined &&
    given.length === swaps.size &&
    given.every(([flight, newTail]) => swaps.get(flight ?? "") === newTail);
  return [
    ...checkStateDiff(initial.db, final.db, [
      { table: "aircraft", key: "tail", changed: new Map([[tail, { status: "grounded" }]]) },
      {
        table: "flights",
        key: "flight_id",
        changed: new Map([...swaps].map(([flight, newTail]) => [flight, { tail: newTail }])),
      },
    ]),
    check(
      "answer-lists-swaps",
      answerOk,
      answerOk
        ? "answer lists the swaps"
        : `expected {"swaps": ${JSON.stringify(Object.fromEntries(swaps))}}, found '${answer.slice(0, 200)}'`,
    ),
  ];
}

interface Options {
  anyStatus?: boolean;
  todayOnly?: boolean;
  skipGrounding?: boolean;
  ignoreOverlap?: boolean;
}

function cells(options: Options = {}): string[] {
  return [
    AIRLINE_HELPERS,
    String.raw`
grounded = None
for path in sorted(folder_paths("emails")):
    text = read_text(path)
    match = re.search(r"^Subject: AOG (N\d{3}RA)\b", text, re.M)
    if match:
        grounded = match.group(1)
        print(path)
        print(text)
plane = call("get_aircraft", tail=grounded)["aircraft"]
print(plane)
`,
    String.raw`
fleet = fetch("list_aircraft", "aircraft", type_code=plane["type_code"])
candidates = sorted(a["tail"] for a in fleet if a["tail"] != grounded and ${options.anyStatus ? 'a["status"] != "grounded"' : 'a["status"] == "active"'})
busy = {}
for tail in candidates + [grounded]:
    busy[tail] = [f for f in fetch("list_flights", "flights", tail=tail, date_from=TODAY) if f["status"] != "cancelled"]
to_move = sorted((f for f in busy[grounded] if f["status"] == "scheduled"${options.todayOnly ? ' and f["flight_date"] == TODAY' : ""}), key=lambda f: (f["scheduled_departure"], f["flight_id"]))
print(candidates, [f["flight_id"] for f in to_move])
`,
    String.raw`
def free(tail, flight):
    ${options.ignoreOverlap ? "return True" : ""}
    for other in busy[tail]:
        if not (minutes_between(flight["scheduled_arrival"], other["scheduled_departure"]) >= 30 or minutes_between(other["scheduled_arrival"], flight["scheduled_departure"]) >= 30):
            return False
    return True

${options.skipGrounding ? "" : 'call("set_aircraft_status", tail=grounded, status="grounded")'}
swaps = {}
for flight in to_move:
    tail = next((t for t in candidates if free(t, flight)), None)
    if tail is None:
        print("no aircraft for", flight["flight_id"])
        continue
    call("assign_aircraft", flight_id=flight["flight_id"], tail=tail)
    busy[tail].append(flight)
    swaps[flight["flight_id"]] = tail
print(json.dumps({"swaps": swaps}))
`,
  ];
}

export const groundedAircraftSwapTask = defineTask({
  id: "airline.grounded-aircraft-swap",
  domain: airlineDomain,
  summary:
    "Act on the ops-control AOG email: ground the aircraft and move each of its not-yet-departed flights (today and tomorrow) onto the lowest-tail active aircraft of the same type that is free with 30 minutes' turnaround.",
  instruction: `Ops control desk. ${TODAY_TEXT} One of our aircraft went AOG this morning; the details and what has to happen are in the ops-control email in the emails folder. Please carry it out in the ops system. Reply with only a JSON object {"swaps": {"<flight_id>": "<tail now operating it>", ...}} listing every flight you moved.`,
  tools: [
    "list_aircraft",
    "get_aircraft",
    "list_flights",
    "get_flight",
    "assign_aircraft",
    "set_aircraft_status",
  ],
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, ORACLE_OPTIONS, {
    "uses-maintenance-aircraft": [{ anyStatus: true }, "Takes aircraft that are in maintenance."],
    "today-only": [{ todayOnly: true }, "Moves only today's flights and forgets tomorrow's."],
    "not-grounded": [{ skipGrounding: true }, "Moves the flights but never marks the aircraft grounded."],
    "ignores-turnaround": [
      { ignoreOverlap: true },
      "Takes the lowest active tail without checking that it is free.",
    ],
  }),
});
