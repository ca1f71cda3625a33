import { definePermitsTask } from "./python.js";
import { check, checkStateDiff, parseAnswerNumber } from "../../../envs/index.js";
import { reinspectionDate, reinspectionTargets } from "./expectations.js";

const BUSINESS_DAYS = String.raw`when, left = TODAY, lead
while left:
    when += timedelta(days=1)
    left -= when.weekday() < 5`;
const LATEST_FAILED = String.raw`latest = {r["Type"]: r for r in table(snap, "Inspections")}
    failing = {(t, r["Inspection"], r["Inspector"]) for t, r in latest.items() if r["Result"] == "Fail"}`;
const NO_VISIT = 're.search(r"photo verification accepted|verified at final", notes, re.I)';

function cells({ when = BUSINESS_DAYS, candidates = LATEST_FAILED, skip = NO_VISIT }): string[] {
  return [
    String.raw`
memo = read_text("policies/inspection-policy-memo.md")
ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
lead = ordinals.index(re.search(r"for the (\w+) business day", memo).group(1)) + 1
${when}
when = when.isoformat()
booked = []
for pid in sorted({r["Permit"] for r in listing("/inspections?result=fail", "Inspections")}):
    snap = page(f"/permits/{pid}")
    if "Status: Issued" not in texts(snap):
        continue
    ${candidates}
    for kind, insp, inspector in sorted(failing):
        notes = texts(page(f"/inspections/{insp}"), "paragraph")[0]
        if not (${skip}):
            submit(f"/permits/{pid}/inspections/new", inspection_type=kind, date=when, inspector=inspector)
            booked.append(f"{pid} {kind}")
print(f"Booked {len(booked)} re-inspections")
`,
  ];
}

export const scheduleReinspectionsTask = definePermitsTask({
  id: "permits.schedule-reinspections",
  summary:
    "Book re-inspections for every open failure on issued permits per the memo (latest inspection of a type failed, notes not waiving the visit, same inspector, fifth business day).",
  instruction:
    "Can you do the re-inspection bookings today? Go through the failed inspections on the portal and book every re-inspection the inspection policy memo calls for, with the inspector and date the memo says. Read the inspectors' notes; some failures don't need a visit. Book nothing else. Reply with the number of re-inspections you booked, e.g. `Booked 5 re-inspections`.",
  tools: ["open_page", "submit_form"],
  verify: ({ initial, final, answer }) => {
    const expected = reinspectionTargets(initial);
    const booking = { scheduled_for: reinspectionDate(initial), result: "scheduled", notes: "" };
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "inspections",
          key: "inspection_id",
          added: expected.map((target) => ({ ...target, ...booking })),
        },
      ]),
      check(
        "answer-count",
        parseAnswerNumber(answer) === expected.length,
        `expected ${expected.length} bookings`,
      ),
    ];
  },
  cells,
  nearMisses: {
    "ignores-notes": [{ skip: "False" }, "Books a visit the notes waived."],
    "calendar-days": [
      { when: "when = TODAY + timedelta(days=lead)" },
      "Counts the lead in calendar days, landing on a weekend the form refuses.",
    ],
    "ignores-booked": [
      {
        candidates: String.raw`latest = {r["Type"]: r for r in table(snap, "Inspections") if r["Result"] != "Scheduled"}
    failing = {(t, r["Inspection"], r["Inspector"]) for t, r in latest.items() if r["Result"] == "Fail"}`,
      },
      "Skips scheduled bookings when finding the latest inspection, so it books a second visit.",
    ],
    "every-failure": [
      {
        candidates:
          'failing = {(r["Type"], r["Inspection"], r["Inspector"]) for r in table(snap, "Inspections") if r["Result"] == "Fail"}',
      },
      "Books for failures that a later inspection of the same type already passed.",
    ],
  },
});
