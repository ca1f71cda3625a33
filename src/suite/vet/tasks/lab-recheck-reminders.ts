import { checkAnswerCount, checkStateDiff, defineTask, flagNearMisses } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { vetDomain } from "../domain.js";
import { expectedLabRechecks } from "./facts.js";
import { VET_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})
days = {row[0]: int(row[1]) for row in md_table(read_text("${PATHS.reminders}"), "Laboratory rechecks")}
patients = {p["patient_id"]: p for p in fetch("list_patients", "patients")}
latest = {}
for result, high in out_of_range(patients):
    if not high or result["code"] not in days or patients[result["patient_id"]]["status"] != "active":
        continue
    key = (result["patient_id"], result["code"])
    if latest.get(key, "") < result["ran_on"]:
        latest[key] = result["ran_on"]
for (patient, code), ran_on in sorted(latest.items()):
    wait = 14 if "one-interval" in NEAR else days[code]
    call("create_reminder", patient_id=patient, kind="lab_recheck", subject=code, due_on=add_days(ran_on, wait))
print(len(latest))`,
  ];
}

export const labRecheckRemindersTask = defineTask({
  id: "vet.lab-recheck-reminders",
  domain: vetDomain,
  summary:
    "Create recheck reminders for high CREA/GLU/ALT results on the printouts, judged by species ranges, dated by the policy's intervals.",
  instruction:
    "Book the lab rechecks: read the analyser printouts and, following our reminders policy and the species reference ranges, create the lab recheck reminders it calls for. Change nothing else. Reply with only the number of reminders you created.",
  tools: ["list_patients", "list_lab_orders", "list_reminders", "create_reminder"],
  verify: ({ initial, final, answer }) => {
    const expected = expectedLabRechecks(initial);
    if (expected.length === 0) throw new Error("generation produced no recheck");
    return [
      ...checkStateDiff(initial.db, final.db, [{ table: "reminders", key: "reminder_id", added: expected }]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    [
      "trusts-analyser-flags",
      "Books rechecks from the analyser's H flags (dog ranges) instead of the species ranges.",
      "analyser-flags",
    ],
    ["no-si-conversion", "Reads CREA and GLU printed in SI units as if they were mg/dL.", "no-si"],
    [
      "one-interval",
      "Dates every recheck 14 days after the run, ignoring the policy's table.",
      "one-interval",
    ],
  ]),
});
