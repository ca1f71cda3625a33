import { check, checkStateDiff, defineTask, parseAnswerNumber } from "../../../envs/index.js";
import type { Check, VerifyContext } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { reinspectionDate, reinspectionTargets } from "./expectations.js";
import { PERMITS_PY } from "./python.js";

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = reinspectionTargets(initial);
  if (expected.length === 0) throw new Error("generation produced no failed inspection to follow up");
  const date = reinspectionDate(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "inspections",
        key: "inspection_id",
        added: expected.map((target) => ({ ...target, scheduled_for: date, result: "scheduled", notes: "" })),
      },
    ]),
    check("answer-count", parseAnswerNumber(answer) === expected.length, `expected ${expected.length} bookings`),
  ];
}

interface Variant {
  ignoreNotes?: boolean;
  calendarDays?: boolean;
  anyFailure?: boolean;
}

function cells(variant: Variant): string[] {
  const when = variant.calendarDays
    ? "when = TODAY + timedelta(days=lead)"
    : String.raw`when, left = TODAY, lead
while left:
    when += timedelta(days=1)
    if when.weekday() < 5:
        left -= 1`;
  const candidates = variant.anyFailure
    ? 'failing = {(r["Type"], r["Inspection"], r["Inspector"]) for r in table(snap, "Inspections") if r["Result"] == "Fail"}'
    : String.raw`latest = {}
    for r in table(snap, "Inspections"):
        latest[r["Type"]] = r
    failing = {(t, r["Inspection"], r["Inspector"]) for t, r in latest.items() if r["Result"] == "Fail"}`;
  return [
    PERMITS_PY,
    String.raw`
memo = read_text("policies/inspection-policy-memo.md")
ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
lead = ordinals.index(re.search(r"for the (\w+) business day", memo).group(1)) + 1
${when}
when = when.isoformat()
print(lead, when)
`,
    String.raw`
permits = sorted({r["Permit"] for r in listing("/inspections?result=fail", "Inspections")})
booked = []
for pid in permits:
    snap = page(f"/permits/{pid}")
    if "Status: Issued" not in texts(snap):
        continue
    ${candidates}
    for kind, insp, inspector in sorted(failing):
        notes = texts(page(f"/inspections/{insp}"), "paragraph")[0]
        if ${variant.ignoreNotes ? "False" : 're.search(r"photo verification accepted|verified at final", notes, re.I)'}:
            continue
        submit(f"/permits/{pid}/inspections/new", inspection_type=kind, date=when, inspector=inspector)
        booked.append(f"{pid} {kind}")
print(f"Booked {len(booked)} re-inspections")
`,
  ];
}

export const scheduleReinspectionsTask = defineTask({
  id: "permits.schedule-reinspections",
  domain: permitsDomain,
  summary:
    "Book re-inspections for every open failure on issued permits per the memo (latest inspection of a type failed, notes not waiving the visit, same inspector, fifth business day).",
  instruction:
    "Can you do the re-inspection bookings today? Go through the failed inspections on the portal and book every re-inspection the inspection policy memo calls for, with the inspector and date the memo says. Read the inspectors' notes; some failures don't need a visit. Book nothing else. Reply with the number of re-inspections you booked, e.g. `Booked 5 re-inspections`.",
  tools: ["open_page", "submit_form"],
  verify,
  oracle: cells({}),
  nearMisses: [
    { id: "ignores-notes", description: "Books a visit even when the notes accept photos or defer to final.", cells: cells({ ignoreNotes: true }) },
    { id: "calendar-days", description: "Counts the lead in calendar days, landing on a weekend the form refuses.", cells: cells({ calendarDays: true }) },
    { id: "every-failure", description: "Books for failures that a later inspection of the same type already passed.", cells: cells({ anyFailure: true }) },
  ],
});
