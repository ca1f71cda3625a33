import {
  checkNone,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  parseAnswerJson,
  type Check,
  type VerifyContext,
  getRow,
  variantNearMisses,
} from "../../../envs/index.js";
import { COMMITTEE_FOLDER, parseExemptions } from "../documents.js";
import { universityDomain } from "../domain.js";
import { cumulativeGpa } from "../rules.js";
import {
  PYTHON_PRELUDE,
  attemptsByStudent,
  calendarOf,
  checkAuditLog,
  checkOnlyColumnChanged,
  compareIds,
  folderFiles,
  gradedAndCurrentTerms,
  normaliseId,
  regulationsOf,
  studentRows,
  termName,
} from "./shared.js";

/** Who the review of the last graded term places on probation and who it returns to good standing. */
export function expectedStandingChanges(context: VerifyContext): { probation: string[]; restored: string[] } {
  const { initial } = context;
  const regulations = regulationsOf(initial);
  const { graded } = gradedAndCurrentTerms(initial.db);
  const reviewTerm = graded[graded.length - 1] ?? "";
  const reviewName = termName(calendarOf(initial), reviewTerm);
  const exempt = new Set(
    folderFiles(initial, COMMITTEE_FOLDER)
      .flatMap((file) => parseExemptions(file.text))
      .filter((item) => item.termName === reviewName && item.decision === "APPROVED")
      .map((item) => item.studentId),
  );
  const attempts = attemptsByStudent(initial.db);
  const probation: string[] = [];
  const restored: string[] = [];
  for (const student of studentRows(initial.db)) {
    if (student.enrollment_status !== "active" || exempt.has(student.student_id)) continue;
    const records = attempts.get(student.student_id) ?? [];
    if (records.some((record) => record.term === reviewTerm && record.grade === "I")) continue;
    const gpa = cumulativeGpa(records);
    if (gpa.roundedHundredths === null) continue;
    const below = gpa.roundedHundredths < regulations.probationThresholdHundredths;
    if (student.academic_standing === "good" && below && gpa.credits >= regulations.probationMinimumCredits)
      probation.push(student.student_id);
    else if (student.academic_standing === "probation" && !below) restored.push(student.student_id);
  }
  return { probation, restored };
}

function verify(context: VerifyContext): Check[] {
  const { initial, final, answer } = context;
  const expected = expectedStandingChanges(context);
  const target = new Map<string, string>([
    ...expected.probation.map((id): [string, string] => [id, "probation"]),
    ...expected.restored.map((id): [string, string] => [id, "good"]),
  ]);
  const wrongStanding = [...target].filter(([id, standing]) => {
    const row = getRow<{ academic_standing: string }>(
      final.db,
      "SELECT academic_standing FROM students WHERE student_id = ?",
      id,
    );
    return row?.academic_standing !== standing;
  });
  const parsed = parseAnswerJson(answer) as { probation?: unknown; restored?: unknown } | null;
  const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(normaliseId) : []);
  return [
    checkNone(
      "standings-updated",
      wrongStanding,
      `all ${target.size} standing changes recorded (${expected.probation.length} to probation, ${expected.restored.length} restored)`,
      (wrong) =>
        `expected these standings, found otherwise: ${wrong
          .slice(0, 10)
          .map(([id, standing]) => `${id} -> ${standing}`)
          .join(", ")}`,
    ),
    checkOnlyColumnChanged(
      "no-other-student-changes",
      diffTable(initial.db, final.db, "students", "student_id"),
      "academic_standing",
      (change) => target.has(change.key),
      { success: "no other student record changed", unexpected: "unexpected changes to students" },
    ),
    checkAuditLog(initial.db, final.db, {
      actionType: "standing_change",
      subjectOf: (row) => String(row.student_id),
      subjects: target,
      every: "standing change",
      notLogged: "changes",
    }),
    checkOtherTablesUnchanged(initial.db, final.db, ["students", "registrar_actions"]),
    compareIds("answer-probation", "answer 'probation'", expected.probation, listOf(parsed?.probation)),
    compareIds("answer-restored", "answer 'restored'", expected.restored, listOf(parsed?.restored)),
  ];
}

interface StandingVariant {
  repeatRule: boolean;
  exemptions: boolean;
  incompleteRule: boolean;
  restore: boolean;
}

function standingCells(variant: StandingVariant): string[] {
  const latestOnly = variant.repeatRule
    ? `    latest = {}
    for e in letter:
        previous = latest.get(e["course_code"])
        if previous is None or e["term"] > previous["term"]:
            latest[e["course_code"]] = e
    counted = list(latest.values())`
    : `    counted = letter`;
  return [
    PYTHON_PRELUDE,
    `threshold = round(float(re.search(r"cumulative GPA is below \\*\\*(\\d\\.\\d\\d)\\*\\*", regulations).group(1)) * 100)
min_credits = int(re.search(r"at least \\*\\*(\\d+)\\*\\* GPA credits", regulations).group(1))
students = fetch_all("list_students", "students")
enrollments = fetch_all("list_enrollments", "enrollments")
review_term = max(e["term"] for e in enrollments if e["status"] == "completed")
review_name = term_names[review_term]
print(len(students), "students;", len(enrollments), "registrations; review of", review_name, "threshold", threshold, "min credits", min_credits)`,
    `exempt = set()
for path in (files if ${variant.exemptions ? "True" : "False"} else []):
    if path.startswith("committee/"):
        text = read_text(path)
        for student_id, term, decision in re.findall(r"^- (S\\d{6}) \\([^)]*\\): exemption from the ((?:Spring|Fall) \\d{4}) standing review (APPROVED|DENIED)", text, re.M):
            if term == review_name and decision == "APPROVED":
                exempt.add(student_id)
print("exempt:", sorted(exempt))`,
    `by_student = defaultdict(list)
for e in enrollments:
    by_student[e["student_id"]].append(e)

def gpa_hundredths(records):
    letter = [e for e in records if e["status"] == "completed" and e["grade"] in points]
${latestOnly}
    credits = sum(e["credits"] for e in counted)
    if credits == 0:
        return None, 0
    quality = sum(points[e["grade"]] * e["credits"] for e in counted)
    return (2 * quality + credits) // (2 * credits), credits  # rounded half up, in hundredths

to_probation, to_restore = [], []
for s in students:
    if s["enrollment_status"] != "active" or s["student_id"] in exempt:
        continue
    records = by_student.get(s["student_id"], [])
${
  variant.incompleteRule
    ? `    if any(e["term"] == review_term and e["grade"] == "I" for e in records):
        continue
`
    : ""
}    gpa, credits = gpa_hundredths(records)
    if gpa is None:
        continue
    if s["academic_standing"] == "good" and gpa < threshold and credits >= min_credits:
        to_probation.append(s["student_id"])
    elif s["academic_standing"] == "probation" and gpa >= threshold:
        to_restore.append(s["student_id"])
print(len(to_probation), "to probation:", to_probation)
print(len(to_restore), "to restore:", to_restore)`,
    `for student_id in to_probation:
    tools.set_academic_standing(student_id=student_id, standing="probation", reason=f"{review_name} standing review: cumulative GPA below {threshold / 100:.2f}")
${
  variant.restore
    ? `for student_id in to_restore:
    tools.set_academic_standing(student_id=student_id, standing="good", reason=f"{review_name} standing review: cumulative GPA at or above {threshold / 100:.2f}")
`
    : ""
}print("updated")`,
    `print(json.dumps({"probation": sorted(to_probation), "restored": sorted(to_restore)}))`,
  ];
}

const FULL: StandingVariant = { repeatRule: true, exemptions: true, incompleteRule: true, restore: true };

export const standingReviewTask = defineTask({
  id: "university.standing-review",
  domain: universityDomain,
  summary:
    "Run the academic standing review of the last graded term: probation and restorations per the regulations (GPA scale, repeat rule, rounding, credit minimum, incompletes, committee exemptions).",
  instruction:
    'Please run the end-of-term academic standing review for the most recent term whose grades are on record. Apply the academic regulations in the workspace (policies folder) to the grades currently recorded, together with the Academic Standing Committee\'s decisions in its meeting notes: put on probation every student the regulations place on probation, and return to good standing every student on probation who qualifies. Make each change with the set_academic_standing tool and give a short reason. Do not change anyone else. Reply with only a JSON object {"probation": [student ids], "restored": [student ids]}, each list sorted.',
  tools: [
    "list_students",
    "get_student",
    "list_enrollments",
    "list_registrar_actions",
    "get_course",
    "set_academic_standing",
  ],
  verify,
  oracle: standingCells(FULL),
  nearMisses: variantNearMisses(standingCells, FULL, {
    "ignores-repeat-rule": [
      { repeatRule: false },
      "Counts every attempt of a repeated course in the GPA instead of only the most recent one.",
    ],
    "ignores-committee-exemptions": [
      { exemptions: false },
      "Never reads the committee's meeting notes, so approved exemptions are not honoured.",
    ],
    "reviews-students-with-incompletes": [
      { incompleteRule: false },
      "Reviews students who have an Incomplete in the term under review.",
    ],
    "forgets-restorations": [
      { restore: false },
      "Places students on probation but never returns anyone to good standing.",
    ],
  }),
});
