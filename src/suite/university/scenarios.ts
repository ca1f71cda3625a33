/**
 * Planted students: records shaped so that every rule of the workspace documents decides at least one
 * case at every scale and seed (the exact 3.00 GPA, the repeated course, the pending transfer, the
 * prerequisite passed with exactly the minimum grade...). Their grades are locked against later tuning.
 */
import { addDays } from "../../envs/index.js";
import { ALL_COURSES, PROGRAMS, catalogCourse } from "./catalog.js";
import {
  catalogProgram,
  courseLevel,
  fullName,
  newEnrollment,
  offeredIn,
  requirementFor,
  type EnrollmentState,
  type Standing,
  type StudentRecord,
  type World,
} from "./model.js";
import { newStudentIdentity, pickAdvisor } from "./population.js";
import { LETTER_GRADES } from "./rules.js";

interface PlantedRecord {
  termIndex: number;
  courseCode: string;
  /** A letter, P/NP, I or W for graded terms; null for a registration of the term in progress. */
  grade: string | null;
}

interface PlantSpec {
  plantedAs: string;
  programCode: string;
  admitIndex: number;
  enrollmentStatus?: EnrollmentState;
  standing?: Standing;
  records: PlantedRecord[];
}

function plant(world: World, spec: PlantSpec): StudentRecord {
  const program = catalogProgram(spec.programCode);
  const student: StudentRecord = {
    ...newStudentIdentity(world),
    programCode: program.code,
    admitIndex: spec.admitIndex,
    attendance: "full_time",
    enrollmentStatus: spec.enrollmentStatus ?? "active",
    standing: spec.standing ?? "good",
    advisorId: pickAdvisor(world, program.department),
    ability: 3.3,
    plantedAs: spec.plantedAs,
    enrollments: [],
    statusChangedAfter:
      spec.enrollmentStatus && spec.enrollmentStatus !== "active" ? world.currentIndex - 1 : null,
  };
  for (const record of spec.records)
    student.enrollments.push(
      newEnrollment(world, student.id, record.termIndex, record.courseCode, record.grade, true),
    );
  world.students.push(student);
  return student;
}

/** Three-credit letter courses without prerequisites, offered in the term, the program's own first. */
function simpleCourses(world: World, programCode: string, termIndex: number, exclude: string[]): string[] {
  const program = catalogProgram(programCode);
  const own = [...program.core, ...program.electives];
  const candidates = ALL_COURSES.filter(
    (course) =>
      course.credits === 3 &&
      course.gradingBasis === "letter" &&
      course.prerequisites.length === 0 &&
      courseLevel(course.code) >= 500 &&
      offeredIn(world, course.code, termIndex) &&
      !exclude.includes(course.code),
  ).map((course) => course.code);
  const shuffled = world.context.random.shuffle(candidates);
  return [
    ...shuffled.filter((code) => own.includes(code)),
    ...shuffled.filter((code) => !own.includes(code)),
  ];
}

/** Records with the given grades in one term, on distinct simple courses. */
function gradedTerm(
  world: World,
  programCode: string,
  termIndex: number,
  grades: Array<string | null>,
  taken: string[],
): PlantedRecord[] {
  const courses = simpleCourses(world, programCode, termIndex, taken);
  return grades.map((grade, index) => {
    const courseCode = courses[index];
    if (!courseCode) throw new Error(`not enough simple courses for term ${termIndex}`);
    taken.push(courseCode);
    return { termIndex, courseCode, grade };
  });
}

/** Students whose academic standing review turns on one rule each. */
function plantStandingCases(world: World): void {
  const review = world.currentIndex - 1;
  const current = world.currentIndex;
  const minimumCredits = world.regulations.probationMinimumCredits;
  const build = (
    plantedAs: string,
    programCode: string,
    admitIndex: number,
    termGrades: Array<[number, Array<string | null>]>,
    options: Partial<PlantSpec> = {},
  ): StudentRecord => {
    const taken: string[] = [];
    const records = termGrades.flatMap(([termIndex, grades]) =>
      gradedTerm(world, programCode, termIndex, grades, taken),
    );
    return plant(world, { plantedAs, programCode, admitIndex, records, ...options });
  };
  // Exactly 3.00 (B+, B-, B): not below the threshold once the GPA is rounded as the regulations say.
  build("standing-exact-threshold", "MSCS", review - 1, [
    [review - 1, ["B+"]],
    [review, ["B-", "B"]],
    [current, [null, null]],
  ]);
  // Clear cases for probation.
  build("standing-probation", "MPH", review - 1, [
    [review - 1, ["B"]],
    [review, ["C+", "C+", "B-"]],
    [current, [null, null, null]],
  ]);
  build("standing-probation", "MSBA", review, [
    [review, ["C", "B-", "C+"]],
    [current, [null, null]],
  ]);
  // An F replaced by a later A: above the threshold only when the repeat rule is applied.
  const taken: string[] = [];
  const repeated = ALL_COURSES.find(
    (course) =>
      course.offered === "both" &&
      course.credits === 3 &&
      course.gradingBasis === "letter" &&
      course.prerequisites.length === 0 &&
      courseLevel(course.code) >= 500,
  );
  if (!repeated) throw new Error("no course offered every term");
  taken.push(repeated.code);
  plant(world, {
    plantedAs: "standing-repeat-rule",
    programCode: "MSDS",
    admitIndex: review - 2,
    records: [
      { termIndex: review - 2, courseCode: repeated.code, grade: "F" },
      ...gradedTerm(world, "MSDS", review - 2, ["B"], taken),
      { termIndex: review - 1, courseCode: repeated.code, grade: "A" },
      ...gradedTerm(world, "MSDS", review - 1, ["B-"], taken),
      ...gradedTerm(world, "MSDS", review, ["B+"], taken),
      ...gradedTerm(world, "MSDS", current, [null, null], taken),
    ],
  });
  // Below the threshold, but an Incomplete in the review term postpones the review.
  build("standing-incomplete", "MSSTAT", review - 1, [
    [review - 1, ["B"]],
    [review, ["B-", "C+", "C", "I"]],
    [current, [null, null]],
  ]);
  // Below the threshold with too few GPA credits to be reviewed (a P seminar adds no GPA credits).
  const fewGrades = minimumCredits > 6 ? ["C+", "B-"] : ["C+"];
  const fewCredits = build("standing-too-few-credits", "MENGEE", review, [
    [review, fewGrades],
    [current, [null, null]],
  ]);
  const seminar = ALL_COURSES.find(
    (course) => course.gradingBasis === "pass_fail" && offeredIn(world, course.code, review),
  );
  if (seminar)
    fewCredits.enrollments.push(newEnrollment(world, fewCredits.id, review, seminar.code, "P", true));
  // On probation and now back above the threshold.
  build(
    "standing-restore",
    "MAECON",
    review - 3,
    [
      [review - 3, ["C+", "B-"]],
      [review - 2, ["B", "B"]],
      [review - 1, ["B+", "B"]],
      [review, ["A", "A"]],
      [current, [null, null]],
    ],
    { standing: "probation" },
  );
  // Still below the threshold while on probation: stays on probation.
  build(
    "standing-stays-on-probation",
    "MSBA",
    review - 2,
    [
      [review - 2, ["C+", "B-"]],
      [review - 1, ["B-", "B"]],
      [review, ["B", "C+"]],
      [current, [null, null]],
    ],
    { standing: "probation" },
  );
  // Below the threshold with an approved committee exemption for the review term.
  const exempt = build("standing-exempt", "MSCS", review - 1, [
    [review - 1, ["B"]],
    [review, ["C+", "C", "B-"]],
    [current, [null, null]],
  ]);
  world.exemptions.push({
    studentId: exempt.id,
    termIndex: review,
    decision: "APPROVED",
    reason: "documented medical emergency during final examinations",
  });
  // A denied exemption changes nothing.
  const denied = build("standing-exemption-denied", "MSDS", review - 1, [
    [review - 1, ["B-"]],
    [review, ["C+", "B-", "C+"]],
    [current, [null, null]],
  ]);
  world.exemptions.push({
    studentId: denied.id,
    termIndex: review,
    decision: "DENIED",
    reason: "the request did not include supporting documentation",
  });
  // Below the threshold but on leave of absence: not reviewed.
  build(
    "standing-on-leave",
    "MSSTAT",
    review - 2,
    [
      [review - 2, ["A"]],
      [review - 1, ["B+"]],
      [review, ["C", "C-"]],
    ],
    { enrollmentStatus: "leave_of_absence" },
  );
}

/** Three-credit letter courses of a program that a planted graduate can take, prerequisites first. */
function scheduleProgram(
  world: World,
  programCode: string,
  courseCount: number,
  firstTerm: number,
  extraCourses: string[] = [],
): Array<{ termIndex: number; courseCode: string }> {
  const program = catalogProgram(programCode);
  const usable = (code: string): boolean => {
    const course = catalogCourse(code);
    return course.credits === 3 && course.gradingBasis === "letter" && courseLevel(code) >= 500;
  };
  const placed = new Map<string, number>();
  const perTerm = new Map<number, number>();
  const lastGraded = world.currentIndex - 1;
  const tryPlace = (code: string): boolean => {
    for (let termIndex = firstTerm; termIndex <= lastGraded; termIndex += 1) {
      const ready = catalogCourse(code).prerequisites.every(
        (prerequisite) => (placed.get(prerequisite) ?? Infinity) < termIndex,
      );
      if (ready && offeredIn(world, code, termIndex) && (perTerm.get(termIndex) ?? 0) < 4) {
        placed.set(code, termIndex);
        perTerm.set(termIndex, (perTerm.get(termIndex) ?? 0) + 1);
        return true;
      }
    }
    return false;
  };
  // A core course may need a bridge course first (MGMT 550 needs MGMT 400); bridges go first.
  const bridges = program.core
    .flatMap((code) => catalogCourse(code).prerequisites)
    .filter((code) => !program.core.includes(code));
  for (const code of [...new Set([...extraCourses, ...bridges]), ...program.core]) {
    if (!tryPlace(code)) throw new Error(`cannot schedule ${code} for ${programCode}`);
  }
  let count = program.core.length;
  const candidates = [
    ...world.context.random.shuffle(program.electives.filter(usable)),
    ...ALL_COURSES.map((course) => course.code).filter(usable),
  ];
  for (const code of candidates) {
    if (count >= courseCount) break;
    if (placed.has(code)) continue;
    if (tryPlace(code)) count += 1;
  }
  if (count < courseCount) throw new Error(`cannot schedule ${courseCount} courses for ${programCode}`);
  return [...placed.entries()].map(([courseCode, termIndex]) => ({ termIndex, courseCode }));
}

function goodGrade(world: World): string {
  return world.context.random.pick(["A", "A-", "B+", "A-"]);
}

/** Students whose graduation audit turns on one requirement each. */
function plantGraduationCases(world: World): void {
  const credits = (code: string): number => requirementFor(world, code).minimumCredits;
  const graduate = (
    plantedAs: string,
    programCode: string,
    courseCount: number,
    options: { extra?: string[]; status?: EnrollmentState; gradeFor?: (code: string) => string | null } = {},
  ): StudentRecord => {
    const schedule = scheduleProgram(world, programCode, courseCount, 0, options.extra ?? []);
    return plant(world, {
      plantedAs,
      programCode,
      admitIndex: Math.min(...schedule.map((item) => item.termIndex)),
      enrollmentStatus: options.status ?? "active",
      records: schedule.map((item) => ({
        ...item,
        grade: options.gradeFor?.(item.courseCode) ?? goodGrade(world),
      })),
    });
  };
  const transfer = (student: StudentRecord, status: "approved" | "pending", creditCount: number): void => {
    world.transfers.push({
      requestId: "",
      studentId: student.id,
      studentName: fullName(student),
      institution: "University of Vermont",
      courseTitle: "Graduate Topics in Computing",
      credits: creditCount,
      status,
      decidedOn: status === "pending" ? "" : addDays(world.terms[0]?.startDate ?? "2024-01-01", -20),
    });
  };
  graduate("graduation-eligible", "MSCS", credits("MSCS") / 3);
  graduate("graduation-eligible", "MSSTAT", credits("MSSTAT") / 3);
  transfer(graduate("graduation-eligible-with-transfer", "MSCS", credits("MSCS") / 3 - 1), "approved", 3);
  transfer(graduate("graduation-transfer-pending", "MSDS", credits("MSDS") / 3 - 1), "pending", 3);
  transfer(graduate("graduation-certificate-transfer", "GCCYB", credits("GCCYB") / 3 - 1), "approved", 3);
  const lastCore = catalogProgram("MSSTAT").core.at(-1) ?? "";
  graduate("graduation-core-grade-too-low", "MSSTAT", credits("MSSTAT") / 3 + 1, {
    gradeFor: (code) => (code === lastCore ? "C+" : null),
  });
  graduate("graduation-bridge-does-not-count", "MSDS", credits("MSDS") / 3 - 1, { extra: ["CS 450"] });
  graduate("graduation-already-graduated", "MSCS", credits("MSCS") / 3, { status: "graduated" });
  const incomplete = graduate("graduation-incomplete", "MSBA", credits("MSBA") / 3);
  const lastTerm = world.currentIndex - 1;
  const extra = simpleCourses(
    world,
    "MSBA",
    lastTerm,
    incomplete.enrollments.map((enrollment) => enrollment.courseCode),
  )[0];
  if (extra) incomplete.enrollments.push(newEnrollment(world, incomplete.id, lastTerm, extra, "I", true));
}

/** Registrations of the term in progress whose prerequisite check turns on one rule each. */
function plantPrerequisiteCases(world: World): void {
  const current = world.currentIndex;
  const minimum = world.regulations.prerequisiteMinimumGrade;
  const pairs = ALL_COURSES.flatMap((course) =>
    course.prerequisites.map((prerequisite) => ({ course: course.code, prerequisite })),
  ).filter(
    (pair) =>
      offeredIn(world, pair.course, current) &&
      catalogCourse(pair.prerequisite).credits === 3 &&
      courseLevel(pair.prerequisite) >= 500,
  );
  const concurrent = pairs.filter(
    (pair) =>
      offeredIn(world, pair.prerequisite, current) &&
      catalogCourse(pair.prerequisite).prerequisites.length === 0,
  );
  const lastGradedWith = (code: string): number => {
    for (let termIndex = current - 1; termIndex >= 0; termIndex -= 1)
      if (offeredIn(world, code, termIndex)) return termIndex;
    throw new Error(`${code} is never offered`);
  };
  const programOf = (courseCode: string): string =>
    PROGRAMS.find((program) => [...program.core, ...program.electives].includes(courseCode))?.code ?? "MSCS";
  const cases: Array<{
    plantedAs: string;
    attempts: Array<string | "none">;
    waiver?: "APPROVED" | "DENIED";
    concurrent?: boolean;
  }> = [
    { plantedAs: "prerequisite-grade-too-low", attempts: ["C"] },
    { plantedAs: "prerequisite-never-taken", attempts: ["none"] },
    { plantedAs: "prerequisite-withdrawn", attempts: ["W"] },
    { plantedAs: "prerequisite-waived", attempts: ["none"], waiver: "APPROVED" },
    { plantedAs: "prerequisite-waiver-denied", attempts: ["C-"], waiver: "DENIED" },
    { plantedAs: "prerequisite-exact-minimum", attempts: [minimum] },
    { plantedAs: "prerequisite-retaken", attempts: ["D", "B"] },
    { plantedAs: "prerequisite-concurrent", attempts: ["none"], concurrent: true },
  ];
  for (const [index, item] of cases.entries()) {
    const source = item.concurrent ? concurrent : pairs;
    const pair = source[(index * 3 + world.context.random.int(0, source.length - 1)) % source.length];
    if (!pair) throw new Error("no prerequisite pair for the term in progress");
    const programCode = programOf(pair.course);
    const taken = [pair.course, pair.prerequisite];
    const records: PlantedRecord[] = [];
    let termIndex = lastGradedWith(pair.prerequisite);
    for (const grade of [...item.attempts].reverse()) {
      if (grade === "none") continue;
      records.push({ termIndex, courseCode: pair.prerequisite, grade });
      termIndex -= 1;
      while (termIndex > 0 && !offeredIn(world, pair.prerequisite, termIndex)) termIndex -= 1;
    }
    const firstTerm = Math.max(0, Math.min(current - 2, ...records.map((record) => record.termIndex)));
    for (let other = firstTerm; other < current; other += 1) {
      records.push(...gradedTerm(world, programCode, other, [goodGrade(world)], taken));
    }
    records.push({ termIndex: current, courseCode: pair.course, grade: null });
    if (item.concurrent) records.push({ termIndex: current, courseCode: pair.prerequisite, grade: null });
    records.push(...gradedTerm(world, programCode, current, [null], taken));
    const student = plant(world, { plantedAs: item.plantedAs, programCode, admitIndex: firstTerm, records });
    if (item.waiver) {
      world.waivers.push({
        studentId: student.id,
        termIndex: current,
        courseCode: pair.course,
        prerequisiteCode: pair.prerequisite,
        decision: item.waiver,
      });
    }
  }
}

export function plantScenarios(world: World): void {
  plantStandingCases(world);
  plantGraduationCases(world);
  plantPrerequisiteCases(world);
}

/** Letter grades that count as failing a section (below the pass minimum), worst first. */
export function failingLetters(passMinimum: string): string[] {
  const cut = LETTER_GRADES.indexOf(passMinimum);
  return LETTER_GRADES.slice(cut + 1).reverse();
}
