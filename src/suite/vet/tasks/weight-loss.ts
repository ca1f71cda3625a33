import {
  checkAnswerCount,
  checkStateDiff,
  defineTask,
  REFERENCE_DATE,
  addDays,
  allRows,
  flagNearMisses,
} from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { vetDomain } from "../domain.js";
import { TODAY_TEXT, checkIdList } from "./checks.js";
import { weightLossPatients } from "./facts.js";
import { VET_PY } from "./python.js";

const WEIGHT_NEAR_MISSES: Array<[string, string, string]> = [
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
];

export const weightLossTask = defineTask({
  id: "vet.weight-loss",
  domain: vetDomain,
  summary:
    "Flag active patients whose clinic weight (SOAP notes, kg or lb) fell by the species threshold between their two latest weighed visits.",
  instruction:
    'Which active patients meet our reminders policy\'s definition of unintended weight loss? Take the weights from the visits\' SOAP notes. Reply with only a JSON list of their patient ids (e.g. ["PAT-00012", "PAT-00150"]).',
  tools: ["list_patients", "list_visits", "get_visit_note"],
  verify: ({ initial, answer }) => [checkIdList(answer, weightLossPatients(initial))],
  oracle: [VET_PY, "print(json.dumps(weight_loss_patients()))"],
  nearMisses: flagNearMisses(
    (near) => [VET_PY, `NEAR = set(${JSON.stringify(near)})\nprint(json.dumps(weight_loss_patients()))`],
    WEIGHT_NEAR_MISSES,
  ),
});

/** Weight-check reminders for the flagged patients without an open one. */
function expectedWeightChecks(state: Parameters<typeof weightLossPatients>[0]) {
  const open = new Set(
    allRows<{ patient_id: string }>(
      state.db,
      "SELECT patient_id FROM reminders WHERE kind = 'weight_check' AND status = 'open'",
    ).map((r) => r.patient_id),
  );
  const days = Number(/WEIGHT\) due (\d+) days after today/.exec(state.readFile(PATHS.reminders) ?? "")?.[1]);
  if (!days) throw new Error("the reminders policy no longer states when a weight check is due");
  const due_on = addDays(REFERENCE_DATE, days);
  return weightLossPatients(state)
    .filter((id) => !open.has(id))
    .map((patient_id) => ({ patient_id, kind: "weight_check", subject: "WEIGHT", due_on, status: "open" }));
}

function checkCells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})
days = int(re.search(r"WEIGHT\\) due (\\d+) days after today", read_text("${PATHS.reminders}")).group(1))
reminded = {r["patient_id"] for r in fetch("list_reminders", "reminders", kind="weight_check") if r["status"] == "open"}
created = 0
for pid in weight_loss_patients():
    if pid in reminded and "duplicates" not in NEAR:
        continue
    call("create_reminder", patient_id=pid, kind="weight_check", subject="WEIGHT", due_on=add_days(TODAY, days))
    created += 1
print(created)`,
  ];
}

export const weightCheckRemindersTask = defineTask({
  id: "vet.weight-check-reminders",
  domain: vetDomain,
  summary:
    "Create weight-check reminders for the patients with unintended weight loss, skipping those with an open one.",
  instruction: `${TODAY_TEXT} Book weight checks: following our reminders policy, create a weight check reminder for every active patient with unintended weight loss (weights from the visits' SOAP notes) that needs one. Change nothing else. Reply with only the number of reminders you created.`,
  tools: ["list_patients", "list_visits", "get_visit_note", "list_reminders", "create_reminder"],
  verify: ({ initial, final, answer }) => {
    const expected = expectedWeightChecks(initial);
    if (expected.length === 0) throw new Error("generation produced no weight check to book");
    return [
      ...checkStateDiff(initial.db, final.db, [{ table: "reminders", key: "reminder_id", added: expected }]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: checkCells([]),
  nearMisses: flagNearMisses(checkCells, [
    [
      "duplicate-reminders",
      "Books a second weight check for patients that already have an open one.",
      "duplicates",
    ],
    ...WEIGHT_NEAR_MISSES.slice(0, 2),
  ]),
});
