/**
 * From registrations to sections, then the shaping passes that must see sections: the section outcome
 * cases, the GPA rounding guard, and the standing decisions of past reviews.
 */
import { groupBy } from "../../envs/index.js";
import { catalogCourse, departmentOfCourse } from "./catalog.js";
import {
  attemptsOf,
  logStandingChange,
  type EnrollmentRecord,
  type SectionRecord,
  type StudentRecord,
  type World,
} from "./model.js";
import { failingLetters } from "./scenarios.js";
import {
  LETTER_GRADES,
  cumulativeGpa,
  formatHundredths,
  isLetterGrade,
  meetsMinimumGrade,
  prerequisiteSatisfied,
} from "./rules.js";

const MEETING_PATTERNS = [
  "MW 09:00-10:15",
  "MW 13:30-14:45",
  "MW 18:00-20:30",
  "TR 10:30-11:45",
  "TR 15:00-16:15",
  "TR 18:00-20:30",
  "F 09:00-11:45",
  "S 09:00-12:00",
];

function newSection(
  world: World,
  termIndex: number,
  courseCode: string,
  sectionNumber: string,
): SectionRecord {
  const { random } = world.context;
  const department = departmentOfCourse(courseCode);
  const teachers = world.instructors.filter((instructor) => instructor.department === department.name);
  const modality = random.chance(0.72) ? "in_person" : random.chance(0.5) ? "online" : "hybrid";
  return {
    id: 0,
    termIndex,
    courseCode,
    sectionNumber,
    instructorId: random.pick(teachers).id,
    capacity: random.pick([20, 25, 30, 35, 40]),
    room:
      modality === "online" ? "ONLINE" : `${department.building} ${random.int(1, 3)}${random.int(10, 45)}`,
    meetingPattern: modality === "online" ? "asynchronous" : random.pick(MEETING_PATTERNS),
    modality,
    enrollments: [],
    tuned: false,
  };
}

/** Groups registrations by term and course and splits each group into sections of realistic size. */
export function buildSections(world: World): void {
  const groups = groupBy(
    world.students.flatMap((student) => student.enrollments),
    (enrollment) => `${enrollment.termIndex}|${enrollment.courseCode}`,
  );
  const keys = [...groups.keys()].sort();
  for (const key of keys) {
    const group = groups.get(key) ?? [];
    const first = group[0];
    if (!first) continue;
    const sectionCount = Math.max(1, Math.ceil(group.length / world.context.random.pick([28, 32, 36])));
    const sections = Array.from({ length: sectionCount }, (_, index) =>
      newSection(world, first.termIndex, first.courseCode, String(index + 1).padStart(3, "0")),
    );
    for (const [index, enrollment] of world.context.random.shuffle(group).entries()) {
      const section = sections[index % sectionCount];
      if (!section) continue;
      section.enrollments.push(enrollment);
      enrollment.section = section;
    }
    for (const section of sections)
      section.capacity = Math.max(section.capacity, section.enrollments.length + 2);
    world.sections.push(...sections);
  }
}

/** The non-dropped registrations of a section, split into planted (fixed) and free ones. */
function sectionParts(section: SectionRecord): { fixed: EnrollmentRecord[]; free: EnrollmentRecord[] } {
  const records = section.enrollments.filter((enrollment) => enrollment.status !== "dropped");
  return {
    fixed: records.filter((enrollment) => enrollment.locked),
    free: records.filter((enrollment) => !enrollment.locked),
  };
}

function setGrades(world: World, records: EnrollmentRecord[], grades: string[]): void {
  for (const [index, record] of world.context.random.shuffle(records).entries()) {
    const grade = grades[index] ?? "B";
    record.grade = grade;
    record.status = grade === "W" ? "withdrawn" : "completed";
  }
}

function passingGrades(world: World, count: number): string[] {
  return Array.from({ length: count }, () =>
    world.context.random.pick(["A", "A-", "B+", "B", "B-", "C+", "C"]),
  );
}

function failingGrades(world: World, count: number, failing: string[]): string[] {
  // C- would pass under a looser reading of the rule; plain failures use D and F only.
  const hard = failing.filter((grade) => grade !== "C-");
  return Array.from({ length: count }, () => world.context.random.pick(hard.length > 0 ? hard : failing));
}

/** A proposed set of grades for the free registrations of a section, or null when the case cannot be built. */
type Shaper = (counts: {
  graded: number;
  passed: number;
  withdrawn: number;
  free: number;
}) => string[] | null;

/**
 * Shapes a few sections of the last two graded terms so the section outcome rule is exercised at every
 * scale: one clearly below the threshold, one that is below only if withdrawals are counted, one that is
 * below only if C- is not a pass, and one small section that is below but too small to be flagged.
 * Planted registrations keep their grades and are counted as they are.
 */
export function tuneSections(world: World): void {
  const { random } = world.context;
  const threshold = world.regulations.sectionReviewThresholdPercent;
  const minimumGraded = world.regulations.sectionReviewMinimumGraded;
  const passMinimum = world.regulations.sectionPassMinimumGrade;
  const failing = failingLetters(passMinimum);
  const recent = world.sections.filter(
    (section) =>
      section.termIndex >= world.currentIndex - 2 &&
      section.termIndex < world.currentIndex &&
      catalogCourse(section.courseCode).gradingBasis === "letter",
  );
  const candidates = random.shuffle(
    recent.filter((section) => {
      const parts = sectionParts(section);
      return parts.free.length >= 6 && parts.free.length + parts.fixed.length >= 8;
    }),
  );
  const shape = (name: string, shaper: Shaper): SectionRecord => {
    for (const section of candidates) {
      if (section.tuned) continue;
      const { fixed, free } = sectionParts(section);
      const counts = {
        graded: fixed.filter((item) => item.grade !== "W" && item.grade !== "I").length,
        passed: fixed.filter((item) => item.grade === "P" || meetsMinimumGrade(item.grade, passMinimum))
          .length,
        withdrawn: fixed.filter((item) => item.grade === "W").length,
        free: free.length,
      };
      const grades = shaper(counts);
      if (!grades) continue;
      setGrades(world, free, grades);
      section.tuned = true;
      return section;
    }
    throw new Error(`no section can be shaped for the '${name}' outcome case`);
  };
  const below = (passed: number, graded: number): boolean => (100 * passed) / graded < threshold - 0.05;

  // A small section split off a larger one, below the threshold but under the minimum size.
  // Prefer a roomy section; small schedules (v0 at some seeds) may only have the smaller candidates.
  const untuned = candidates.filter((section) => !section.tuned);
  const source =
    untuned.find((section) => sectionParts(section).free.length >= 9) ??
    [...untuned].sort((a, b) => sectionParts(b).free.length - sectionParts(a).free.length)[0];
  if (!source) throw new Error("no section large enough to split");
  const moved = sectionParts(source).free.slice(0, 3);
  const small = newSection(world, source.termIndex, source.courseCode, "090");
  small.modality = "online";
  small.room = "ONLINE";
  small.meetingPattern = "asynchronous";
  small.tuned = true;
  source.enrollments = source.enrollments.filter((enrollment) => !moved.includes(enrollment));
  for (const enrollment of moved) enrollment.section = small;
  small.enrollments = moved;
  world.sections.push(small);
  setGrades(world, moved, [...passingGrades(world, 1), ...failingGrades(world, 2, failing)]);

  shape("clearly below", ({ graded, passed, free }) => {
    const total = graded + free;
    const freePassed = Math.max(0, Math.floor((total * (threshold - 20)) / 100) - passed);
    if (!below(passed + freePassed, total)) return null;
    return [...passingGrades(world, freePassed), ...failingGrades(world, free - freePassed, failing)];
  });

  shape("below only with withdrawals", ({ graded, passed, withdrawn, free }) => {
    for (let freeWithdrawn = 1; freeWithdrawn <= 4 && freeWithdrawn < free; freeWithdrawn += 1) {
      const total = graded + free - freeWithdrawn;
      if (total < minimumGraded) break;
      const freePassed = Math.max(0, Math.ceil((total * threshold) / 100) - passed);
      if (freePassed > free - freeWithdrawn) continue;
      if (below(passed + freePassed, total)) continue;
      if (!below(passed + freePassed, total + freeWithdrawn + withdrawn)) continue;
      return [
        ...passingGrades(world, freePassed),
        ...failingGrades(world, free - freeWithdrawn - freePassed, failing),
        ...Array.from({ length: freeWithdrawn }, () => "W"),
      ];
    }
    return null;
  });

  if (failing.includes("C-")) {
    shape("below only because C- fails", ({ graded, passed, free }) => {
      const total = graded + free;
      const needed = Math.ceil((total * threshold) / 100);
      const freePassed = needed - 1 - passed;
      if (freePassed < 0 || freePassed + 1 > free || !below(needed - 1, total)) return null;
      return [
        ...passingGrades(world, freePassed),
        "C-",
        ...failingGrades(world, free - freePassed - 1, failing),
      ];
    });
  }
}

/**
 * A GPA of exactly x.xx5 rounds differently in binary floating point than in exact arithmetic; no record
 * may sit on that edge next to a threshold, so a grade of such a student is raised one step.
 */
export function guardRoundingEdges(world: World): void {
  for (const student of world.students) {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const gpa = cumulativeGpa(attemptsOf(world, student, world.currentIndex - 1));
      if (gpa.credits === 0 || (2 * gpa.qualityHundredths) % gpa.credits !== 0) break;
      const doubled = (2 * gpa.qualityHundredths) / gpa.credits;
      if (doubled % 2 === 0) break;
      const adjustable = student.enrollments.find(
        (enrollment) =>
          !enrollment.locked &&
          !enrollment.section?.tuned &&
          isLetterGrade(enrollment.grade) &&
          enrollment.grade !== "A",
      );
      if (!adjustable?.grade) break;
      adjustable.grade = LETTER_GRADES[LETTER_GRADES.indexOf(adjustable.grade) - 1] ?? "A";
    }
  }
}

function hasIncompleteIn(student: StudentRecord, termIndex: number): boolean {
  return student.enrollments.some(
    (enrollment) => enrollment.termIndex === termIndex && enrollment.grade === "I",
  );
}

/** Replays the standing reviews of every graded term before the last one for the ordinary population. */
export function reviewStandingHistory(world: World): void {
  const { random } = world.context;
  const threshold = world.regulations.probationThresholdHundredths;
  const reviewTerm = world.currentIndex - 1;
  for (const student of world.students) {
    if (student.plantedAs !== null || student.standing === "suspended") continue;
    for (let termIndex = student.admitIndex; termIndex < reviewTerm; termIndex += 1) {
      if (student.statusChangedAfter !== null && termIndex > student.statusChangedAfter) break;
      if (hasIncompleteIn(student, termIndex)) continue;
      const gpa = cumulativeGpa(attemptsOf(world, student, termIndex));
      if (gpa.roundedHundredths === null || gpa.credits < world.regulations.probationMinimumCredits) continue;
      const termName = world.terms[termIndex]?.name ?? "";
      if (student.standing === "good" && gpa.roundedHundredths < threshold) {
        const roll = random.next();
        if (roll < 0.1) {
          recordExemption(world, student.id, termIndex, "APPROVED");
          continue;
        }
        if (roll < 0.18) recordExemption(world, student.id, termIndex, "DENIED");
        student.standing = "probation";
        logStandingChange(
          world,
          student.id,
          "good",
          "probation",
          standingReason(termName, gpa.roundedHundredths),
        );
      } else if (student.standing === "probation" && gpa.roundedHundredths >= threshold) {
        student.standing = "good";
        logStandingChange(
          world,
          student.id,
          "probation",
          "good",
          standingReason(termName, gpa.roundedHundredths),
        );
      }
    }
  }
}

function standingReason(termName: string, gpaHundredths: number): string {
  return `${termName} standing review: cumulative GPA ${formatHundredths(gpaHundredths)}`;
}

const EXEMPTION_REASONS = [
  "documented medical emergency during final examinations",
  "bereavement in the family during the term",
  "military deployment orders received mid-term",
  "pending grade appeal in a core course",
  "documented disability accommodation not provided in time",
];

const DENIAL_REASONS = [
  "the request did not include supporting documentation",
  "the circumstances described predate the term under review",
  "the request was submitted after the committee's deadline",
];

function recordExemption(
  world: World,
  studentId: string,
  termIndex: number,
  decision: "APPROVED" | "DENIED",
): void {
  const reasons = decision === "APPROVED" ? EXEMPTION_REASONS : DENIAL_REASONS;
  world.exemptions.push({ studentId, termIndex, decision, reason: world.context.random.pick(reasons) });
}

/** Committee decisions on exemption requests for the review of the last graded term. */
export function decideCurrentExemptions(world: World): void {
  const { random } = world.context;
  const reviewTerm = world.currentIndex - 1;
  for (const student of world.students) {
    if (student.plantedAs !== null || student.enrollmentStatus !== "active" || student.standing !== "good")
      continue;
    if (hasIncompleteIn(student, reviewTerm)) continue;
    const gpa = cumulativeGpa(attemptsOf(world, student, reviewTerm));
    if (gpa.roundedHundredths === null || gpa.credits < world.regulations.probationMinimumCredits) continue;
    if (gpa.roundedHundredths >= world.regulations.probationThresholdHundredths) continue;
    const roll = random.next();
    if (roll < 0.15) recordExemption(world, student.id, reviewTerm, "APPROVED");
    else if (roll < 0.25) recordExemption(world, student.id, reviewTerm, "DENIED");
  }
}

/** Department waiver decisions for registrations of the term in progress and the last graded term. */
export function decideWaivers(world: World): void {
  const { random } = world.context;
  const minimum = world.regulations.prerequisiteMinimumGrade;
  for (const student of world.students) {
    if (student.plantedAs !== null) continue;
    const attempts = attemptsOf(world, student);
    for (const enrollment of student.enrollments) {
      if (enrollment.termIndex < world.currentIndex - 1 || enrollment.status === "dropped") continue;
      const term = world.terms[enrollment.termIndex]?.code ?? "";
      for (const prerequisite of catalogCourse(enrollment.courseCode).prerequisites) {
        const satisfied = prerequisiteSatisfied(attempts, prerequisite, term, minimum);
        const current = enrollment.termIndex === world.currentIndex;
        // Archived decisions of the last term are mostly approvals; this term's requests are mixed.
        const roll = random.next();
        const decision = satisfied
          ? null
          : current
            ? roll < 0.3
              ? "APPROVED"
              : roll < 0.45
                ? "DENIED"
                : null
            : roll < 0.6
              ? "APPROVED"
              : null;
        if (decision === null) continue;
        world.waivers.push({
          studentId: student.id,
          termIndex: enrollment.termIndex,
          courseCode: enrollment.courseCode,
          prerequisiteCode: prerequisite,
          decision,
        });
      }
    }
  }
}

/** Suspends a few students with a weak record; suspended students are not registered this term. */
export function suspendWeakStudents(world: World, count: number): void {
  const reviewTerm = world.currentIndex - 1;
  const weak = world.students.filter((student) => {
    if (
      student.plantedAs !== null ||
      student.enrollmentStatus !== "active" ||
      student.admitIndex > reviewTerm - 2
    )
      return false;
    const gpa = cumulativeGpa(attemptsOf(world, student, reviewTerm - 1));
    return gpa.roundedHundredths !== null && gpa.roundedHundredths < 280 && gpa.credits >= 9;
  });
  for (const student of world.context.random.shuffle(weak).slice(0, count)) {
    student.standing = "suspended";
    student.enrollments = student.enrollments.filter(
      (enrollment) => enrollment.termIndex !== world.currentIndex,
    );
    const reviewName = world.terms[reviewTerm - 1]?.name ?? "";
    logStandingChange(
      world,
      student.id,
      "probation",
      "suspended",
      `Academic Standing Committee decision after the ${reviewName} review`,
    );
  }
}
