import { allRows, checkAnswerAmounts } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { stockLevels, unavailableCrews } from "../world.js";
import { defineUtilityTask } from "./common.js";

/** Units to order per part: every truck not in the shop, parts at or below the reorder point, up to par. */
export function expectedRestock(state: StateView): Map<string, number> {
  const levels = stockLevels(state);
  const away = unavailableCrews(state);
  const order = new Map<string, number>();
  for (const crew of allRows<{ crew_id: string; skill: string }>(
    state.db,
    "SELECT crew_id, skill FROM crews",
  )) {
    if (away.get(crew.crew_id) === "truck in shop") continue;
    const held = new Map(
      allRows<{ sku: string; quantity: number }>(
        state.db,
        "SELECT sku, quantity FROM truck_stock WHERE crew_id = ?",
        crew.crew_id,
      ).map((r) => [r.sku, r.quantity]),
    );
    for (const [sku, level] of levels) {
      const quantity = held.get(sku) ?? 0;
      if (level.skill === crew.skill && quantity <= level.reorder)
        order.set(sku, (order.get(sku) ?? 0) + level.par - quantity);
    }
  }
  return order;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkAnswerAmounts("answer", answer, expectedRestock(initial), 0)];
}

type Variant = { trustBodies?: boolean; listedOnly?: boolean; skipAllAway?: boolean };

function cell(variant: Variant): string {
  const get = variant.trustBodies
    ? 'tools.get_truck_stock(crew_id=crew["crew_id"])'
    : 'call("get_truck_stock", crew_id=crew["crew_id"])';
  return String.raw`
text = read_text("policies/truck-stock.md")
levels = {}
for skill in ("electric", "water"):
    for sku, _, reorder, par in md_table(text, skill + " trucks"):
        levels[sku] = (skill, int(reorder), int(par))
roster = {row[0]: row[1] for row in md_table(read_text("policies/dispatch.md"), "Unavailable today")}
order = {}
for crew in fetch("list_crews", "crews"):
    if ${variant.skipAllAway ? 'crew["crew_id"] in roster' : 'roster.get(crew["crew_id"]) == "truck in shop"'}:
        continue
    held = {item["sku"]: item["quantity"] for item in ${get}["items"]}
    for sku, (skill, reorder, par) in levels.items():
        if skill != crew["skill"]${variant.listedOnly ? " or sku not in held" : ""}:
            continue
        quantity = held.get(sku, 0)
        if quantity <= reorder:
            order[sku] = order.get(sku, 0) + par - quantity
print(json.dumps(dict(sorted(order.items()))))
`;
}

export const truckRestockTask = defineUtilityTask<Variant>({
  id: "utility.truck-restock",
  summary:
    "Total the parts to order so every truck not in the shop is restocked under the truck-stock policy.",
  instruction:
    'Put together this week\'s truck restock order following policies/truck-stock.md, using what each truck\'s handheld reports with get_truck_stock. Reply with a JSON object mapping each part SKU to order to the total units across all trucks, e.g. {"ELE-1002": 14, "WTR-2003": 6}.',
  tools: ["list_crews", "get_truck_stock"],
  verify,
  cells: cell,
  nearMisses: [
    [
      "trusts-error-bodies",
      "Takes an unsynced handheld's empty item list as an empty truck.",
      { trustBodies: true },
    ],
    ["listed-only", "Ignores parts missing from a truck's list.", { listedOnly: true }],
    [
      "skips-all-unavailable",
      "Leaves out every unavailable crew, not only trucks in the shop.",
      { skipAllAway: true },
    ],
  ],
});
