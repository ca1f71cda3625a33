import { allRows, checkAnswerAmounts, roundCents } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import type { CountOptions } from "./facts.js";
import { LAST_WEEK, catalogue, countsByLocation, deliveries, unitCost } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

interface Variant extends CountOptions {
  noYield?: boolean;
  noDeliveries?: boolean;
}

/** Actual usage (opening count + deliveries - closing count) minus theoretical usage (sales x recipes), in dollars. */
export function expectedVariance(state: StateView, variant: Variant = {}): Map<string, number> {
  const items = catalogue(state);
  const opening = countsByLocation(state, { ...variant, week: -2 });
  const closing = countsByLocation(state, variant);
  const lines = allRows<{ recipe_id: string; item_id: string; quantity: number; yield_portions: number }>(
    state.db,
    "SELECT l.recipe_id, l.item_id, l.quantity, r.yield_portions FROM recipe_lines l JOIN recipes r ON r.recipe_id = l.recipe_id",
  );
  const sales = allRows<{ location_id: string; recipe_id: string; portions: number }>(
    state.db,
    "SELECT location_id, recipe_id, SUM(portions) AS portions FROM sales WHERE sold_on BETWEEN ? AND ? GROUP BY location_id, recipe_id",
    [LAST_WEEK.from, LAST_WEEK.to],
  );
  const value = (stock: ReadonlyMap<string, number> = new Map()): number =>
    [...stock].reduce((total, [item, units]) => total + units * unitCost(items.get(item)!), 0);
  const result = new Map<string, number>();
  for (const location of closing.keys()) {
    let total = value(opening.get(location)) - value(closing.get(location));
    if (!variant.noDeliveries)
      for (const d of deliveries(state))
        if (d.location_id === location && d.delivered_on >= LAST_WEEK.from && d.delivered_on <= LAST_WEEK.to)
          total += d.cases * items.get(d.item_id)!.case_price;
    for (const sale of sales.filter((s) => s.location_id === location))
      for (const line of lines.filter((l) => l.recipe_id === sale.recipe_id))
        total -=
          (sale.portions * line.quantity * unitCost(items.get(line.item_id)!)) /
          (variant.noYield ? 1 : line.yield_portions);
    result.set(location, roundCents(total));
  }
  return result;
}

function cells(variant: Variant): string[] {
  const sheets = `first_sheet_only=${variant.firstSheetOnly ? "True" : "False"}`;
  return [
    String.raw`
load_catalogue()
week_from, week_to = add_days(today, -7), add_days(today, -1)
def cost(item_id):
    return catalogue[item_id]["case_price"] / catalogue[item_id]["pack_size"]
recipes = {}
for recipe in fetch("list_recipes", "recipes"):
    detail = call("get_recipe", recipe_id=recipe["recipe_id"])
    recipes[recipe["recipe_id"]] = (detail["recipe"]["yield_portions"], detail["lines"])
received = {}
for d in fetch("list_deliveries", "deliveries", date_from=week_from, date_to=week_to):
    received[d["location_id"]] = received.get(d["location_id"], 0) + d["cases"] * catalogue[d["item_id"]]["case_price"]
print(len(recipes), received)
`,
    String.raw`
variance = {}
for before, after in zip(workbooks(-2), workbooks(-1)):
    location, opening = read_count(before, ${sheets})
    _, closing = read_count(after, ${sheets})
    actual = sum(q * cost(i) for i, q in opening.items()) - sum(q * cost(i) for i, q in closing.items())
    actual += ${variant.noDeliveries ? "0" : "received.get(location, 0)"}
    theoretical = 0.0
    for sale in fetch("list_sales", "sales", location_id=location, date_from=week_from, date_to=week_to):
        portions, lines = recipes[sale["recipe_id"]]
        for line in lines:
            theoretical += sale["portions"] * line["quantity"] * cost(line["item_id"]) / ${variant.noYield ? "1" : "portions"}
    variance[location] = round(actual - theoretical, 2)
print(json.dumps(variance))
`,
  ];
}

export const foodCostVarianceTask = defineRestaurantTask({
  id: "restaurant.food-cost-variance",
  summary:
    "Last week's food cost variance per location: actual usage from counts and deliveries minus theoretical usage from sales and recipes.",
  instruction:
    'Compute last week\'s (Monday to Sunday) food cost variance for every location, at catalogue cost per base unit (case price / pack size). Actual usage is the opening stock (the previous week\'s count workbook in counts/) plus everything delivered during the week minus the closing stock (the latest count workbook); theoretical usage is what the week\'s sales should have consumed according to the recipes. Variance = actual - theoretical. Reply with a JSON object mapping each location id to its variance in dollars (rounded to cents), e.g. {"LOC-01": 412.07, "LOC-02": -35.5}.',
  tools: [
    "list_locations",
    "list_items",
    "list_deliveries",
    "list_recipes",
    "get_recipe",
    "list_sales",
    "read_workbook",
  ],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, expectedVariance(initial), 0.05)],
  cells,
  nearMisses: {
    "batch-as-portion": [
      { noYield: true },
      "Uses a recipe's batch quantities per portion, forgetting the yield.",
    ],
    "ignores-deliveries": [{ noDeliveries: true }, "Leaves the week's deliveries out of actual usage."],
    "first-sheet-only": [{ firstSheetOnly: true }, "Counts only each workbook's first sheet."],
  },
});
