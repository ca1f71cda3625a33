import { allRows, checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { defineTransportTask, nonEmpty } from "./common.js";

/** Routes carrying a wheelchair user on a bus without a lift, each with the spare lift bus it gets, in order. */
export function expectedSwaps(state: StateView): Array<{ route: string; from: string; to: string }> {
  const routes = allRows<{ route_id: string; bus_id: string }>(
    state.db,
    `SELECT r.route_id, r.bus_id FROM routes r JOIN buses b ON b.bus_id = r.bus_id
      WHERE b.wheelchair_lift = 0 AND EXISTS (SELECT 1 FROM students s JOIN stops p ON p.stop_id = s.stop_id
                                              WHERE p.route_id = r.route_id AND s.transport_needs = 'wheelchair')
      ORDER BY r.route_id`,
  );
  const spares = allRows<{ bus_id: string }>(
    state.db,
    "SELECT bus_id FROM buses WHERE status = 'spare' AND wheelchair_lift = 1 ORDER BY bus_id",
  );
  if (spares.length < routes.length) throw new Error("not enough spare lift buses");
  return nonEmpty(
    routes.map((route, index) => ({ route: route.route_id, from: route.bus_id, to: spares[index]!.bus_id })),
    "route needing a lift bus",
  );
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const swaps = expectedSwaps(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      { table: "routes", key: "route_id", changed: new Map(swaps.map((s) => [s.route, { bus_id: s.to }])) },
      {
        table: "buses",
        key: "bus_id",
        changed: new Map<string, { status: string }>(
          swaps.flatMap((s) => [
            [s.to, { status: "in_service" }],
            [s.from, { status: "spare" }],
          ]),
        ),
      },
    ]),
    checkAnswerCount(answer, swaps.length),
  ];
}

type Variant = { anyNeeds?: boolean; firstSpare?: boolean };

function cell(variant: Variant): string {
  return String.raw`
route_of = {s["stop_id"]: s["route_id"] for s in fetch("list_stops", "stops")}
needs_lift = set()
for student in fetch("list_students", "students", riding=True):
    if student["transport_needs"] ${variant.anyNeeds ? '!= "none"' : '== "wheelchair"'}:
        needs_lift.add(route_of[student["stop_id"]])
buses = {b["bus_id"]: b for b in fetch("list_buses", "buses")}
spares = sorted(b["bus_id"] for b in buses.values() if b["status"] == "spare"${variant.firstSpare ? "" : ' and b["wheelchair_lift"]'})
swapped = 0
for route in fetch("list_routes", "routes"):
    if route["route_id"] in needs_lift and not buses[route["bus_id"]]["wheelchair_lift"]:
        call("assign_bus", route_id=route["route_id"], bus_id=spares.pop(0))
        swapped += 1
print(f"Swapped {swapped} buses")
`;
}

export const liftBusesTask = defineTransportTask<Variant>({
  id: "transport.lift-buses",
  summary:
    "Give every route carrying a wheelchair user a lift-equipped bus from the spare pool, as the policy says.",
  instruction:
    "Make sure every route that carries a student who uses a wheelchair runs a lift-equipped bus, following the wheelchair riders rule in our transportation policy (policies/transportation-policy.md). Change nothing else. Reply with the number of routes that got a different bus, e.g. `Swapped 2 buses`.",
  tools: ["list_routes", "list_stops", "list_students", "list_buses", "assign_bus"],
  verify,
  cells: cell,
  nearMisses: [
    ["any-special-needs", "Treats every student with transport needs as needing a lift.", { anyNeeds: true }],
    ["first-spare", "Takes the lowest-numbered spare bus, lift or not.", { firstSpare: true }],
  ],
});
