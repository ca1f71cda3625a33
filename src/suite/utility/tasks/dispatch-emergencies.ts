import { allRows, checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { NOW, unavailableCrews } from "../world.js";
import { defineUtilityTask } from "./common.js";

/** Open P1/P2 orders, P1 first then oldest, each to the least-loaded available crew of its skill. */
export function expectedDispatches(state: StateView): Map<string, string> {
  const away = unavailableCrews(state);
  const crews = allRows<{ crew_id: string; skill: string }>(
    state.db,
    "SELECT crew_id, skill FROM crews ORDER BY crew_id",
  ).filter((c) => !away.has(c.crew_id));
  const load = new Map(crews.map((c) => [c.crew_id, 0]));
  for (const { crew_id } of allRows<{ crew_id: string }>(
    state.db,
    "SELECT crew_id FROM work_orders WHERE status = 'dispatched'",
  ))
    if (load.has(crew_id)) load.set(crew_id, load.get(crew_id)! + 1);
  const orders = allRows<{ work_order_id: string; utility: string }>(
    state.db,
    "SELECT work_order_id, utility FROM work_orders WHERE status = 'open' AND priority IN ('P1', 'P2') ORDER BY priority, created_at, work_order_id",
  );
  const plan = new Map<string, string>();
  for (const wo of orders) {
    const pick = crews
      .filter((c) => c.skill === wo.utility)
      .sort((a, b) => load.get(a.crew_id)! - load.get(b.crew_id)! || a.crew_id.localeCompare(b.crew_id))[0]!;
    plan.set(wo.work_order_id, pick.crew_id);
    load.set(pick.crew_id, load.get(pick.crew_id)! + 1);
  }
  return plan;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedDispatches(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "work_orders",
        key: "work_order_id",
        changed: new Map(
          [...expected].map(([id, crew_id]) => [id, { status: "dispatched", crew_id, dispatched_at: NOW }]),
        ),
      },
    ]),
    checkAnswerCount(answer, expected.size),
  ];
}

type Variant = { ignoreRoster?: boolean; staticLoad?: boolean; idOrder?: boolean };

function cell(variant: Variant): string {
  return String.raw`
away = {row[0] for row in md_table(read_text("policies/dispatch.md"), "Unavailable today")}
crews = [c for c in fetch("list_crews", "crews") if ${variant.ignoreRoster ? "True" : 'c["crew_id"] not in away'}]
load = {c["crew_id"]: 0 for c in crews}
for wo in fetch("list_work_orders", "work_orders", status="dispatched"):
    if wo["crew_id"] in load:
        load[wo["crew_id"]] += 1
waiting = [w for w in fetch("list_work_orders", "work_orders", status="open") if w["priority"] in ("P1", "P2")]
waiting.sort(key=lambda w: ${variant.idOrder ? 'w["work_order_id"]' : '(w["priority"], w["created_at"], w["work_order_id"])'})
for wo in waiting:
    crew = min((c for c in crews if c["skill"] == wo["utility"]), key=lambda c: (load[c["crew_id"]], c["crew_id"]))
    call("dispatch_work_order", work_order_id=wo["work_order_id"], crew_id=crew["crew_id"])
    ${variant.staticLoad ? "pass" : 'load[crew["crew_id"]] += 1'}
print(f"Dispatched {len(waiting)} work orders")
`;
}

export const dispatchEmergenciesTask = defineUtilityTask<Variant>({
  id: "utility.dispatch-emergencies",
  summary:
    "Dispatch the open P1/P2 work orders by the dispatch policy's order, skill, roster and load rules.",
  instruction:
    "Start-of-shift dispatch: send every open P1 and P2 work order to a crew following policies/dispatch.md, with dispatch_work_order. Leave everything else alone. Reply with how many orders you dispatched, e.g. `Dispatched 6 work orders`.",
  tools: ["list_work_orders", "get_work_order", "list_crews", "dispatch_work_order"],
  verify,
  cells: cell,
  nearMisses: [
    ["ignores-roster", "Dispatches to crews the roster lists as unavailable.", { ignoreRoster: true }],
    [
      "static-load",
      "Does not count the orders it dispatches this morning in the crews' loads.",
      { staticLoad: true },
    ],
    ["id-order", "Dispatches in work order id order instead of P1 first.", { idOrder: true }],
  ],
});
