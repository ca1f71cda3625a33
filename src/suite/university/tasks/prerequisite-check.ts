import {
  check,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  parseAnswerList,
  type Check,
  type VerifyContext,
  allRows,
  variantNearMisses,
} from "../../../envs/index.js";
import { WAIVER_FOLDER, parseWaiverLetter } from "../documents.js";
import { universityDomain } from "../domain.js";
import { prerequisiteSatisfied } from "../rules.js";
import {
  PYTHON_PRELUDE,
  attemptsByStudent,
  calendarOf,
  checkAuditLog,
  compareIds,
  folderFiles,
  gradedAndCurrentTerms,
  regulationsOf,
  strayChanges,
  termName,
} from "./shared.js";

/** Open registrations that miss a prerequisite and have no approved waiver for their term. */
export function expectedDrops(context: VerifyContext): number[] {
  const { initial } = context;
  const regulations = regulationsOf(initial);
  const { current } = gradedAndCurrentTerms(initial.db);
  const currentName = termName(calendarOf(initial), current);
  const waived = new Set(
    folderFiles(initial, WAIVER_FOLDER)
      .flatMap((file) => parseWaiverLetter(file.text, file.path))
      .filter((waiver) => waiver.termName === currentName && waiver.decision === "APPROVED")
      .map((waiver) => `${waiver.studentId}|${waiver.courseCode}`),
  );
  const prerequisites = new Map<string, string[]>();
  for (const row of allRows<{ course: string; prerequisite: string }>(
    initial.db,
    `SELECT c.code AS course, p.code AS prerequisite FROM course_prerequisites cp
       JOIN courses c ON c.course_id = cp.course_id JOIN courses p ON p.course_id = cp.prerequisite_course_id`,
  )) {
    prerequisites.set(row.course, [...(prerequisites.get(row.course) ?? []), row.prerequisite]);
  }
  const drops: number[] = [];
  for (const [studentId, attempts] of attemptsByStudent(initial.db)) {
    for (const attempt of attempts) {
      if (attempt.term !== current || attempt.status !== "enrolled") continue;
      if (waived.has(`${studentId}|${attempt.courseCode}`)) continue;
      const missing = (prerequisites.get(attempt.courseCode) ?? []).some(
        (prerequisite) =>
          !prerequisiteSatisfied(attempts, prerequisite, current, regulations.prerequisiteMinimumGrade),
      );
      if (missing) drops.push(attempt.enrollmentId);
    }
  }
  return drops.sort((left, right) => left - right);
}

function verify(context: VerifyContext): Check[] {
  const { initial, final, answer } = context;
  const expected = [...expectedDrops(context)].map(String);
  const enrollments = diffTable(initial.db, final.db, "enrollments", "enrollment_id");
  const dropped = new Set(
    enrollments.changed
      .filter((change) => change.after.status === "dropped")
      .map((change) => Number(change.key)),
  );
  const stray = strayChanges(enrollments.changed, "status", (change) => change.after.status === "dropped");
  const strayCount = stray.length + enrollments.added.length + enrollments.removed.length;
  return [
    compareIds("registrations-dropped", "registrations dropped", expected, [...dropped].map(String)),
    check(
      "no-other-registration-changes",
      strayCount === 0,
      strayCount === 0
        ? "no registration changed other than by a drop"
        : `${strayCount} registrations changed in other ways (e.g. ${stray
            .slice(0, 5)
            .map((change) => change.key)
            .join(", ")})`,
    ),
    checkAuditLog(initial.db, final.db, {
      actionType: "enrollment_drop",
      subjectOf: (row) => Number(row.enrollment_id),
      subjects: dropped,
      every: "drop",
      notLogged: "drops",
    }),
    checkOtherTablesUnchanged(initial.db, final.db, ["enrollments", "registrar_actions"]),
    compareIds(
      "answer",
      "answered enrollment ids",
      expected,
      parseAnswerList(answer).map((item) => String(Number(item))),
    ),
  ];
}

interface PrerequisiteVariant {
  minimumGrade: boolean;
  waivers: boolean;
  sameTermCounts: boolean;
}

function prerequisiteCells(variant: PrerequisiteVariant): string[] {
  return [
    PYTHON_PRELUDE,
    `prerequisite_grade = ${variant.minimumGrade ? 're.search(r"prerequisite course with a grade of \\*\\*([A-F][+-]?)\\*\\*", regulations).group(1)' : '"C"'}
enrollments = fetch_all("list_enrollments", "enrollments")
current = max(e["term"] for e in enrollments if e["status"] == "enrolled")
current_name = term_names[current]
waived = set()
for path in files:
    if path.startswith("waivers/"):
        text = read_text(path)
        term = re.search(r"^Term: ((?:Spring|Fall) \\d{4})$", text, re.M).group(1)
        for student_id, course, decision in re.findall(r"^\\| (S\\d{6}) \\| [^|]+ \\| ([A-Z]+ \\d{3}) \\| [A-Z]+ \\d{3} \\| (APPROVED|DENIED) \\|$", text, re.M):
            if term == current_name and decision == "APPROVED":
                waived.add((student_id, course))
print("term in progress", current, current_name, "minimum", prerequisite_grade, "waivers", sorted(waived))`,
    `open_registrations = [e for e in enrollments if e["status"] == "enrolled"]
prerequisites = {}
for code in sorted({e["course_code"] for e in open_registrations}):
    prerequisites[code] = [p["code"] for p in tools.get_course(course_code=code)["course"]["prerequisites"]]
by_student = defaultdict(list)
for e in enrollments:
    by_student[e["student_id"]].append(e)

def satisfied(student_id, prerequisite):
    for e in by_student[student_id]:
        if e["course_code"] != prerequisite:
            continue
        if e["term"] < current and e["status"] == "completed" and (e["grade"] == "P" or (e["grade"] in points and points[e["grade"]] >= points[prerequisite_grade])):
            return True
${
  variant.sameTermCounts
    ? `        if e["term"] == current and e["status"] == "enrolled":
            return True
`
    : ""
}    return False

to_drop = []
for e in open_registrations:
    if ${variant.waivers ? '(e["student_id"], e["course_code"]) in waived or ' : ""}all(satisfied(e["student_id"], p) for p in prerequisites[e["course_code"]]):
        continue
    to_drop.append(e["enrollment_id"])
print(len(open_registrations), "open registrations;", len(to_drop), "to drop")`,
    `for enrollment_id in to_drop:
    tools.drop_enrollment(enrollment_id=enrollment_id, reason="Prerequisite not met (academic regulations 5.1) and no approved waiver for " + current_name)
print("dropped", len(to_drop))`,
    `print(json.dumps(sorted(to_drop)))`,
  ];
}

const FULL: PrerequisiteVariant = { minimumGrade: true, waivers: true, sameTermCounts: false };

export const prerequisiteCheckTask = defineTask({
  id: "university.prerequisite-check",
  domain: universityDomain,
  summary:
    "Drop the open (ungraded) registrations that miss a prerequisite (minimum grade from the regulations, no same-term credit) unless a department waiver for that term approves them.",
  instruction:
    "Before the add/drop deadline, enforce the prerequisite rules of the academic regulations on the registrations that are not graded yet (the term students are currently registered for). Drop, with the drop_enrollment tool, every such registration that does not meet its course's prerequisites and is not covered by an approved department waiver for that term (see the waivers folder). Leave every other registration alone. Reply with only a JSON array of the dropped enrollment ids, sorted.",
  tools: [
    "list_students",
    "list_enrollments",
    "list_sections",
    "list_courses",
    "get_course",
    "drop_enrollment",
  ],
  verify,
  oracle: prerequisiteCells(FULL),
  nearMisses: variantNearMisses(prerequisiteCells, FULL, {
    "accepts-any-passing-grade": [
      { minimumGrade: false },
      "Accepts any grade of C or better in the prerequisite instead of the regulations' minimum.",
    ],
    "ignores-waivers": [{ waivers: false }, "Drops registrations that the department waived for this term."],
    "counts-same-term-prerequisites": [
      { sameTermCounts: true },
      "Treats a prerequisite taken in the same term as satisfied.",
    ],
  }),
});
