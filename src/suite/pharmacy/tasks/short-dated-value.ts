import {
  REFERENCE_DATE,
  addDays,
  checkAnswerAmounts,
  roundCents,
  sumBy,
  type Flags,
} from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { readInventoryRules } from "../workspace-facts.js";
import { pharmacyTask, stockRows } from "./pharmacy-task.js";

/** Value at unit cost of available short-dated stock, by location. */
export function expectedShortDated(state: StateView): Map<string, number> {
  const last = addDays(REFERENCE_DATE, readInventoryRules(state).shortDatedDays);
  const rows = stockRows(state).filter(
    (row) =>
      row.status === "available" &&
      row.quantity > 0 &&
      row.expiry_date >= REFERENCE_DATE &&
      row.expiry_date <= last,
  );
  const values = sumBy(
    rows,
    (row) => row.location_id,
    (row) => (row.quantity * row.pack_cost) / row.pack_size,
  );
  return new Map([...values].map(([location, value]) => [location, roundCents(value)]));
}

function cells(variant: Flags<"includeQuarantined" | "packCostPerUnit" | "excludeLastDay">): string[] {
  return [
    String.raw`
days = policy_number("policies/inventory-management.md", r"through (\d+) days from today")
last = add_days(today, days${variant.excludeLastDay ? " - 1" : ""})
drugs, values = {}, {}
for location in fetch("list_locations", "locations"):
    rows = fetch("list_inventory", "stock", location_id=location["location_id"], expires_to=last${variant.includeQuarantined ? "" : ', status="available"'})
    for row in rows:
        if row["expiry_date"] < today or row["quantity"] == 0:
            continue
        if row["drug_id"] not in drugs:
            drugs[row["drug_id"]] = call("get_drug", drug_id=row["drug_id"])["drug"]
        drug = drugs[row["drug_id"]]
        unit_cost = ${variant.packCostPerUnit ? 'drug["pack_cost"]' : 'drug["pack_cost"] / drug["pack_size"]'}
        values[row["location_id"]] = values.get(row["location_id"], 0) + row["quantity"] * unit_cost
print(json.dumps({location: round(value + 1e-9, 2) for location, value in sorted(values.items())}))
`,
  ];
}

export const shortDatedValueTask = pharmacyTask({
  id: "pharmacy.short-dated-value",
  summary:
    "Value at unit cost of available short-dated stock per location, window from the inventory policy.",
  instruction:
    'Finance wants the value of our short-dated stock per location, as defined in the inventory management policy (which also says how to value it). Only count stock that is available. Reply with a JSON object mapping each location id that has short-dated stock to its value in dollars, rounded to the cent only after summing, e.g. `{"LOC-01": 1234.56, "LOC-05": 88.10}`.',
  tools: ["list_drugs", "get_drug", "list_locations", "list_lots", "list_inventory"],
  expected: expectedShortDated,
  nothing: "short-dated stock",
  checks: (expected, { answer }) => [checkAnswerAmounts("answer-amounts", answer, expected, 0.011)],
  cells,
  nearMisses: {
    "includes-quarantined": [{ includeQuarantined: true }, "Values quarantined short-dated stock too."],
    "pack-cost-as-unit-cost": [
      { packCostPerUnit: true },
      "Multiplies units by the pack cost instead of the unit cost.",
    ],
    "window-end-exclusive": [
      { excludeLastDay: true },
      "Leaves out lots expiring on the last day of the window.",
    ],
  },
});
