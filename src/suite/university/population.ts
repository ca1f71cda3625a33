/** The ordinary student population: admitted over five terms, taking courses term by term until done. */
import { addDays } from "../../envs/index.js";
import { ALL_COURSES, PROGRAMS, catalogCourse, type CatalogProgram } from "./catalog.js";
import {
  approvedTransferCredits,
  attemptsOf,
  catalogProgram,
  courseLevel,
  fullName,
  newEnrollment,
  normal,
  offeredIn,
  requirementFor,
  weightedPick,
  type EnrollmentRecord,
  type StudentIdentity,
  type StudentRecord,
  type World,
} from "./model.js";
import {
  latestGrade,
  meetsGraduationRequirements,
  meetsMinimumGrade,
  prerequisiteSatisfied,
} from "./rules.js";

const PROGRAM_WEIGHTS: Record<string, number> = {
  MSCS: 18,
  MSDS: 15,
  MSSTAT: 9,
  MENGEE: 10,
  MAECON: 8,
  MPH: 12,
  MSBA: 14,
  GCCYB: 7,
  GCDA: 7,
};

const INSTITUTIONS = [
  "University of Toronto",
  "Ohio State University",
  "Universidad de los Andes",
  "Indian Institute of Technology Madras",
  "University of Leeds",
  "Arizona State University",
  "National Taiwan University",
  "Boston University",
  "Rutgers University",
  "University of Cape Town",
];

/** Scores at or above each cut become that letter; the scale of a typical graduate course. */
const LETTER_CUTS: Array<[number, string]> = [
  [3.85, "A"],
  [3.5, "A-"],
  [3.17, "B+"],
  [2.83, "B"],
  [2.5, "B-"],
  [2.17, "C+"],
  [1.83, "C"],
  [1.5, "C-"],
  [0.8, "D"],
];

export function letterForScore(score: number): string {
  for (const [cut, letter] of LETTER_CUTS) if (score >= cut) return letter;
  return "F";
}

const CITIZENSHIPS: Array<[string, number]> = [
  ["United States", 55],
  ["India", 14],
  ["China", 10],
  ["Canada", 4],
  ["Nigeria", 3],
  ["Brazil", 3],
  ["South Korea", 3],
  ["Mexico", 3],
  ["Germany", 2],
  ["Vietnam", 3],
];

/** A unique S-number and e-mail, and the contact details of a new student. */
export function newStudentIdentity(world: World): StudentIdentity {
  const { faker, random } = world.context;
  let id = "";
  do id = `S${random.int(100000, 199999)}`;
  while (world.usedStudentIds.has(id));
  world.usedStudentIds.add(id);
  const firstName = faker.person.firstName();
  const lastName = faker.person.lastName();
  const base = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, "");
  let email = `${base}@grad.northbridge.edu`;
  for (let suffix = 2; world.usedEmails.has(email); suffix += 1)
    email = `${base}${suffix}@grad.northbridge.edu`;
  world.usedEmails.add(email);
  const phone = `(${random.int(201, 989)}) ${random.int(200, 999)}-${String(random.int(0, 9999)).padStart(4, "0")}`;
  const dateOfBirth = addDays(world.context.referenceDate, -random.int(22 * 365, 48 * 365));
  return {
    id,
    firstName,
    lastName,
    email,
    phone,
    dateOfBirth,
    citizenship: weightedPick(world, CITIZENSHIPS),
  };
}

export function pickAdvisor(world: World, department: string): number {
  const candidates = world.instructors.filter(
    (instructor) => instructor.department === department && instructor.rank !== "Adjunct Instructor",
  );
  return world.context.random.pick(candidates.length > 0 ? candidates : world.instructors).id;
}

/** Course-terms taught by a demanding instructor: grades there run about a letter lower. */
function hardness(
  world: World,
  hardCourseTerms: Map<string, number>,
  termIndex: number,
  courseCode: string,
): number {
  const key = `${termIndex}|${courseCode}`;
  let value = hardCourseTerms.get(key);
  if (value === undefined) {
    value = world.context.random.chance(0.08) ? -1.2 : normal(world, 0, 0.12);
    hardCourseTerms.set(key, value);
  }
  return value;
}

function createTransfers(world: World, student: StudentRecord): void {
  const { random } = world.context;
  const chance = catalogProgram(student.programCode).degree === "Certificate" ? 0.06 : 0.13;
  if (!random.chance(chance)) return;
  const count = random.chance(0.2) ? 2 : 1;
  for (let index = 0; index < count; index += 1) {
    const status = random.chance(0.62) ? "approved" : random.chance(0.7) ? "pending" : "denied";
    const admitTerm = world.terms[student.admitIndex];
    world.transfers.push({
      requestId: "",
      studentId: student.id,
      studentName: fullName(student),
      institution: random.pick(INSTITUTIONS),
      courseTitle: random.pick(catalogCourseTitlesFor(student.programCode)),
      credits: random.chance(0.8) ? 3 : 6,
      status,
      decidedOn:
        status === "pending" ? "" : addDays(admitTerm?.startDate ?? "2024-01-01", random.int(-40, 60)),
    });
  }
}

function catalogCourseTitlesFor(programCode: string): string[] {
  const program = catalogProgram(programCode);
  return [...program.core, ...program.electives].map((code) => `Graduate ${catalogCourse(code).title}`);
}

/** Chooses the courses of one term: unmet core first, then electives, honouring offerings and prerequisites. */
function chooseCourses(
  world: World,
  student: StudentRecord,
  program: CatalogProgram,
  termIndex: number,
): string[] {
  const { random } = world.context;
  const requirement = requirementFor(world, program.code);
  const attempts = attemptsOf(world, student);
  const term = world.terms[termIndex]?.code ?? "";
  const load =
    student.attendance === "full_time" ? (random.chance(0.12) ? 4 : 3) : random.chance(0.5) ? 2 : 1;
  const creditDone = (code: string): boolean =>
    meetsMinimumGrade(latestGrade(attempts, code), world.handbook.creditMinimumGrade);
  const ordered: string[] = [];
  if (termIndex === student.admitIndex && program.bridge && random.chance(0.35)) ordered.push(program.bridge);
  for (const code of program.core)
    if (!meetsMinimumGrade(latestGrade(attempts, code), requirement.coreMinimumGrade)) ordered.push(code);
  ordered.push(...random.shuffle(program.electives.filter((code) => !creditDone(code))));
  const ownPrefix = program.core[0]?.split(" ")[0] ?? "";
  const fallback = ALL_COURSES.filter(
    (course) =>
      courseLevel(course.code) >= 500 &&
      course.gradingBasis === "letter" &&
      !ordered.includes(course.code) &&
      !creditDone(course.code),
  ).map((course) => course.code);
  // Stable sort after a shuffle: the program's own department first, in random order.
  ordered.push(
    ...random
      .shuffle(fallback)
      .sort((left, right) => Number(right.startsWith(ownPrefix)) - Number(left.startsWith(ownPrefix))),
  );
  const chosen: string[] = [];
  for (const code of ordered) {
    if (chosen.length >= load) break;
    if (chosen.includes(code) || !offeredIn(world, code, termIndex)) continue;
    const prerequisites = catalogCourse(code).prerequisites;
    const ready = prerequisites.every((prerequisite) =>
      prerequisiteSatisfied(attempts, prerequisite, term, world.regulations.prerequisiteMinimumGrade),
    );
    // A few students register without the prerequisite; the add/drop check exists for them.
    if (!ready && !random.chance(0.05)) continue;
    chosen.push(code);
  }
  return chosen;
}

function gradeEnrollment(
  world: World,
  student: StudentRecord,
  enrollment: EnrollmentRecord,
  hardCourseTerms: Map<string, number>,
): void {
  const { random } = world.context;
  if (enrollment.termIndex === world.currentIndex) {
    enrollment.status = random.chance(0.02) ? "dropped" : "enrolled";
    return;
  }
  const roll = random.next();
  if (roll < 0.02) {
    enrollment.status = "dropped";
    return;
  }
  if (roll < 0.05) {
    enrollment.status = "withdrawn";
    enrollment.grade = "W";
    return;
  }
  enrollment.status = "completed";
  // Incompletes of older terms have long been resolved; only the last graded term still shows some.
  if (enrollment.termIndex === world.currentIndex - 1 && roll < 0.075) {
    enrollment.grade = "I";
    return;
  }
  if (catalogCourse(enrollment.courseCode).gradingBasis === "pass_fail") {
    enrollment.grade = random.chance(0.95) ? "P" : "NP";
    return;
  }
  const score =
    student.ability +
    hardness(world, hardCourseTerms, enrollment.termIndex, enrollment.courseCode) +
    normal(world, 0, 0.5);
  enrollment.grade = letterForScore(score);
}

function meetsRequirementsNow(world: World, student: StudentRecord): boolean {
  return meetsGraduationRequirements({
    attempts: attemptsOf(world, student),
    requirement: requirementFor(world, student.programCode),
    handbook: world.handbook,
    approvedTransferCredits: approvedTransferCredits(world, student.id),
  });
}

/** Simulates `count` ordinary students from admission to the term in progress. */
export function simulatePopulation(world: World, count: number): void {
  const { random } = world.context;
  const hardCourseTerms = new Map<string, number>();
  const programChoices = PROGRAMS.map((program): [CatalogProgram, number] => [
    program,
    PROGRAM_WEIGHTS[program.code] ?? 5,
  ]);
  // Admitted in one of the first five terms (by index), most in the middle ones.
  const admitChoices = [20, 22, 22, 20, 16].map((weight, termIndex): [number, number] => [termIndex, weight]);
  for (let index = 0; index < count; index += 1) {
    const program = weightedPick(world, programChoices);
    const identity = newStudentIdentity(world);
    const student: StudentRecord = {
      ...identity,
      programCode: program.code,
      admitIndex: weightedPick(world, admitChoices),
      attendance: random.chance(0.72) ? "full_time" : "part_time",
      enrollmentStatus: "active",
      standing: "good",
      advisorId: pickAdvisor(world, program.department),
      ability: Math.min(4.1, Math.max(1.7, normal(world, 3.4, 0.42))),
      plantedAs: null,
      enrollments: [],
      statusChangedAfter: null,
    };
    world.students.push(student);
    createTransfers(world, student);
    const fate = random.next();
    const withdrawAfter = fate < 0.04 ? random.int(student.admitIndex, world.currentIndex - 1) : null;
    const takesLeave = fate >= 0.04 && fate < 0.08;
    for (let termIndex = student.admitIndex; termIndex <= world.currentIndex; termIndex += 1) {
      if (withdrawAfter !== null && termIndex > withdrawAfter) {
        student.enrollmentStatus = "withdrawn";
        student.statusChangedAfter = withdrawAfter;
        break;
      }
      if (termIndex === world.currentIndex && takesLeave) {
        student.enrollmentStatus = "leave_of_absence";
        student.statusChangedAfter = termIndex - 1;
        break;
      }
      if (termIndex > student.admitIndex && meetsRequirementsNow(world, student)) {
        // Students who finished before the last graded term have mostly had their degree conferred;
        // those who finished in it are waiting for the graduation audit.
        if (termIndex < world.currentIndex && random.chance(0.8)) {
          student.enrollmentStatus = "graduated";
          student.statusChangedAfter = termIndex - 1;
        }
        break;
      }
      for (const courseCode of chooseCourses(world, student, program, termIndex)) {
        const enrollment = newEnrollment(world, student.id, termIndex, courseCode, null, false);
        gradeEnrollment(world, student, enrollment, hardCourseTerms);
        student.enrollments.push(enrollment);
      }
    }
  }
}
