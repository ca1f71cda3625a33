import { checkAnswerAmounts, weekdayIndex } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { avlEvents, policyNumber, routes } from "../facts.js";
import { WEEK } from "../world.js";
import { avlExportCells, defineTransportTask, nonEmpty } from "./common.js";

/** Per route, the runs of the week whose first door opening at the school came too close to the bell. */
export function expectedLateRuns(state: StateView): Map<string, number> {
  const lead = policyNumber(state, /unload at least (\d+) minutes/);
  const lateStart = policyNumber(state, /rings (\d+) minutes after/);
  const late = new Map<string, number>();
  for (const route of routes(state))
    for (const date of WEEK) {
      const arrival = avlEvents(state, route.bus_id, date).find(
        (e) => e.event === "DOOR_OPEN" && e.geo === route.school_id,
      );
      if (!arrival) throw new Error(`no arrival for ${route.route_id} on ${date}`);
      const bell =
        Date.parse(`${date}T${route.bell_time}:00-05:00`) / 1000 +
        (weekdayIndex(date) === 2 ? lateStart * 60 : 0);
      if (arrival.at > bell - lead * 60) late.set(route.route_id, (late.get(route.route_id) ?? 0) + 1);
    }
  return nonEmpty(late, "late run");
}

type Variant = { noLateStart?: boolean; wallClock?: boolean; trustPartial?: boolean };

function cell(variant: Variant): string[] {
  const when = variant.wallClock ? `datetime.fromisoformat(line[:19])` : `event["at"]`;
  const zone = variant.wallClock ? "" : "-05:00";
  return [
    ...avlExportCells(variant.trustPartial),
    String.raw`
policy = read_text(POLICY)
lead = int(re.search(r"unload at least (\d+) minutes", policy).group(1))
late_start = int(re.search(r"rings (\d+) minutes after", policy).group(1))
bells = {s["school_id"]: s["bell_time"] for s in fetch("list_schools", "schools")}
late = Counter()
for route in routes:
    for day in WEEK:
        arrival = None
        for line in exports[(route["route_id"], day)]:
            event = parse_avl(line)
            if event and event["event"] == "DOOR_OPEN" and event["geo"] == route["school_id"]:
                arrival = ${when}
                break
        if arrival is None:
            continue
        bell = datetime.fromisoformat(f"{day}T{bells[route['school_id']]}:00${zone}")
        if Date.fromisoformat(day).weekday() == 2${variant.noLateStart ? " and False" : ""}:
            bell += timedelta(minutes=late_start)
        if arrival > bell - timedelta(minutes=lead):
            late[route["route_id"]] += 1
print(json.dumps(dict(sorted(late.items()))))
`,
  ];
}

export const lateArrivalsTask = defineTransportTask<Variant>({
  id: "transport.late-arrivals",
  summary:
    "Count each route's late AM arrivals of the week from the buses' AVL door events and the policy's on-time rule.",
  instruction:
    "For the board's on-time report I need, for the school week of 23-27 June 2025, how many AM runs of each route arrived late at its school under our transportation policy (policies/transportation-policy.md), judged from the buses' AVL exports. Reply with a JSON object mapping route id to its number of late runs, listing only routes with at least one, e.g. {\"RT-104\": 2}.",
  tools: ["list_schools", "list_routes", "list_buses", "fetch_avl"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, expectedLateRuns(initial), 0)],
  cells: cell,
  nearMisses: [
    ["ignores-late-start", "Holds Wednesday's runs to the regular bell.", { noLateStart: true }],
    ["wall-clock", "Reads the stamps' clock digits, though legacy units stamp UTC.", { wallClock: true }],
    ["trusts-partial-pages", "Takes a partial page as the end of the export.", { trustPartial: true }],
  ],
});
