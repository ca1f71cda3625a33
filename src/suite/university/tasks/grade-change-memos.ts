import {
  checkNone,
  type Check,
  checkOtherTablesUnchanged,
  daysBetween,
  defineTask,
  diffTable,
  parseAnswerJson,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { MEMO_FOLDER, parseGradeChangeMemo } from "../documents.js";
import { universityDomain } from "../domain.js";
import {
  PYTHON_PRELUDE,
  calendarOf,
  checkAuditLog,
  checkOnlyColumnChanged,
  compareIds,
  folderFiles,
  regulationsOf,
} from "./shared.js";

/** The final grade of every registration that approved, timely memos change (latest submission wins). */
export function expectedGradeChanges(context: VerifyContext): Map<number, string> {
  const { initial } = context;
  const regulations = regulationsOf(initial);
  const calendar = calendarOf(initial);
  const findEnrollment = initial.db.prepare(
    `SELECT e.enrollment_id FROM enrollments e JOIN sections s ON s.section_id = e.section_id
     JOIN courses c ON c.course_id = s.course_id
     WHERE e.student_id = ? AND c.code = ? AND s.term = ? AND s.section_number = ?`,
  );
  const latest = new Map<number, { submittedOn: string; grade: string }>();
  for (const file of folderFiles(initial, MEMO_FOLDER)) {
    const memo = parseGradeChangeMemo(file.text, file.path);
    if (memo.decision !== "APPROVED") continue;
    const term = calendar.find((item) => item.name === memo.termName);
    if (!term)
      throw new Error(`memo ${memo.memoId} names a term missing from the calendar: ${memo.termName}`);
    if (daysBetween(term.gradesDueDate, memo.submittedOn) > regulations.gradeChangeWindowDays) continue;
    for (const change of memo.changes) {
      const row = findEnrollment.get(change.studentId, memo.courseCode, term.code, memo.sectionNumber) as
        { enrollment_id: number } | undefined;
      if (!row)
        throw new Error(`memo ${memo.memoId} names a registration that does not exist (${change.studentId})`);
      const previous = latest.get(row.enrollment_id);
      if (!previous || memo.submittedOn > previous.submittedOn)
        latest.set(row.enrollment_id, { submittedOn: memo.submittedOn, grade: change.correctedGrade });
    }
  }
  return new Map([...latest].map(([id, item]) => [id, item.grade]));
}

function verify(context: VerifyContext): Check[] {
  const { initial, final, answer } = context;
  const expected = expectedGradeChanges(context);
  const enrollments = diffTable(initial.db, final.db, "enrollments", "enrollment_id");
  const changedGrades = new Map(
    enrollments.changed.map((change) => [Number(change.key), change.after.grade]),
  );
  const wrong = [...expected].filter(([id, grade]) => changedGrades.get(id) !== grade);
  const parsed = parseAnswerJson(answer) as { applied?: unknown } | null;
  const applied = Array.isArray(parsed?.applied) ? (parsed.applied as Array<Record<string, unknown>>) : [];
  const wrongAnswerGrades = applied.filter((item) => {
    const grade = expected.get(Number(item?.enrollment_id));
    return (
      grade !== undefined &&
      String(item?.grade ?? "")
        .trim()
        .toUpperCase() !== grade
    );
  });
  return [
    checkNone(
      "grades-changed",
      wrong,
      `all ${expected.size} approved, timely changes applied with the right grade`,
      (found) =>
        `wrong or missing grades: ${found
          .slice(0, 10)
          .map(
            ([id, grade]) =>
              `enrollment ${id} should be ${grade}, is ${String(changedGrades.get(id) ?? "unchanged")}`,
          )
          .join("; ")}`,
    ),
    checkOnlyColumnChanged(
      "no-other-registration-changes",
      enrollments,
      "grade",
      (change) => expected.has(Number(change.key)),
      { success: "no other registration changed", unexpected: "registrations that should not have changed" },
    ),
    checkAuditLog(initial.db, final.db, {
      actionType: "grade_change",
      subjectOf: (row) => Number(row.enrollment_id),
      subjects: expected,
      every: "grade change",
      notLogged: "changes",
    }),
    checkOtherTablesUnchanged(initial.db, final.db, ["enrollments", "registrar_actions"]),
    compareIds(
      "answer-enrollments",
      "answer 'applied' enrollment ids",
      [...expected.keys()].map(String),
      applied.map((item) => String(item?.enrollment_id ?? "")),
    ),
    checkNone(
      "answer-grades",
      wrongAnswerGrades,
      "the answer states the final grade of each changed registration",
      (found) =>
        `answer grades differ for enrollments ${found.map((item) => String(item.enrollment_id)).join(", ")}`,
    ),
  ];
}

interface MemoVariant {
  window: boolean;
  latestWins: boolean;
  approvedOnly: boolean;
}

function memoCells(variant: MemoVariant): string[] {
  return [
    PYTHON_PRELUDE,
    `from datetime import date
window_days = int(re.search(r"within \\*\\*(\\d+)\\*\\* days", regulations).group(1))
name_to_code = {name: code for code, name in term_names.items()}
memos = []
for path in sorted(p for p in files if p.startswith("memos/")):
    text = read_text(path)
    course = re.search(r"^Course: ([A-Z]+ \\d{3}) .*, section (\\d{3}), ((?:Spring|Fall) \\d{4})$", text, re.M)
    memos.append({
        "id": re.search(r"^# Grade Change Request (\\S+)$", text, re.M).group(1),
        "submitted": re.search(r"^Submitted: (\\d{4}-\\d\\d-\\d\\d)$", text, re.M).group(1),
        "course": course.group(1), "section": course.group(2), "term": name_to_code[course.group(3)],
        "decision": re.search(r"^Department chair decision: (APPROVED|DENIED|PENDING)", text, re.M).group(1),
        "changes": re.findall(r"^\\| (S\\d{6}) \\| [^|]+ \\| ([A-Z][+-]?) \\| ([A-Z][+-]?) \\| [^|]+ \\|$", text, re.M),
    })
for memo in memos:
    print(memo["id"], memo["submitted"], memo["course"], memo["term"], memo["decision"], memo["changes"])
print("window:", window_days, "days")`,
    `def processable(memo):
    if memo["decision"] != "APPROVED":
        return ${variant.approvedOnly ? "False" : 'memo["decision"] == "DENIED"'}
    waited = (date.fromisoformat(memo["submitted"]) - date.fromisoformat(grades_due[memo["term"]])).days
    return ${variant.window ? "waited <= window_days" : "True"}

final = {}
for memo in sorted(filter(processable, memos), key=lambda m: ${variant.latestWins ? 'm["submitted"]' : 'm["id"]'}):
    for student_id, recorded, corrected in memo["changes"]:
        registrations = fetch_all("list_enrollments", "enrollments", student_id=student_id, term=memo["term"])
        match = [e for e in registrations if e["course_code"] == memo["course"]]
        assert len(match) == 1, (memo["id"], student_id, match)
        final[match[0]["enrollment_id"]] = (corrected, memo["id"], match[0]["grade"])
print(final)`,
    `for enrollment_id, (grade, memo_id, current) in sorted(final.items()):
    if grade != current:
        tools.change_grade(enrollment_id=enrollment_id, new_grade=grade, reason=f"Grade change request {memo_id} approved by the department chair")
print("applied", len(final))`,
    `print(json.dumps({"applied": [{"enrollment_id": enrollment_id, "grade": grade} for enrollment_id, (grade, _, _) in sorted(final.items())]}))`,
  ];
}

const FULL: MemoVariant = { window: true, latestWins: true, approvedOnly: true };

export const gradeChangeMemosTask = defineTask({
  id: "university.grade-change-memos",
  domain: universityDomain,
  summary:
    "Process the grade change memos: only chair-approved requests submitted within the regulations' window after the term's grades-due date; the latest submission wins.",
  instruction:
    'The memos folder holds grade change requests from instructors. Process them as section 4 of the academic regulations requires (the academic calendar has each term\'s grades-due date): change every grade that may be changed with the change_grade tool, quoting the request number in the reason, and leave every other grade as it is. Reply with only a JSON object {"applied": [{"enrollment_id": number, "grade": "the grade now on record"}]} listing each registration you changed once, sorted by enrollment_id.',
  tools: ["list_students", "list_enrollments", "list_sections", "get_section", "get_course", "change_grade"],
  verify,
  oracle: memoCells(FULL),
  nearMisses: variantNearMisses(memoCells, FULL, {
    "ignores-submission-window": [
      { window: false },
      "Applies every approved memo, including those submitted after the regulations' window.",
    ],
    "applies-memos-in-file-order": [
      { latestWins: false },
      "Applies approved memos in file-name order, so an older request can override a newer one.",
    ],
    "applies-denied-memos": [
      { approvedOnly: false },
      "Treats denied requests as decided and applies them too.",
    ],
  }),
});
