import type Database from "better-sqlite3";
import {
  checkOtherTablesUnchanged,
  defineTask,
  parseAnswerList,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
  requireFile,
  allRows,
  groupBy,
  variantNearMisses,
} from "../../../envs/index.js";
import { SCHOOL_NAME } from "../documents.js";
import { universityDomain } from "../domain.js";
import { GRADE_POINTS_HUNDREDTHS, isLetterGrade } from "../rules.js";
import { PYTHON_PRELUDE, compareIds, gradedAndCurrentTerms, normaliseId, studentRows } from "./shared.js";

export const DEANS_LIST_POLICY_PATH = "policies/deans-list-policy.md";

interface DeansListPolicy {
  minimumGpaHundredths: number;
  fullTimeCredits: number;
  partTimeCredits: number;
}

function writePolicy(policy: DeansListPolicy, effective: string): string {
  const gpa = (policy.minimumGpaHundredths / 100).toFixed(2);
  return `# ${SCHOOL_NAME} — Dean's List

Policy of the Dean of Graduate Studies, effective ${effective}. The Registrar prepares the list once the
grades of a term are on record; the Dean's office sends the letters.

## Who is named to the Dean's List

A student is named to the Dean's List of a term when every one of the following holds:

1. The student's enrollment status is active and the student is in good academic standing. Students
   on probation or suspended are not eligible, whatever their grades.
2. The student earned at least **${policy.fullTimeCredits}** letter-graded credits in the term if enrolled full time, or at
   least **${policy.partTimeCredits}** letter-graded credits if enrolled part time. Only completed courses with a letter grade
   (A to F) count toward this minimum; P/NP seminars do not.
3. The student's term GPA is at least **${gpa}**. The term GPA is computed as in section 2 of the
   academic regulations (grade points times credits over letter-graded credits, rounded half up to two
   decimals), but over that term's letter-graded courses only. Earlier terms do not count.
4. The student has no Incomplete (I), no NP and no withdrawal (W) in the term. A registration dropped
   before the add/drop deadline does not count either way.

## Notes

- The list is based on the grades on record when it is prepared; later grade changes are handled by a
  supplementary letter.
- Questions go to the Dean's office, not to the Registrar.
`;
}

export function parseDeansListPolicy(text: string): DeansListPolicy {
  const gpa = text.match(/term GPA is at least \*\*(\d\.\d\d)\*\*/);
  const full = text.match(/at least \*\*(\d+)\*\* letter-graded credits in the term if enrolled full time/);
  const part = text.match(/least \*\*(\d+)\*\* letter-graded credits if enrolled part time/);
  if (!gpa?.[1] || !full?.[1] || !part?.[1])
    throw new Error(`${DEANS_LIST_POLICY_PATH} does not state the GPA and credit minimums`);
  return {
    minimumGpaHundredths: Math.round(Number(gpa[1]) * 100),
    fullTimeCredits: Number(full[1]),
    partTimeCredits: Number(part[1]),
  };
}

interface TermRegistration {
  enrollment_id: number;
  student_id: string;
  term: string;
  credits: number;
  grading_basis: string;
  status: string;
  grade: string | null;
}

function registrations(db: Database.Database): TermRegistration[] {
  return allRows<TermRegistration>(
    db,
    `SELECT e.enrollment_id, e.student_id, s.term, c.credits, c.grading_basis, e.status, e.grade
       FROM enrollments e JOIN sections s ON s.section_id = e.section_id JOIN courses c ON c.course_id = s.course_id
       ORDER BY e.enrollment_id`,
  );
}

function registrationsByStudent(db: Database.Database): Map<string, TermRegistration[]> {
  return groupBy(registrations(db), (row) => row.student_id);
}

const isLetterCompleted = (row: TermRegistration): boolean =>
  row.status === "completed" && isLetterGrade(row.grade);

/**
 * Plants students on each edge of the policy, once per row factor: a full-time qualifier whose transcript
 * read times out first, a part-time qualifier with only the part-time minimum, a qualifier whose cumulative
 * GPA is far lower than the term's, a straight-A student who withdrew from one course, a straight-A
 * student on probation, and a straight-A student who has been on leave of absence since the term (one of
 * the generated ones where their grades qualify, otherwise an active student without registrations of
 * the term in progress goes on leave).
 */
function prepare(context: GenerateContext): void {
  const { db, random, factors, referenceDate } = context;
  const { graded } = gradedAndCurrentTerms(db);
  const term = graded[graded.length - 1] ?? "";
  const policy: DeansListPolicy = {
    minimumGpaHundredths: random.pick([370, 375]),
    fullTimeCredits: 9,
    partTimeCredits: 6,
  };
  const year = Number(referenceDate.slice(0, 4)) - 2;
  context.writeFile(DEANS_LIST_POLICY_PATH, writePolicy(policy, `${year}-08-01`));

  const students = allRows<{ student_id: string; attendance: string }>(
    db,
    "SELECT student_id, attendance FROM students WHERE enrollment_status = 'active' AND academic_standing = 'good' ORDER BY student_id",
  );
  const onLeave = allRows<{ student_id: string; attendance: string }>(
    db,
    "SELECT student_id, attendance FROM students WHERE enrollment_status = 'leave_of_absence' AND academic_standing = 'good' ORDER BY student_id",
  );
  const termLabel = `${term.endsWith("01") ? "Spring" : "Fall"} ${term.slice(0, 4)}`;
  const goOnLeave = db.prepare(
    "UPDATE students SET enrollment_status = 'leave_of_absence' WHERE student_id = ?",
  );
  const logLeave = db.prepare(
    "INSERT INTO registrar_actions (action_type, student_id, enrollment_id, old_value, new_value, reason, recorded_by) VALUES ('status_change', ?, NULL, 'active', 'leave_of_absence', ?, 'registrar-api')",
  );
  const records = registrationsByStudent(db);
  const used = new Set<string>();
  const setGrade = db.prepare("UPDATE enrollments SET grade = ? WHERE enrollment_id = ?");
  const withdraw = db.prepare(
    "UPDATE enrollments SET status = 'withdrawn', grade = 'W' WHERE enrollment_id = ?",
  );
  const toProbation = db.prepare("UPDATE students SET academic_standing = 'probation' WHERE student_id = ?");
  const logStanding = db.prepare(
    "INSERT INTO registrar_actions (action_type, student_id, enrollment_id, old_value, new_value, reason, recorded_by) VALUES ('standing_change', ?, NULL, 'good', 'probation', ?, 'registrar-api')",
  );
  const inTerm = (id: string): TermRegistration[] =>
    (records.get(id) ?? []).filter((row) => row.term === term && row.status !== "dropped");
  const earlier = (id: string): TermRegistration[] =>
    (records.get(id) ?? []).filter((row) => row.term < term && isLetterCompleted(row));
  const pick = (
    filter: (student: { student_id: string; attendance: string }, rows: TermRegistration[]) => boolean,
  ): { id: string; rows: TermRegistration[] } | null => {
    const options = students.filter(
      (student) => !used.has(student.student_id) && filter(student, inTerm(student.student_id)),
    );
    if (options.length === 0) return null;
    const chosen = random.pick(options);
    used.add(chosen.student_id);
    return { id: chosen.student_id, rows: inTerm(chosen.student_id) };
  };
  // Straight A, one A- among three or more courses (still well above either GPA minimum).
  const straightA = (rows: TermRegistration[]): void => {
    const letter = rows.filter(isLetterCompleted);
    letter.forEach((row, index) =>
      setGrade.run(index === 0 && letter.length >= 3 ? "A-" : "A", row.enrollment_id),
    );
  };
  const allLetter = (rows: TermRegistration[]): boolean => rows.every(isLetterCompleted);
  const letterCredits = (rows: TermRegistration[]): number =>
    rows.filter(isLetterCompleted).reduce((sum, row) => sum + row.credits, 0);

  const minimumFor = (attendance: string): number =>
    attendance === "part_time" ? policy.partTimeCredits : policy.fullTimeCredits;
  for (let copy = 0; copy < factors.rows; copy += 1) {
    // A straight-A student who withdrew from one course (a registration of the term turned into a W, or a
    // drop turned into a withdrawal) and would still meet the credit minimum without it.
    const droppedIn = (id: string): TermRegistration[] =>
      (records.get(id) ?? []).filter((row) => row.term === term && row.status === "dropped");
    const withdrew =
      pick(
        (student, rows) =>
          rows.length >= 2 &&
          allLetter(rows) &&
          letterCredits(rows) - (rows[rows.length - 1]?.credits ?? 0) >= minimumFor(student.attendance),
      ) ??
      pick(
        (student, rows) =>
          droppedIn(student.student_id).length > 0 &&
          allLetter(rows) &&
          letterCredits(rows) >= minimumFor(student.attendance),
      );
    const alreadyWithdrew = withdrew
      ? null
      : pick((student, rows) => {
          const kept = rows.filter((row) => row.status !== "withdrawn");
          return (
            kept.length < rows.length &&
            allLetter(kept) &&
            letterCredits(kept) >= minimumFor(student.attendance)
          );
        });
    if (alreadyWithdrew) straightA(alreadyWithdrew.rows);
    // Last resort: a full-time student with three courses moves to part time and withdraws from one.
    const movedToPartTime =
      withdrew || alreadyWithdrew
        ? null
        : pick(
            (student, rows) =>
              student.attendance === "full_time" &&
              rows.length >= 2 &&
              allLetter(rows) &&
              letterCredits(rows) - (rows[rows.length - 1]?.credits ?? 0) >= policy.partTimeCredits,
          );
    if (movedToPartTime) {
      db.prepare("UPDATE students SET attendance = 'part_time' WHERE student_id = ?").run(movedToPartTime.id);
      straightA(movedToPartTime.rows);
      const last = movedToPartTime.rows[movedToPartTime.rows.length - 1];
      if (last) withdraw.run(last.enrollment_id);
    }
    if (withdrew) {
      straightA(withdrew.rows);
      const dropped = droppedIn(withdrew.id)[0];
      const last = withdrew.rows[withdrew.rows.length - 1];
      const target =
        letterCredits(withdrew.rows) - (last?.credits ?? 0) >=
        minimumFor(students.find((student) => student.student_id === withdrew.id)?.attendance ?? "")
          ? last
          : dropped;
      if (target) withdraw.run(target.enrollment_id);
    }
    const silent = pick(
      (student, rows) =>
        /[0369]$/.test(student.student_id) &&
        allLetter(rows) &&
        letterCredits(rows) >= minimumFor(student.attendance),
    );
    if (silent) for (const row of silent.rows) setGrade.run("A", row.enrollment_id);
    const partTime = pick(
      (student, rows) =>
        student.attendance === "part_time" &&
        allLetter(rows) &&
        letterCredits(rows) >= policy.partTimeCredits &&
        letterCredits(rows) < policy.fullTimeCredits,
    );
    if (partTime) for (const row of partTime.rows) setGrade.run("A", row.enrollment_id);
    const cumulative = pick(
      (student, rows) =>
        allLetter(rows) &&
        letterCredits(rows) >= minimumFor(student.attendance) &&
        earlier(student.student_id).length >= 2,
    );
    if (cumulative) {
      for (const row of cumulative.rows) setGrade.run("A", row.enrollment_id);
      for (const row of earlier(cumulative.id))
        setGrade.run(random.pick(["C+", "C", "B-"]), row.enrollment_id);
    }
    const probation = pick(
      (student, rows) => allLetter(rows) && letterCredits(rows) >= minimumFor(student.attendance),
    );
    if (probation) {
      straightA(probation.rows);
      toProbation.run(probation.id);
      logStanding.run(probation.id, "Standing review of an earlier term: cumulative GPA below 3.00");
    }
    const qualifies = (student: { student_id: string; attendance: string }): boolean => {
      const rows = inTerm(student.student_id);
      return (
        !used.has(student.student_id) &&
        rows.length > 0 &&
        allLetter(rows) &&
        letterCredits(rows) >= minimumFor(student.attendance)
      );
    };
    const alreadyOnLeave = onLeave.filter(qualifies);
    const leaving =
      alreadyOnLeave.length > 0
        ? random.pick(alreadyOnLeave)
        : (() => {
            const options = students.filter(
              (student) =>
                qualifies(student) &&
                !(records.get(student.student_id) ?? []).some((row) => row.status === "enrolled"),
            );
            if (options.length === 0) return null;
            const chosen = random.pick(options);
            goOnLeave.run(chosen.student_id);
            logLeave.run(chosen.student_id, `Approved leave of absence starting after ${termLabel}`);
            return chosen;
          })();
    if (leaving) {
      used.add(leaving.student_id);
      straightA(inTerm(leaving.student_id));
    }
  }
}

/** Students named to the Dean's List of the most recent graded term, from the initial state. */
export function expectedDeansList(state: StateView): string[] {
  const policy = parseDeansListPolicy(requireFile(state, DEANS_LIST_POLICY_PATH));
  const { graded } = gradedAndCurrentTerms(state.db);
  const term = graded[graded.length - 1] ?? "";
  const attendance = new Map(
    allRows<{ student_id: string; attendance: string }>(
      state.db,
      "SELECT student_id, attendance FROM students",
    ).map((row) => [row.student_id, row.attendance]),
  );
  const records = registrationsByStudent(state.db);
  const named: string[] = [];
  for (const student of studentRows(state.db)) {
    if (student.enrollment_status !== "active" || student.academic_standing !== "good") continue;
    const rows = (records.get(student.student_id) ?? []).filter(
      (row) => row.term === term && row.status !== "dropped",
    );
    if (rows.some((row) => row.status === "withdrawn" || ["I", "NP", "W"].includes(row.grade ?? "")))
      continue;
    const letter = rows.filter(isLetterCompleted);
    const credits = letter.reduce((sum, row) => sum + row.credits, 0);
    const minimum =
      attendance.get(student.student_id) === "part_time" ? policy.partTimeCredits : policy.fullTimeCredits;
    if (credits < minimum || credits === 0) continue;
    const quality = letter.reduce(
      (sum, row) => sum + (GRADE_POINTS_HUNDREDTHS[row.grade ?? ""] ?? 0) * row.credits,
      0,
    );
    const gpa = Math.floor((2 * quality + credits) / (2 * credits));
    if (gpa >= policy.minimumGpaHundredths) named.push(student.student_id);
  }
  return named;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedDeansList(context.initial);
  const answered = parseAnswerList(context.answer).map(normaliseId);
  return [
    compareIds("deans-list", "students on the Dean's List", expected, answered),
    checkOtherTablesUnchanged(context.initial.db, context.final.db, []),
  ];
}

interface DeansListVariant {
  /** Whether only active students are considered (the transcript also says who is on leave). */
  activeOnly: boolean;
  checkStatus: boolean;
  partTimeMinimum: boolean;
  termOnly: boolean;
  withdrawals: boolean;
  standing: boolean;
}

function deansListCells(variant: DeansListVariant): string[] {
  const fetchTranscript = variant.checkStatus
    ? `def transcript(student_id):
    for attempt in range(5):
        result = tools.get_transcript(student_id=student_id)
        if result.get("status") == "ok":
            return result
        print("retrying", student_id, result.get("error"))
    raise RuntimeError("transcript service kept failing for " + student_id)`
    : `def transcript(student_id):
    result = tools.get_transcript(student_id=student_id)
    result.setdefault("registrations", [])
    return result`;
  return [
    PYTHON_PRELUDE,
    `policy = read_text("policies/deans-list-policy.md")
min_gpa = round(float(re.search(r"term GPA is at least \\*\\*(\\d\\.\\d\\d)\\*\\*", policy).group(1)) * 100)
full_credits = int(re.search(r"at least \\*\\*(\\d+)\\*\\* letter-graded credits in the term if enrolled full time", policy).group(1))
part_credits = int(re.search(r"least \\*\\*(\\d+)\\*\\* letter-graded credits if enrolled part time", policy).group(1))
students = fetch_all("list_students", "students"${variant.activeOnly ? ', enrollment_status="active"' : ""})
print(len(students), "active students; minimum GPA", min_gpa, "credits", full_credits, part_credits)`,
    `${fetchTranscript}

transcripts = {s["student_id"]: transcript(s["student_id"]) for s in students}
all_regs = [r for t in transcripts.values() for r in t["registrations"]]
in_progress = max(r["term"] for r in all_regs if r["status"] == "enrolled")
term = max(r["term"] for r in all_regs if r["status"] == "completed" and r["term"] < in_progress)
print("term under review", term, term_names.get(term))`,
    `def gpa_hundredths(rows):
    credits = sum(r["credits"] for r in rows)
    if credits == 0:
        return None, 0
    quality = sum(points[r["grade"]] * r["credits"] for r in rows)
    return (2 * quality + credits) // (2 * credits), credits

named = []
for s in students:
    t = transcripts[s["student_id"]]
    if ${variant.standing ? 't.get("academic_standing") != "good"' : "False"}:
        continue
    rows = [r for r in t["registrations"] if r["term"] == term and r["status"] != "dropped"]
    if not rows:
        continue
    if any(r["grade"] in (${variant.withdrawals ? '"I", "NP", "W"' : '"I", "NP"'}) for r in rows):
        continue
    letter = [r for r in rows if r["status"] == "completed" and r["grade"] in points]
    minimum = ${variant.partTimeMinimum ? 'part_credits if t.get("attendance") == "part_time" else full_credits' : "full_credits"}
    if sum(r["credits"] for r in letter) < minimum:
        continue
    counted = ${variant.termOnly ? "letter" : '[r for r in t["registrations"] if r["status"] == "completed" and r["grade"] in points]'}
    gpa, _ = gpa_hundredths(counted)
    if gpa is not None and gpa >= min_gpa:
        named.append(s["student_id"])
print(len(named), "named")`,
    `print(json.dumps(sorted(named)))`,
  ];
}

const FULL: DeansListVariant = {
  activeOnly: true,
  checkStatus: true,
  partTimeMinimum: true,
  termOnly: true,
  withdrawals: true,
  standing: true,
};

export const deansListTask = defineTask({
  id: "university.deans-list",
  domain: universityDomain,
  summary:
    "Name the Dean's List of the last graded term from every active student's transcript (a service that sometimes answers with an error body): term GPA, full- and part-time credit minimums, no I/NP/W, good standing.",
  instruction:
    "The Dean's office needs the Dean's List for the most recent term whose grades are on record. Apply the Dean's List policy in the policies folder to the students' transcripts (get_transcript gives each student's registrations and grades). Do not change any records. Reply with only a JSON array of the student ids named to the list, sorted.",
  tools: ["list_students", "get_student", "get_transcript", "list_courses", "get_course"],
  prepare,
  verify,
  oracle: deansListCells(FULL),
  nearMisses: variantNearMisses(deansListCells, FULL, {
    "misses-silent-errors": [
      { checkStatus: false },
      "Takes the transcript service's error answers as empty transcripts instead of checking `status` and retrying.",
    ],
    "full-time-minimum-for-everyone": [
      { partTimeMinimum: false },
      "Applies the full-time credit minimum to part-time students too.",
    ],
    "cumulative-gpa": [{ termOnly: false }, "Uses the cumulative GPA of every term instead of the term GPA."],
    "ignores-withdrawals": [
      { withdrawals: false },
      "Names students who withdrew (W) from a course in the term.",
    ],
    "ignores-probation": [{ standing: false }, "Names students on academic probation."],
    "includes-students-on-leave": [
      { activeOnly: false },
      "Reads every student's transcript and checks only the academic standing, naming a student on leave of absence.",
    ],
  }),
});
