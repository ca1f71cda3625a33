import { checkAnswerCount, checkStateDiff, defineTask, flagNearMisses } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { vetDomain } from "../domain.js";
import { TODAY_TEXT } from "./checks.js";
import { expectedVaccineReminders } from "./facts.js";
import { OVERDUE_PY, VET_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})\n${OVERDUE_PY}`,
    `policy = read_text("${PATHS.reminders}")
due_in = int(re.search(r"due (\\d+) days after today", policy).group(1))
window = int(re.search(r"from today through (\\d+) days after today", policy).group(1))
booked = {a["patient_id"] for a in fetch("list_appointments", "appointments", on_or_after=TODAY) if a["starts_at"][:10] <= add_days(TODAY, window)}
if "ignore-appointments" in NEAR:
    booked = set()
live = {(r["patient_id"], r["subject"]) for r in fetch("list_reminders", "reminders", kind="vaccine") if r["status"] in ("open", "sent")}
if "duplicate-reminders" in NEAR:
    live = set()
created = 0
for item in overdue_vaccines():
    if item["patient_id"] in booked or (item["patient_id"], item["vaccine"]) in live:
        continue
    call("create_reminder", patient_id=item["patient_id"], kind="vaccine", subject=item["vaccine"], due_on=add_days(TODAY, due_in))
    created += 1
print(created)`,
  ];
}

export const vaccineRemindersTask = defineTask({
  id: "vet.vaccine-reminders",
  domain: vetDomain,
  summary:
    "Create reminders for overdue core vaccines as the reminders policy says (due date, booked appointments, live reminders).",
  instruction: `${TODAY_TEXT} Send out this month's vaccine reminders: create a reminder for every overdue core vaccination (as our vaccination protocol defines overdue), following our reminders policy on due dates and on when not to remind. Change nothing else. Reply with only the number of reminders you created.`,
  tools: [
    "list_clinics",
    "list_patients",
    "list_vaccinations",
    "list_appointments",
    "list_reminders",
    "create_reminder",
  ],
  verify: ({ initial, final, answer }) => {
    const expected = expectedVaccineReminders(initial);
    if (expected.length === 0) throw new Error("generation produced no reminder to create");
    return [
      ...checkStateDiff(initial.db, final.db, [{ table: "reminders", key: "reminder_id", added: expected }]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    [
      "ignores-appointments",
      "Reminds patients who already have an appointment booked within the window.",
      "ignore-appointments",
    ],
    [
      "duplicate-reminders",
      "Creates a reminder even when an open or sent one exists for that vaccine.",
      "duplicate-reminders",
    ],
    ["no-grace-period", "Treats vaccines as overdue the day after their due date.", "no-grace"],
  ]),
});
