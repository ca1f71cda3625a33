import { allRows, checkAnswerIds } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { policyNumber, routes } from "../facts.js";
import { WEEK } from "../world.js";
import { defineTransportTask, nonEmpty } from "./common.js";

/** Routes whose AM boardings exceed their capacity (two per seat past elementary) on enough days of the week. */
export function expectedCrowded(state: StateView): string[] {
  const days = policyNumber(state, /exceed its capacity on (\d+) or more days/);
  const crowded = routes(state).filter((route) => {
    const rated = allRows<{ rated_capacity: number }>(
      state.db,
      "SELECT rated_capacity FROM buses WHERE bus_id = ?",
      route.bus_id,
    )[0]!.rated_capacity;
    const capacity = route.level === "elementary" ? rated : Math.floor((rated * 2) / 3);
    const counts = allRows<{ am_boardings: number }>(
      state.db,
      "SELECT am_boardings FROM ridership WHERE route_id = ? AND ride_date BETWEEN ? AND ?",
      route.route_id,
      WEEK[0],
      WEEK[WEEK.length - 1],
    );
    return counts.filter((row) => row.am_boardings > capacity).length >= days;
  });
  return nonEmpty(
    crowded.map((route) => route.route_id),
    "overcrowded route",
  );
}

type Variant = { ratedForAll?: boolean; anyDay?: boolean; inclusive?: boolean; wholeMonth?: boolean };

function cell(variant: Variant): string {
  return String.raw`
policy = read_text(POLICY)
days_needed = ${variant.anyDay ? "1" : 'int(re.search(r"exceed its capacity on (\\d+) or more days", policy).group(1))'}
levels = {s["school_id"]: s["level"] for s in fetch("list_schools", "schools")}
rated = {b["bus_id"]: b["rated_capacity"] for b in fetch("list_buses", "buses")}
crowded = []
for route in fetch("list_routes", "routes"):
    capacity = rated[route["bus_id"]]
    if levels[route["school_id"]] != "elementary"${variant.ratedForAll ? " and False" : ""}:
        capacity = capacity * 2 // 3
    counts = fetch("list_ridership", "ridership", route_id=route["route_id"]${variant.wholeMonth ? "" : ", date_from=WEEK[0], date_to=WEEK[-1]"})
    over = [c for c in counts if c["am_boardings"] ${variant.inclusive ? ">=" : ">"} capacity]
    if len(over) >= days_needed:
        crowded.append(route["route_id"])
print(json.dumps(crowded))
`;
}

export const overcrowdedRoutesTask = defineTransportTask<Variant>({
  id: "transport.overcrowded-routes",
  summary:
    "List the routes overcrowded in the week of 23 June under the policy's seating and day-count rules.",
  instruction:
    'Which AM routes were overcrowded in the week of 23-27 June 2025 under our transportation policy (policies/transportation-policy.md)? Use the ridership counts and each route\'s bus. Reply with a JSON array of route ids, e.g. ["RT-102"].',
  tools: ["list_schools", "list_routes", "list_buses", "list_ridership"],
  verify: ({ initial, answer }) => [checkAnswerIds(answer, expectedCrowded(initial))],
  cells: cell,
  nearMisses: [
    ["rated-for-all", "Uses rated capacity for middle and high school routes too.", { ratedForAll: true }],
    ["any-day", "Flags a route over capacity on a single day.", { anyDay: true }],
    ["at-capacity-counts", "Counts a day exactly at capacity as over it.", { inclusive: true }],
    ["whole-month", "Counts days over capacity in all of June, not the week.", { wholeMonth: true }],
  ],
});
