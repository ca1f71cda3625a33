import { defineTask } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { vetDomain } from "../domain.js";
import { checkIdList } from "./checks.js";
import { weightLossPatients } from "./facts.js";
import { VET_PY, nearMisses } from "./python.js";

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})
thresholds = {species: float(t) for species, t in md_table(read_text("${PATHS.reminders}"), "Weight loss")}
active = {p["patient_id"]: p for p in fetch("list_patients", "patients", status="active")}
weights = {}
for visit in fetch("list_visits", "visits"):
    if visit["patient_id"] not in active:
        continue
    kg = note_weight(note_of(visit["visit_id"]))
    if kg is not None or "unweighed" in NEAR:
        weights.setdefault(visit["patient_id"], []).append(kg)`,
    `flagged = []
for pid, series in weights.items():
    if len(series) < 2 or None in series[-2:]:
        continue
    before, after = series[-2], series[-1]
    threshold = 10 if "one-threshold" in NEAR else thresholds[active[pid]["species"]]
    if (before - after) / before * 100 >= threshold:
        flagged.append(pid)
print(json.dumps(sorted(flagged)))`,
  ];
}

export const weightLossTask = defineTask({
  id: "vet.weight-loss",
  domain: vetDomain,
  summary:
    "Flag active patients whose clinic weight (SOAP notes, kg or lb) fell by the species threshold between their two latest weighed visits.",
  instruction:
    'Which active patients meet our reminders policy\'s definition of unintended weight loss? Take the weights from the visits\' SOAP notes. Reply with only a JSON list of their patient ids (e.g. ["PAT-00012", "PAT-00150"]).',
  tools: ["list_patients", "list_visits", "get_visit_note"],
  verify: ({ initial, answer }) => [checkIdList(answer, weightLossPatients(initial))],
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    [
      "pounds-as-kg",
      "Reads weights written in lb as kilograms, so a change of units looks like a change of weight.",
      "lb-as-kg",
    ],
    ["one-threshold", "Uses 10% for every species (cats are flagged from 7.5%).", "one-threshold"],
    [
      "unweighed-visits",
      "Compares the two latest visits even when one has no weight, and skips those patients.",
      "unweighed",
    ],
  ]),
});
