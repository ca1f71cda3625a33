import { allRows, checkAnswerAmounts } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { avlEvents, routes } from "../facts.js";
import { WEEK } from "../world.js";
import { avlExportCells, defineTransportTask, nonEmpty } from "./common.js";

/** Per route, the open stops of the week's runs where the AVL export shows no door opening. */
export function expectedMissedStops(state: StateView): Map<string, number> {
  const missed = new Map<string, number>();
  for (const route of routes(state)) {
    const stops = allRows<{ stop_id: string }>(
      state.db,
      "SELECT stop_id FROM stops WHERE route_id = ? AND status = 'open'",
      route.route_id,
    );
    for (const date of WEEK) {
      const opened = new Set(
        avlEvents(state, route.bus_id, date)
          .filter((e) => e.event === "DOOR_OPEN")
          .map((e) => e.geo),
      );
      const count = stops.filter((stop) => !opened.has(stop.stop_id)).length;
      if (count > 0) missed.set(route.route_id, (missed.get(route.route_id) ?? 0) + count);
    }
  }
  return nonEmpty(missed, "missed stop");
}

type Variant = { closedToo?: boolean; trustPartial?: boolean; perRun?: boolean };

function cell(variant: Variant): string[] {
  return [
    ...avlExportCells(variant.trustPartial),
    String.raw`
missed = Counter()
for route in routes:
    stops = [s["stop_id"] for s in fetch("list_stops", "stops", route_id=route["route_id"]) if ${variant.closedToo ? "True" : 's["status"] == "open"'}]
    for day in WEEK:
        opened = set()
        for line in exports[(route["route_id"], day)]:
            event = parse_avl(line)
            if event and event["event"] == "DOOR_OPEN":
                opened.add(event["geo"])
        missing = sum(1 for s in stops if s not in opened)
        if missing:
            missed[route["route_id"]] += ${variant.perRun ? "1" : "missing"}
print(json.dumps(dict(sorted(missed.items()))))
`,
  ];
}

export const missedStopsTask = defineTransportTask<Variant>({
  id: "transport.missed-stops",
  summary: "Count each route's scheduled stops of the week where the AVL export shows no door opening.",
  instruction:
    'Parents say buses drove past their stops. For the week of 23-27 June 2025, count for each route the stop visits the AVL exports show no door opening at: every stop in service on the route, every school day\'s AM run (door events carry the stop id as their geofence). Reply with a JSON object mapping route id to its number of missed stop visits, listing only routes with at least one, e.g. {"RT-101": 1}.',
  tools: ["list_routes", "list_stops", "fetch_avl"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, expectedMissedStops(initial), 0)],
  cells: cell,
  nearMisses: [
    ["counts-closed-stops", "Counts stops already closed in the routing system.", { closedToo: true }],
    ["trusts-partial-pages", "Takes a partial page as the end of the export.", { trustPartial: true }],
    ["counts-runs", "Counts the runs that missed a stop, not the missed stop visits.", { perRun: true }],
  ],
});
