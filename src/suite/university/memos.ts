/**
 * Grade change requests: a mix of approved, late, pending and denied memos, with one approved memo at
 * every scale superseded by a later one whose file sorts first.
 */
import { addDays, earlierDate, laterDate, randomDate } from "../../envs/index.js";
import { catalogCourse, departmentOfCourse } from "./catalog.js";
import type { GradeChangeMemo } from "./documents.js";
import { studentName, type EnrollmentRecord, type SectionRecord, type World } from "./model.js";
import { LETTER_GRADES, isLetterGrade } from "./rules.js";

const REGRADE_REASONS = [
  "Final examination regraded after a scoring error",
  "Project rubric misapplied; corrected after review",
  "Missing homework scores entered late",
  "Calculation error in the weighted course total",
];
const INCOMPLETE_RESOLVED = "Incomplete resolved: remaining coursework submitted";

export function chairOf(world: World, department: string): string {
  const chair = world.instructors.find(
    (instructor) => instructor.department === department && instructor.rank === "Professor",
  );
  return chair ? `Prof. ${chair.firstName} ${chair.lastName}` : "the Associate Dean";
}

/** The chair decides, unless the chair is the requester; then the associate dean does. */
function deciderFor(world: World, department: string, requester: string): string {
  const chair = chairOf(world, department);
  return chair === requester ? "Prof. Miriam Okafor, Associate Dean (for the chair)" : chair;
}

function instructorName(world: World, section: SectionRecord): string {
  const instructor = world.instructors.find((item) => item.id === section.instructorId);
  if (!instructor) return "the instructor of record";
  const title = instructor.rank === "Lecturer" || instructor.rank === "Adjunct Instructor" ? "Dr." : "Prof.";
  return `${title} ${instructor.firstName} ${instructor.lastName}`;
}

function correctedGrade(world: World, recorded: string, avoid: string[]): string {
  const { random } = world.context;
  const options =
    recorded === "I"
      ? ["A", "A-", "B+", "B", "B-"]
      : LETTER_GRADES.filter((grade) => {
          const distance = LETTER_GRADES.indexOf(grade) - LETTER_GRADES.indexOf(recorded);
          return distance !== 0 && distance >= -3 && distance <= 1;
        });
  const usable = options.filter((grade) => grade !== recorded && !avoid.includes(grade));
  if (usable.length > 0) return random.pick(usable);
  // Near the top of the scale the only small corrections are taken; any other grade will do.
  return LETTER_GRADES.find((grade) => grade !== recorded && !avoid.includes(grade)) ?? "B";
}

type MemoKind = "approved" | "supersedes" | "late" | "pending" | "denied";

/** Writes `count` memos (the caller decides the count from the file factor). */
export function planGradeChangeMemos(world: World, count: number): GradeChangeMemo[] {
  const { random } = world.context;
  const referenceDate = world.context.referenceDate;
  const window = world.regulations.gradeChangeWindowDays;
  const graded = world.terms.slice(0, world.currentIndex);
  const timelyTerms = graded
    .map((term, index) => ({
      term,
      index,
      from: addDays(term.gradesDueDate, 3),
      to: earlierDate(addDays(term.gradesDueDate, window - 5), addDays(referenceDate, -3)),
    }))
    .filter((item) => item.from <= item.to);
  const lateTerms = graded
    .map((term, index) => ({
      term,
      index,
      from: addDays(term.gradesDueDate, window + 6),
      to: addDays(referenceDate, -3),
    }))
    .filter((item) => item.from <= item.to);
  if (timelyTerms.length === 0 || lateTerms.length === 0)
    throw new Error("the calendar leaves no room for grade change memos");
  const used = new Set<EnrollmentRecord>();
  const usedNumbers = new Set<number>();
  const memos: GradeChangeMemo[] = [];
  const memoNumber = (below?: number): number => {
    let value = 0;
    do value = below === undefined ? random.int(1100, 9899) : random.int(1000, below - 1);
    while (usedNumbers.has(value));
    usedNumbers.add(value);
    return value;
  };
  const eligible = (section: SectionRecord): EnrollmentRecord[] =>
    section.enrollments.filter(
      (enrollment) =>
        !enrollment.locked &&
        !used.has(enrollment) &&
        enrollment.status === "completed" &&
        (isLetterGrade(enrollment.grade) || enrollment.grade === "I"),
    );
  const pickSection = (termIndex: number, size: number): SectionRecord => {
    const usable = (minimum: number): SectionRecord[] =>
      world.sections.filter(
        (section) =>
          section.termIndex === termIndex &&
          !section.tuned &&
          catalogCourse(section.courseCode).gradingBasis === "letter" &&
          eligible(section).length >= minimum,
      );
    const options = usable(size).length > 0 ? usable(size) : usable(1);
    if (options.length === 0) throw new Error(`no section to write a memo about in term ${termIndex}`);
    return random.pick(options);
  };
  const makeMemo = (
    kind: MemoKind,
    section: SectionRecord,
    records: EnrollmentRecord[],
    submittedOn: string,
    number: number,
    corrected: (record: EnrollmentRecord) => string,
  ): GradeChangeMemo => {
    const term = world.terms[section.termIndex];
    const department = departmentOfCourse(section.courseCode).name;
    const decision = kind === "pending" ? "PENDING" : kind === "denied" ? "DENIED" : "APPROVED";
    return {
      memoId: `GC-${number}`,
      submittedOn,
      requestedBy: instructorName(world, section),
      department,
      courseCode: section.courseCode,
      courseTitle: catalogCourse(section.courseCode).title,
      sectionNumber: section.sectionNumber,
      termName: term?.name ?? "",
      changes: records.map((record) => ({
        studentId: record.studentId,
        studentName: studentName(world, record.studentId),
        recordedGrade: record.grade ?? "",
        correctedGrade: corrected(record),
        reason: record.grade === "I" ? INCOMPLETE_RESOLVED : random.pick(REGRADE_REASONS),
      })),
      decision,
      decidedBy: deciderFor(world, department, instructorName(world, section)),
      decidedOn:
        decision === "PENDING"
          ? null
          : earlierDate(addDays(submittedOn, random.int(1, 9)), addDays(referenceDate, -1)),
    };
  };
  let previousApproved: {
    memo: GradeChangeMemo;
    section: SectionRecord;
    record: EnrollmentRecord;
    number: number;
  } | null = null;
  for (let index = 0; index < count; index += 1) {
    const group = Math.floor(index / 4);
    const slot = index % 4;
    const kind: MemoKind =
      slot === 0
        ? "approved"
        : slot === 1
          ? group === 0 || random.chance(0.5)
            ? "supersedes"
            : "approved"
          : slot === 2
            ? "late"
            : group % 2 === 0
              ? "denied"
              : "pending";
    if (kind === "supersedes" && previousApproved) {
      // Same enrollment, submitted later, with a memo number that sorts before the earlier memo.
      const earlier = previousApproved;
      const window = timelyTerms.find((item) => item.index === earlier.section.termIndex);
      const from = addDays(earlier.memo.submittedOn, 2);
      const to = window?.to ?? from;
      const submittedOn = from <= to ? between(world, from, to) : to;
      const firstCorrection =
        earlier.memo.changes.find((change) => change.studentId === earlier.record.studentId)
          ?.correctedGrade ?? "";
      memos.push(
        makeMemo(
          "supersedes",
          earlier.section,
          [earlier.record],
          submittedOn,
          memoNumber(earlier.number),
          (record) => correctedGrade(world, record.grade ?? "B", [firstCorrection]),
        ),
      );
      previousApproved = null;
      continue;
    }
    const timing = kind === "late" ? random.pick(lateTerms) : random.pick(timelyTerms);
    const wanted = kind === "approved" ? (group === 0 ? 3 : random.int(2, 3)) : random.int(1, 2);
    const section = pickSection(timing.index, wanted);
    const records = random.shuffle(eligible(section)).slice(0, wanted);
    for (const record of records) used.add(record);
    const number = memoNumber();
    // An approved memo leaves room in its window for a later, superseding one.
    const latest = kind === "approved" ? laterDate(timing.from, addDays(timing.to, -4)) : timing.to;
    const memo = makeMemo(kind, section, records, between(world, timing.from, latest), number, (record) =>
      correctedGrade(world, record.grade ?? "B", []),
    );
    memos.push(memo);
    const first = records[0];
    if (kind === "approved" && first && addDays(memo.submittedOn, 2) <= timing.to)
      previousApproved = { memo, section, record: first, number };
    else if (kind === "approved") previousApproved = null;
  }
  return memos;
}

/** A random date from `from` to `to` (just `from` when `to` is earlier). */
function between(world: World, from: string, to: string): string {
  return randomDate(world.context.random, from, laterDate(from, to));
}
