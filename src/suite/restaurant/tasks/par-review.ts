import { allRows, checkCountedWrites } from "../../../envs/index.js";
import type { StateView, VerifyContext } from "../../../envs/index.js";
import { catalogue, policyNumber } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

interface Variant {
  noYield?: boolean;
  wholeUnits?: boolean;
  lastWeekOnly?: boolean;
}

const WINDOW = { from: "2025-06-09", to: "2025-06-29" };

/** New pars: the policy's multiple of the average weekly theoretical usage over three weeks, in whole cases. */
export function expectedPars(state: StateView, variant: Variant = {}): Map<number, { par: number }> {
  const factor = policyNumber(state, "policies/purchasing.md", /par of ([\d.]+) times/);
  const items = catalogue(state);
  const usage = allRows<{ location_id: string; item_id: string; units: number }>(
    state.db,
    `SELECT s.location_id, l.item_id, SUM(s.portions * l.quantity / ${variant.noYield ? "1.0" : "r.yield_portions"}) AS units
       FROM sales s JOIN recipes r ON r.recipe_id = s.recipe_id JOIN recipe_lines l ON l.recipe_id = s.recipe_id
      WHERE s.sold_on BETWEEN ? AND ? GROUP BY s.location_id, l.item_id`,
    [variant.lastWeekOnly ? "2025-06-23" : WINDOW.from, WINDOW.to],
  );
  const weekly = new Map(
    usage.map((u) => [`${u.location_id}/${u.item_id}`, u.units / (variant.lastWeekOnly ? 1 : 3)]),
  );
  const result = new Map<number, { par: number }>();
  for (const row of allRows<{ rowid: number; location_id: string; item_id: string; par: number }>(
    state.db,
    "SELECT rowid, location_id, item_id, par FROM par_levels",
  )) {
    const used = weekly.get(`${row.location_id}/${row.item_id}`);
    if (used === undefined) continue;
    const pack = items.get(row.item_id)!.pack_size;
    const par = variant.wholeUnits
      ? Math.ceil(factor * used)
      : Math.ceil((factor * used) / pack - 1e-9) * pack;
    if (Math.abs(par - row.par) > 1e-9) result.set(row.rowid, { par });
  }
  return result;
}

function verify(context: VerifyContext) {
  const expected = expectedPars(context.initial);
  return checkCountedWrites(context, expected.size, [{ table: "par_levels", changed: expected }]);
}

function cells(variant: Variant): string[] {
  return [
    String.raw`
load_catalogue()
factor = float(re.search(r"par of ([\d.]+) times", read_text("policies/purchasing.md")).group(1))
recipes = {}
for recipe in fetch("list_recipes", "recipes"):
    detail = call("get_recipe", recipe_id=recipe["recipe_id"])
    recipes[recipe["recipe_id"]] = (detail["recipe"]["yield_portions"], detail["lines"])
print(factor, len(recipes))
`,
    String.raw`
changed = 0
weeks = ${variant.lastWeekOnly ? "1" : "3"}
for location in fetch("list_locations", "locations"):
    lid = location["location_id"]
    used = {}
    for sale in fetch("list_sales", "sales", location_id=lid, date_from=${variant.lastWeekOnly ? '"2025-06-23"' : '"2025-06-09"'}, date_to="2025-06-29"):
        portions, lines = recipes[sale["recipe_id"]]
        for line in lines:
            used[line["item_id"]] = used.get(line["item_id"], 0) + sale["portions"] * line["quantity"] / ${variant.noYield ? "1" : "portions"}
    for par in fetch("list_par_levels", "par_levels", location_id=lid):
        if par["item_id"] not in used:
            continue
        pack = catalogue[par["item_id"]]["pack_size"]
        target = factor * used[par["item_id"]] / weeks
        new = ${variant.wholeUnits ? "math.ceil(target)" : "math.ceil(target / pack - 1e-9) * pack"}
        if abs(new - par["par"]) > 1e-9:
            call("set_par_level", location_id=lid, item_id=par["item_id"], par=new)
            changed += 1
print(f"Updated {changed} par levels")
`,
  ];
}

export const parReviewTask = defineRestaurantTask({
  id: "restaurant.par-review",
  summary:
    "Reset the pars of recipe items from three weeks of sales and the recipes, in whole cases, per the par review rule.",
  instruction:
    "Do this month's par review for every location as our purchasing policy (policies/purchasing.md) describes, and update the par levels that change with set_par_level. Change nothing else. Reply with the number of par levels you changed, e.g. `Updated 40 par levels`.",
  tools: [
    "list_locations",
    "list_items",
    "list_recipes",
    "get_recipe",
    "list_sales",
    "list_par_levels",
    "set_par_level",
  ],
  verify,
  cells,
  nearMisses: {
    "batch-as-portion": [
      { noYield: true },
      "Uses a recipe's batch quantities per portion, forgetting the yield.",
    ],
    "whole-units": [
      { wholeUnits: true },
      "Rounds the new par up to whole base units instead of whole cases.",
    ],
    "last-week-only": [{ lastWeekOnly: true }, "Takes last week's usage instead of the three-week average."],
  },
});
