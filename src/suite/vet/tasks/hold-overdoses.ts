import { checkAnswerCount, checkStateDiff, defineTask, flagNearMisses } from "../../../envs/index.js";
import { vetDomain } from "../domain.js";
import { overLimitPrescriptions } from "./facts.js";
import { VET_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})
held = 0
for rx, per_kg in over_limit():
    if rx["status"] == "active":
        call("hold_prescription", rx_id=rx["rx_id"], reason=f"{per_kg:.2f} mg/kg exceeds the formulary limit")
        held += 1
print(held)`,
  ];
}

export const holdOverdosesTask = defineTask({
  id: "vet.hold-overdoses",
  domain: vetDomain,
  summary:
    "Hold every active prescription whose dose exceeds the formulary's species mg/kg limit by the visit's clinic weight.",
  instruction:
    "Put on hold every active prescription whose dose is above our formulary's per-kilogram limit for the patient's species (use the body weight the formulary says to use), with a short reason. Leave everything else alone. Reply with only the number of prescriptions you put on hold.",
  tools: ["list_patients", "list_prescriptions", "list_visits", "get_visit_note", "hold_prescription"],
  verify: ({ initial, final, answer }) => {
    const held = overLimitPrescriptions(initial).filter((rx) => rx.status === "active");
    if (held.length === 0) throw new Error("generation produced no active prescription above its limit");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "prescriptions",
          key: "rx_id",
          changed: new Map(held.map((rx) => [rx.rx_id, { status: "on_hold" }])),
          ignoreColumns: ["hold_reason"],
        },
      ]),
      checkAnswerCount(answer, held.length),
    ];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["pounds-as-kg", "Reads a weight written in lb as kilograms.", "lb-as-kg"],
    [
      "first-weight-in-note",
      "Takes the owner's home-scale weight from the history as the body weight.",
      "first-weight",
    ],
    ["dog-limits", "Applies the dog limit to cats and rabbits.", "dog-limits"],
  ]),
});
