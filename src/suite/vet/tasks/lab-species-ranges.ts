import { checkAnswerIdLists, defineTask, flagNearMisses } from "../../../envs/index.js";
import { vetDomain } from "../domain.js";
import { outOfRange } from "./facts.js";
import { VET_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})
patients = {p["patient_id"]: p for p in fetch("list_patients", "patients")}
found = {}
for result, high in out_of_range(patients):
    found.setdefault(result["lab_id"], set()).add(result["code"])
print(json.dumps({lab: sorted(codes) for lab, codes in sorted(found.items())}))`,
  ];
}

export const labSpeciesRangesTask = defineTask({
  id: "vet.lab-species-ranges",
  domain: vetDomain,
  summary:
    "Re-check every analyser printout against the species reference ranges (canine default flags, SI units, inclusive limits).",
  instruction:
    'Our in-house analysers flag every sample against dog ranges. Re-check all the results on the analyser printouts against the reference ranges for each patient\'s species in our lab reference document. Reply with only a JSON object mapping each lab order id that has at least one result outside its species range to the list of those analyte codes (e.g. {"LAB-00007": ["ALT", "CREA"]}); leave out orders with every result in range.',
  tools: ["list_patients", "list_lab_orders"],
  verify: ({ initial, answer }) => {
    const expected = new Map<string, string[]>();
    for (const result of outOfRange(initial))
      expected.set(result.labId, [...(expected.get(result.labId) ?? []), result.code]);
    if (expected.size === 0) throw new Error("generation produced no out-of-range result");
    return [checkAnswerIdLists(answer, expected)];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    [
      "trusts-analyser-flags",
      "Reports the analyser's H/L flags, which use dog ranges for every species.",
      "analyser-flags",
    ],
    ["no-si-conversion", "Compares BUN, CREA and GLU printed in SI units with ranges in mg/dL.", "no-si"],
    ["exclusive-limits", "Treats a value equal to a range limit as out of range.", "exclusive-limits"],
  ]),
});
