import { checkAnswerIdLists } from "../../../envs/index.js";
import type { StateView, VerifyContext } from "../../../envs/index.js";
import type { CountOptions } from "./facts.js";
import { countsByLocation, parsByLocation } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

/** Items counted below par at each location's latest count. */
export function expectedBelowPar(
  state: StateView,
  options: CountOptions & { week?: -1 | -2 } = {},
): Map<string, string[]> {
  const pars = parsByLocation(state);
  const result = new Map<string, string[]>();
  for (const [location, stock] of countsByLocation(state, options))
    result.set(
      location,
      [...pars.get(location)!].filter(([item, par]) => (stock.get(item) ?? 0) < par).map(([item]) => item),
    );
  return result;
}

function verify({ initial, answer }: VerifyContext) {
  const expected = expectedBelowPar(initial);
  if ([...expected.values()].every((items) => items.length === 0)) throw new Error("nothing below par");
  return [checkAnswerIdLists(answer, expected)];
}

interface Variant {
  week?: -1 | -2;
  firstSheetOnly?: boolean;
  ignoreUnits?: boolean;
}

function cells(variant: Variant): string {
  const options = `first_sheet_only=${variant.firstSheetOnly ? "True" : "False"}, ignore_units=${variant.ignoreUnits ? "True" : "False"}`;
  return String.raw`
policy = read_text("policies/purchasing.md")
answer = {}
for path in workbooks(${variant.week ?? -1}):
    location, stock = read_count(path, ${options})
    pars = fetch("list_par_levels", "par_levels", location_id=location)
    answer[location] = sorted(p["item_id"] for p in pars if stock.get(p["item_id"], 0) < p["par"])
print(json.dumps(answer))
`;
}

export const belowParTask = defineRestaurantTask({
  id: "restaurant.below-par",
  summary: "From each location's latest count workbook, list the items below their par level.",
  instruction:
    'Using each location\'s latest weekly count workbook in counts/ (follow our purchasing policy on how counts are read), list for every location the items whose counted stock is below that location\'s par level. Reply with a JSON object mapping each location id to the list of item ids below par, e.g. {"LOC-01": ["ITM-0004", "ITM-0031"], "LOC-02": []}.',
  tools: ["list_locations", "list_items", "get_item", "list_par_levels", "read_workbook"],
  verify,
  cells,
  nearMisses: {
    "previous-week": [
      { week: -2 },
      "Reads the first workbook of each folder, last week's count, not the latest.",
    ],
    "first-sheet-only": [
      { firstSheetOnly: true },
      "Reads only the workbook's first sheet (the walk-in), missing the other storage areas.",
    ],
    "cases-as-units": [{ ignoreUnits: true }, "Takes counts in cases as base units."],
  },
});
