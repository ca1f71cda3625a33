import { checkAnswerAmounts, roundCents } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import type { CountOptions } from "./facts.js";
import { agreements, catalogue, countsByLocation } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

interface Variant extends CountOptions {
  cataloguePrice?: boolean;
}

/** Each location's latest count valued at the supplier's agreed case price, else the catalogue's. */
export function expectedStockValue(state: StateView, variant: Variant = {}): Map<string, number> {
  const items = catalogue(state);
  const terms = agreements(state);
  const result = new Map<string, number>();
  for (const [location, stock] of countsByLocation(state, variant)) {
    let total = 0;
    for (const [id, units] of stock) {
      const item = items.get(id)!;
      const agreed = variant.cataloguePrice ? undefined : terms.get(item.supplier_id)?.prices.get(id);
      total += (units * (agreed ?? item.case_price)) / item.pack_size;
    }
    result.set(location, roundCents(total));
  }
  return result;
}

function cells(variant: Variant): string {
  return String.raw`
load_catalogue()
policy = read_text("policies/purchasing.md")
agreed = {}
for path in workspace_files("agreements"):
    text = read_text(path)
    supplier = re.search(r"supplier id (SUP-\d+)", text).group(1)
    for row in md_table(text, "Agreed prices"):
        agreed[(supplier, row[0])] = float(row[2])
values = {}
for path in workbooks():
    location, stock = read_count(path, first_sheet_only=${variant.firstSheetOnly ? "True" : "False"}, ignore_units=${variant.ignoreUnits ? "True" : "False"})
    total = 0.0
    for code, units in stock.items():
        item = catalogue[code]
        price = ${variant.cataloguePrice ? 'item["case_price"]' : 'agreed.get((item["supplier_id"], code), item["case_price"])'}
        total += units * price / item["pack_size"]
    values[location] = round(total, 2)
print(json.dumps(values))
`;
}

export const inventoryValueTask = defineRestaurantTask({
  id: "restaurant.inventory-value",
  summary: "Value each location's latest count at the agreed supplier prices, falling back to the catalogue.",
  instruction:
    'What is the stock on hand worth at each location, according to its latest count workbook in counts/? Value it as our purchasing policy (policies/purchasing.md) says. Reply with a JSON object mapping each location id to the value in dollars (rounded to cents), e.g. {"LOC-01": 18250.4}.',
  tools: ["list_locations", "list_items", "get_item", "list_suppliers", "read_workbook"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, expectedStockValue(initial), 0.05)],
  cells,
  nearMisses: {
    "catalogue-price": [
      { cataloguePrice: true },
      "Values everything at the catalogue price, ignoring the price agreements.",
    ],
    "cases-as-units": [{ ignoreUnits: true }, "Takes counts in cases as base units."],
    "first-sheet-only": [{ firstSheetOnly: true }, "Reads only each workbook's first sheet."],
  },
});
