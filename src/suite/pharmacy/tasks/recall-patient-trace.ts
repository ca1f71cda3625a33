import { allRows, type StateView, type Flags } from "../../../envs/index.js";
import { recalledLotIds } from "../workspace-facts.js";
import { pharmacyTask, idListCheck } from "./pharmacy-task.js";
import { recallsPy } from "./python.js";

/** MRNs of patients dispensed a unit of a Class I recalled lot. */
export function expectedPatients(state: StateView): string[] {
  const lots = recalledLotIds(state, ["I"]);
  const rows = allRows<{ mrn: string; lot_id: string }>(state.db, "SELECT mrn, lot_id FROM dispenses");
  return [...new Set(rows.filter((row) => lots.has(row.lot_id)).map((row) => row.mrn))].sort();
}

function cells(variant: Flags<"updates" | "matchNdc" | "allClasses" | "naiveFetch">): string[] {
  const listing = variant.naiveFetch ? "fetch_all" : "fetch";
  return [
    recallsPy(variant),
    String.raw`
patients = set()
for lot_id in sorted(recalled_lots(${variant.allClasses ? '("I", "II")' : '("I",)'})):
    for dispense in ${listing}("list_dispenses", "dispenses", lot_id=lot_id):
        patients.add(dispense["mrn"])
print(json.dumps(sorted(patients)))
`,
  ];
}

export const recallPatientTraceTask = pharmacyTask({
  id: "pharmacy.recall-patient-trace",
  summary:
    "List the patients who were dispensed units of a lot under a Class I recall (notices plus e-mailed expansions, lot number and NDC both matching).",
  instruction:
    'Risk management needs the patients to notify for the Class I drug recalls on file (notices in recalls/, expansions sent by e-mail to inbox/). A lot is affected only when both its lot number and its product\'s NDC match the notice. Find every patient who was dispensed anything from an affected lot of a Class I recall; Class II recalls need no patient notification. Reply with a JSON array of the patients\' MRNs, e.g. `["MRN-000114", "MRN-000212"]`.',
  tools: ["list_lots", "get_lot", "list_dispenses", "get_drug"],
  expected: expectedPatients,
  nothing: "patient exposed to a Class I recall",
  checks: (expected, { answer }) => [idListCheck(answer, expected)],
  cells,
  nearMisses: {
    "includes-class-ii": [{ allClasses: true }, "Notifies patients of Class II recalls too."],
    "ignores-update-email": [{ updates: false }, "Misses the lot a recall e-mail added."],
    "lot-number-only": [
      { matchNdc: false },
      "Matches lots by number alone and includes patients of another product with the same lot number.",
    ],
    "no-error-body-check": [
      { naiveFetch: true },
      "Pages the dispense archive without checking for its error body, so the program crashes.",
    ],
  },
});
