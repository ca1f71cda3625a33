import { allRows, checkAnswerAmounts } from "../../../envs/index.js";
import type { StateView, VerifyContext } from "../../../envs/index.js";
import { catalogue, policyTable, unitCost } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

/** Food cost % (one decimal) of the recipes above their category's target. */
export function expectedOverTarget(state: StateView): Map<string, number> {
  const items = catalogue(state);
  const targets = new Map(
    policyTable(state, "policies/menu-costing.md", "Food cost targets").map((row) => [
      row[0]!,
      Number(row[1]),
    ]),
  );
  type Recipe = { recipe_id: string; category: string; menu_price: number; yield_portions: number };
  const recipes = allRows<Recipe>(
    state.db,
    "SELECT recipe_id, category, menu_price, yield_portions FROM recipes",
  );
  const lines = allRows<{ recipe_id: string; item_id: string; quantity: number }>(
    state.db,
    "SELECT * FROM recipe_lines",
  );
  const result = new Map<string, number>();
  for (const recipe of recipes) {
    const batch = lines
      .filter((line) => line.recipe_id === recipe.recipe_id)
      .reduce((sum, line) => sum + line.quantity * unitCost(items.get(line.item_id)!), 0);
    const percent = (batch / recipe.yield_portions / recipe.menu_price) * 100;
    if (percent > targets.get(recipe.category)!) result.set(recipe.recipe_id, Math.round(percent * 10) / 10);
  }
  return result;
}

function verify({ initial, answer }: VerifyContext) {
  const expected = expectedOverTarget(initial);
  if (!expected.has("RCP-003")) throw new Error("RCP-003 should be over its target");
  return [checkAnswerAmounts("answer", answer, expected, 0.051)];
}

interface Variant {
  noYield?: boolean;
  skipErrors?: boolean;
  oneTarget?: boolean;
}

function cells(variant: Variant): string {
  const detail = variant.skipErrors
    ? String.raw`    detail = tools.get_recipe(recipe_id=recipe["recipe_id"])
    if "lines" not in detail:
        continue`
    : String.raw`    detail = call("get_recipe", recipe_id=recipe["recipe_id"])`;
  return String.raw`
load_catalogue()
targets = {row[0]: float(row[1]) for row in md_table(read_text("policies/menu-costing.md"), "Food cost targets")}
over = {}
for recipe in fetch("list_recipes", "recipes"):
${detail}
    batch = sum(l["quantity"] * catalogue[l["item_id"]]["case_price"] / catalogue[l["item_id"]]["pack_size"] for l in detail["lines"])
    plate = batch / ${variant.noYield ? "1" : 'recipe["yield_portions"]'}
    percent = plate / recipe["menu_price"] * 100
    target = ${variant.oneTarget ? 'targets["main"]' : 'targets[recipe["category"]]'}
    if percent > target:
        over[recipe["recipe_id"]] = round(percent, 1)
print(json.dumps(over))
`;
}

export const menuCostingTask = defineRestaurantTask({
  id: "restaurant.menu-costing",
  summary: "Food cost % of every recipe over its category's target in the menu-costing policy.",
  instruction:
    'Find the menu recipes whose food cost percentage is above the target for their category, costed exactly as policies/menu-costing.md describes. Reply with a JSON object mapping each such recipe id to its food cost % rounded to one decimal, e.g. {"RCP-007": 36.4}.',
  tools: ["list_items", "get_item", "list_recipes", "get_recipe"],
  verify,
  cells,
  nearMisses: {
    "batch-as-plate": [{ noYield: true }, "Takes the batch cost as the plate cost, forgetting the yield."],
    "skips-error-body": [
      { skipErrors: true },
      "Skips a recipe whose lookup came back as an error body instead of retrying.",
    ],
    "one-target": [{ oneTarget: true }, "Holds every category to the mains' target."],
  },
});
