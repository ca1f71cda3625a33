import { checkAnswerAmounts, type StateView, type Flags } from "../../../envs/index.js";
import { recalledLotIds } from "../workspace-facts.js";
import { pharmacyTask, stockRows, unitsBy } from "./pharmacy-task.js";
import { recallsPy } from "./python.js";

/** Available units of recalled lots still loaded in each cabinet. */
export function expectedCabinetUnits(state: StateView): Map<string, number> {
  const lots = recalledLotIds(state);
  const rows = stockRows(state).filter(
    (row) => row.kind === "cabinet" && lots.has(row.lot_id) && row.status === "available" && row.quantity > 0,
  );
  return unitsBy(rows, (row) => row.location_id);
}

function cells(variant: Flags<"updates" | "matchNdc" | "allLocations">): string[] {
  return [
    recallsPy(variant),
    String.raw`
cabinets = {loc["location_id"] for loc in fetch("list_locations", "locations", kind="cabinet")}
units = {}
for lot_id in sorted(recalled_lots()):
    for row in fetch("list_inventory", "stock", lot_id=lot_id, status="available"):
        if ${variant.allLocations ? "True" : 'row["location_id"] in cabinets'} and row["quantity"] > 0:
            units[row["location_id"]] = units.get(row["location_id"], 0) + row["quantity"]
print(json.dumps(dict(sorted(units.items()))))
`,
  ];
}

export const recalledStockInCabinetsTask = pharmacyTask({
  id: "pharmacy.recalled-stock-in-cabinets",
  summary:
    "Per automated dispensing cabinet, the available units of recalled lots (all recall notices and e-mailed expansions; lot number and NDC must match) still loaded.",
  instruction:
    'Before nursing pulls anything else, I need to know which automated dispensing cabinets still hold available (not quarantined) units of a recalled lot. Use every recall notice in recalls/ and the recall expansions that arrived by e-mail in inbox/; a lot is affected only when both its lot number and its product\'s NDC match. Pharmacy locations are not part of this question. Reply with a JSON object mapping each cabinet\'s location id to its total available units of affected lots, leaving out cabinets with none, e.g. `{"LOC-04": 12, "LOC-07": 5}`.',
  tools: ["list_locations", "list_lots", "get_lot", "list_inventory", "get_drug"],
  expected: expectedCabinetUnits,
  nothing: "recalled stock in cabinets",
  checks: (expected, { answer }) => [checkAnswerAmounts("answer-amounts", answer, expected, 0)],
  cells,
  nearMisses: {
    "includes-pharmacies": [
      { allLocations: true },
      "Counts the central and satellite pharmacy shelves as well.",
    ],
    "ignores-update-email": [{ updates: false }, "Misses the lot a recall e-mail added."],
    "lot-number-only": [{ matchNdc: false }, "Counts another product that shares a recalled lot number."],
  },
});
