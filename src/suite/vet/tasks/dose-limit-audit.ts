import { checkAnswerAmounts, defineTask, flagNearMisses } from "../../../envs/index.js";
import { vetDomain } from "../domain.js";
import { overLimitPrescriptions } from "./facts.js";
import { VET_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})
found = over_limit()
print(json.dumps({rx["rx_id"]: round(per_kg, 3) for rx, per_kg in found}))`,
  ];
}

export const doseLimitAuditTask = defineTask({
  id: "vet.dose-limit-audit",
  domain: vetDomain,
  summary:
    "Find prescriptions above the formulary's species mg/kg limit using the clinic weight in each visit's SOAP note (kg or lb, distractor weights).",
  instruction:
    "Pharmacy audit: check every prescription's dose against our formulary's per-kilogram limit for the patient's species, using the body weight the formulary says to use. Reply with only a JSON object mapping each prescription id above its limit to its dose in mg per kg, to at least 2 decimals (e.g. {\"RX-00004\": 0.27}).",
  tools: ["list_patients", "list_prescriptions", "list_visits", "get_visit_note"],
  verify: ({ initial, answer }) => {
    const expected = new Map(overLimitPrescriptions(initial).map((rx) => [rx.rx_id, rx.mgPerKg]));
    if (expected.size === 0) throw new Error("generation produced no prescription above its limit");
    return [checkAnswerAmounts("answer", answer, expected, 0.006)];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["pounds-as-kg", "Reads a weight written in lb as kilograms.", "lb-as-kg"],
    [
      "first-weight-in-note",
      "Takes the first weight anywhere in the note (the owner's home-scale weight in the history).",
      "first-weight",
    ],
    [
      "dog-limits",
      "Uses the first formulary row for a drug (the dog limit) for every species.",
      "dog-limits",
    ],
    [
      "no-retry",
      "Does not notice the records server's error body and crashes on the missing note.",
      "no-retry",
    ],
  ]),
});
