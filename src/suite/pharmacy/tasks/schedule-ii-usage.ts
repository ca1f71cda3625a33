import {
  REFERENCE_DATE,
  addDays,
  allRows,
  checkAnswerAmounts,
  type StateView,
  type Flags,
} from "../../../envs/index.js";
import { pharmacyTask, unitsBy } from "./pharmacy-task.js";

/** Units of each schedule II drug dispensed from cabinets in the seven days ending yesterday. */
export function expectedUsage(state: StateView): Map<string, number> {
  const rows = allRows<{ drug_id: string; quantity: number }>(
    state.db,
    `SELECT l.drug_id, d.quantity FROM dispenses d JOIN lots l ON l.lot_id = d.lot_id
       JOIN drugs g ON g.drug_id = l.drug_id JOIN locations loc ON loc.location_id = d.location_id
      WHERE g.schedule = 'II' AND loc.kind = 'cabinet' AND substr(d.dispensed_at, 1, 10) BETWEEN ? AND ?`,
    addDays(REFERENCE_DATE, -7),
    addDays(REFERENCE_DATE, -1),
  );
  return unitsBy(rows, (row) => row.drug_id);
}

function cells(variant: Flags<"includeToday" | "includePharmacies" | "allSchedules">): string[] {
  return [
    String.raw`
start, end = add_days(today, -7), ${variant.includeToday ? "today" : "add_days(today, -1)"}
cabinets = {loc["location_id"] for loc in fetch("list_locations", "locations"${variant.includePharmacies ? "" : ', kind="cabinet"'})}
drugs = fetch("list_drugs", "drugs", ${variant.allSchedules ? "controlled=True" : 'schedule="II"'})
usage = {}
for drug in drugs:
    for lot in fetch("list_lots", "lots", drug_id=drug["drug_id"]):
        for dispense in fetch("list_dispenses", "dispenses", lot_id=lot["lot_id"], date_from=start):
            if dispense["dispensed_at"][:10] <= end and dispense["location_id"] in cabinets:
                usage[drug["drug_id"]] = usage.get(drug["drug_id"], 0) + dispense["quantity"]
print(json.dumps(dict(sorted(usage.items()))))
`,
  ];
}

export const scheduleIiUsageTask = pharmacyTask({
  id: "pharmacy.schedule-ii-usage",
  summary:
    "The weekly schedule II usage report: units dispensed from cabinets per drug over the seven days ending yesterday, as the controlled substances policy defines it.",
  instruction:
    'Prepare this week\'s schedule II usage report exactly as defined in our controlled substances policy. Reply with a JSON object mapping each schedule II drug id with usage in the period to its units, leaving out drugs with none, e.g. `{"D-0001": 42, "D-0005": 17}`.',
  tools: ["list_drugs", "get_drug", "list_locations", "list_lots", "list_dispenses"],
  expected: expectedUsage,
  nothing: "schedule II usage",
  checks: (expected, { answer }) => [checkAnswerAmounts("answer-amounts", answer, expected, 0)],
  cells,
  nearMisses: {
    "includes-today": [{ includeToday: true }, "Counts today's dispenses, which the report leaves out."],
    "includes-pharmacies": [
      { includePharmacies: true },
      "Counts dispenses from the OR satellite pharmacy too.",
    ],
    "all-controlled-schedules": [{ allSchedules: true }, "Reports schedules III-V as well as schedule II."],
  },
});
