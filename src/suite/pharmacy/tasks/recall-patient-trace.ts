import { allRows, defineTask } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { pharmacyDomain } from "../domain.js";
import { recalledLotIds } from "../workspace-facts.js";
import { idListCheck } from "./expectations.js";
import { PHARMACY_PY, recallsPy } from "./python.js";

/** MRNs of patients dispensed a unit of a Class I recalled lot. */
export function expectedPatients(state: StateView): string[] {
  const lots = recalledLotIds(state, ["I"]);
  const rows = allRows<{ mrn: string; lot_id: string }>(state.db, "SELECT mrn, lot_id FROM dispenses");
  return [...new Set(rows.filter((row) => lots.has(row.lot_id)).map((row) => row.mrn))].sort();
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedPatients(initial);
  if (expected.length === 0) throw new Error("generation produced no patient exposed to a Class I recall");
  return [idListCheck(answer, expected)];
}

interface Variant {
  updates?: boolean;
  matchNdc?: boolean;
  allClasses?: boolean;
  naiveFetch?: boolean;
}

function cells(variant: Variant): string[] {
  const listing = variant.naiveFetch ? "fetch_all" : "fetch";
  return [
    PHARMACY_PY,
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

export const recallPatientTraceTask = defineTask({
  id: "pharmacy.recall-patient-trace",
  domain: pharmacyDomain,
  summary:
    "List the patients who were dispensed units of a lot under a Class I recall (notices plus e-mailed expansions, lot number and NDC both matching).",
  instruction:
    'Risk management needs the patients to notify for the Class I drug recalls on file (notices in recalls/, expansions sent by e-mail to inbox/). A lot is affected only when both its lot number and its product\'s NDC match the notice. Find every patient who was dispensed anything from an affected lot of a Class I recall; Class II recalls need no patient notification. Reply with a JSON array of the patients\' MRNs, e.g. `["MRN-000114", "MRN-000212"]`.',
  tools: ["list_lots", "get_lot", "list_dispenses", "get_drug"],
  verify,
  oracle: cells({}),
  nearMisses: [
    {
      id: "includes-class-ii",
      description: "Notifies patients of Class II recalls too.",
      cells: cells({ allClasses: true }),
    },
    {
      id: "ignores-update-email",
      description: "Misses the lot a recall e-mail added.",
      cells: cells({ updates: false }),
    },
    {
      id: "lot-number-only",
      description:
        "Matches lots by number alone and includes patients of another product with the same lot number.",
      cells: cells({ matchNdc: false }),
    },
    {
      id: "no-error-body-check",
      description: "Pages the dispense archive without checking for its error body, so the program crashes.",
      cells: cells({ naiveFetch: true }),
    },
  ],
});
