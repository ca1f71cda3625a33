import { allRows, checkAnswerAmounts, defineTask, flagNearMisses } from "../../../envs/index.js";
import { vetDomain } from "../domain.js";
import { TODAY_TEXT, countBy } from "./checks.js";
import { overdueCoreVaccines } from "./facts.js";
import { OVERDUE_PY, VET_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})\n${OVERDUE_PY}`,
    `counts = {c["clinic_id"]: 0 for c in fetch("list_clinics", "clinics")}
for item in overdue_vaccines():
    counts[item["clinic_id"]] += 1
print(json.dumps(counts))`,
  ];
}

export const overdueCoreVaccinesTask = defineTask({
  id: "vet.overdue-core-vaccines",
  domain: vetDomain,
  summary:
    "Count overdue core vaccinations per clinic under the species-specific protocol (grace period, latest dose, never-vaccinated, active patients).",
  instruction: `${TODAY_TEXT} For the quarterly compliance report, count the overdue core vaccinations at each clinic as our vaccination protocol defines them (one per patient and vaccine). Reply with only a JSON object mapping every clinic id to its count, 0 included (e.g. {"CLN-01": 12, "CLN-02": 0}).`,
  tools: ["list_clinics", "list_patients", "list_vaccinations"],
  verify: ({ initial, answer }) => {
    const clinics = allRows<{ clinic_id: string }>(
      initial.db,
      "SELECT clinic_id FROM clinics ORDER BY clinic_id",
    ).map((c) => c.clinic_id);
    const expected = countBy(overdueCoreVaccines(initial), clinics, (item) => item.clinic_id);
    return [checkAnswerAmounts("answer", answer, expected, 0)];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["includes-non-core", "Counts lapsed non-core vaccines too.", "non-core"],
    [
      "no-grace-period",
      "Counts a vaccine overdue the day after its due date, ignoring the 30-day grace period.",
      "no-grace",
    ],
    [
      "earliest-dose",
      "Dates the booster from the first dose in the history instead of the latest.",
      "earliest-dose",
    ],
    [
      "one-interval-per-vaccine",
      "Uses the first interval listed for a vaccine code for every species (cats' rabies at 36 months).",
      "one-interval",
    ],
  ]),
});
