/** Fills the registrar database and writes the workspace for one seed and scale. */
import { addDays, insertDrafts, type GenerateContext } from "../../envs/index.js";
import { ALL_COURSES, DEPARTMENTS, PROGRAMS } from "./catalog.js";
import type { Handbook, Regulations } from "./documents.js";
import { planGradeChangeMemos } from "./memos.js";
import {
  courseLevel,
  logAction,
  logStandingChange,
  type EnrollmentRecord,
  type InstructorRecord,
  type StudentRecord,
  type World,
} from "./model.js";
import { simulatePopulation } from "./population.js";
import { plantScenarios } from "./scenarios.js";
import {
  buildSections,
  decideCurrentExemptions,
  decideWaivers,
  guardRoundingEdges,
  reviewStandingHistory,
  suspendWeakStudents,
  tuneSections,
} from "./sections.js";
import { LETTER_GRADES, isLetterGrade } from "./rules.js";
import { termsForReferenceDate } from "./terms.js";
import { writeWorkspace } from "./workspace-files.js";

/** Ordinary (unplanted) students at v0; the scale multiplies it. */
const BASE_STUDENT_COUNT = 60;

function pickRegulations(context: GenerateContext): Regulations {
  const { random } = context;
  return {
    probationThresholdHundredths: 300,
    probationMinimumCredits: random.pick([6, 9]),
    gradeChangeWindowDays: random.pick([90, 120]),
    prerequisiteMinimumGrade: random.pick(["B-", "C+"]),
    sectionPassMinimumGrade: "C",
    sectionReviewThresholdPercent: random.pick([70, 75]),
    sectionReviewMinimumGraded: 5,
  };
}

function pickHandbook(context: GenerateContext): Handbook {
  const { random } = context;
  const coreMinimumGrade = random.pick(["B-", "B"]);
  return {
    creditMinimumGrade: "C",
    degreeCreditMinimumLevel: 500,
    programs: PROGRAMS.map((program) => ({
      code: program.code,
      name: program.name,
      minimumCredits: random.pick(program.creditOptions),
      core: program.core,
      coreMinimumGrade,
      maxTransferCredits: program.maxTransferCredits,
      minimumGpaHundredths: 300,
    })),
  };
}

const RANKS: Array<InstructorRecord["rank"]> = [
  "Professor",
  "Associate Professor",
  "Assistant Professor",
  "Lecturer",
  "Adjunct Instructor",
];

function createInstructors(world: World): void {
  const { faker, random, factors, referenceDate } = world.context;
  const usedEmails = new Set<string>();
  let id = 101;
  for (const department of DEPARTMENTS) {
    const count = 3 + 2 * factors.rows;
    for (let index = 0; index < count; index += 1) {
      const firstName = faker.person.firstName();
      const lastName = faker.person.lastName();
      const base = `${firstName[0] ?? "x"}${lastName}`.toLowerCase().replace(/[^a-z]/g, "");
      let email = `${base}@northbridge.edu`;
      for (let suffix = 2; usedEmails.has(email); suffix += 1) email = `${base}${suffix}@northbridge.edu`;
      usedEmails.add(email);
      world.instructors.push({
        id,
        firstName,
        lastName,
        email,
        department: department.name,
        // The first of each department is a full professor: the chair signs memos and waivers.
        rank: index === 0 ? "Professor" : random.pick(RANKS),
        office: `${department.building} ${random.int(1, 4)}${random.int(10, 60)}`,
        hireDate: addDays(referenceDate, -random.int(200, 9000)),
      });
      id += 1;
    }
  }
}

function statusChangeReason(state: StudentRecord["enrollmentStatus"], termName: string): string {
  if (state === "graduated") return `Degree conferred at the end of ${termName}`;
  if (state === "withdrawn") return `Withdrew from the program after ${termName}`;
  return `Approved leave of absence starting after ${termName}`;
}

function recordStatusChanges(world: World): void {
  for (const student of world.students) {
    if (student.enrollmentStatus === "active" || student.statusChangedAfter === null) continue;
    const termName = world.terms[student.statusChangedAfter]?.name ?? "the term";
    logAction(world, {
      actionType: "status_change",
      studentId: student.id,
      oldValue: "active",
      newValue: student.enrollmentStatus,
      reason: statusChangeReason(student.enrollmentStatus, termName),
    });
  }
  for (const student of world.students) {
    if (student.plantedAs === null || student.standing !== "probation") continue;
    const termName = world.terms[student.admitIndex + 1]?.name ?? "Earlier";
    logStandingChange(world, student.id, "good", "probation", `${termName} standing review`);
  }
}

/** Drops, withdrawals and grade changes of earlier terms, so that the audit log looks lived-in. */
function recordPastGradeChanges(world: World): void {
  const { random } = world.context;
  for (const student of world.students) {
    for (const enrollment of student.enrollments) {
      if (enrollment.status === "dropped" || enrollment.status === "withdrawn") {
        const dropped = enrollment.status === "dropped";
        logAction(world, {
          actionType: "enrollment_drop",
          studentId: student.id,
          enrollment,
          oldValue: "enrolled",
          newValue: enrollment.status,
          reason: dropped
            ? "Dropped by the student in self-service before the add/drop deadline"
            : "Course withdrawal form processed; W recorded",
          recordedBy: dropped ? "self-service" : random.pick(world.staff),
        });
        continue;
      }
      if (
        enrollment.termIndex >= world.currentIndex - 1 ||
        !isLetterGrade(enrollment.grade) ||
        !random.chance(0.03)
      )
        continue;
      const position = LETTER_GRADES.indexOf(enrollment.grade);
      const before = LETTER_GRADES[Math.min(LETTER_GRADES.length - 1, position + 1)] ?? "F";
      if (before === enrollment.grade) continue;
      logAction(world, {
        actionType: "grade_change",
        studentId: student.id,
        enrollment,
        oldValue: before,
        newValue: enrollment.grade,
        reason: `Grade change request GC-${random.int(1000, 9899)} approved by the department chair`,
      });
    }
  }
}

/** Grades are posted by the grades-due date; withdrawals are recorded during the term. */
function gradePostedOn(world: World, enrollment: EnrollmentRecord): string | null {
  const term = world.terms[enrollment.termIndex];
  if (!term || enrollment.grade === null) return null;
  const { random } = world.context;
  if (enrollment.grade === "W") return addDays(term.startDate, random.int(20, 90));
  return addDays(term.gradesDueDate, -random.int(0, 6));
}

/** Instructors, programs, courses and prerequisites; returns the ids of programs and courses by code. */
function insertCatalog(world: World): { programIds: Map<string, number>; courseIds: Map<string, number> } {
  const { db } = world.context;
  insertDrafts(
    db,
    "instructors",
    "instructor_id, first_name, last_name, email, department, rank, office, hire_date",
    world.instructors,
    (item) => ({ instructor_id: item.id }),
  );
  const programIds = new Map(PROGRAMS.map((program, index) => [program.code, index + 1]));
  insertDrafts(
    db,
    "programs",
    "program_id, code, name, department, degree, director_id",
    PROGRAMS,
    (program) => ({
      program_id: programIds.get(program.code),
      director_id:
        world.instructors.find((item) => item.department === program.department && item.rank === "Professor")
          ?.id ?? null,
    }),
  );
  const courses = DEPARTMENTS.flatMap((department) =>
    department.courses.map((course) => ({ ...course, department: department.name })),
  );
  const courseIds = new Map(courses.map((course, index) => [course.code, index + 1]));
  insertDrafts(
    db,
    "courses",
    "course_id, code, title, department, level, credits, grading_basis, typically_offered",
    courses,
    (course) => ({
      course_id: courseIds.get(course.code),
      level: courseLevel(course.code),
      typically_offered: course.offered,
    }),
  );
  const prerequisites = ALL_COURSES.flatMap((course) =>
    course.prerequisites.map((prerequisite) => ({
      courseId: courseIds.get(course.code),
      prerequisiteCourseId: courseIds.get(prerequisite),
    })),
  );
  insertDrafts(db, "course_prerequisites", "course_id, prerequisite_course_id", prerequisites);
  return { programIds, courseIds };
}

function insertAll(world: World): void {
  const { db } = world.context;
  const { programIds, courseIds } = insertCatalog(world);
  const termCode = (termIndex: number): string => world.terms[termIndex]?.code ?? "";
  insertDrafts(
    db,
    "students",
    `student_id, first_name, last_name, email, phone, date_of_birth, citizenship, program_id, admit_term,
     attendance, enrollment_status, academic_standing, advisor_id`,
    [...world.students].sort((left, right) => left.id.localeCompare(right.id)),
    (student) => ({
      student_id: student.id,
      program_id: programIds.get(student.programCode),
      admit_term: termCode(student.admitIndex),
      academic_standing: student.standing,
    }),
  );
  const sections = world.sections
    .filter((section) => section.enrollments.length > 0)
    .sort(
      (left, right) =>
        left.termIndex - right.termIndex ||
        left.courseCode.localeCompare(right.courseCode) ||
        left.sectionNumber.localeCompare(right.sectionNumber),
    );
  sections.forEach((section, index) => (section.id = 1001 + index));
  insertDrafts(
    db,
    "sections",
    "section_id, course_id, term, section_number, instructor_id, capacity, room, meeting_pattern, modality",
    sections,
    (section) => ({
      section_id: section.id,
      course_id: courseIds.get(section.courseCode),
      term: termCode(section.termIndex),
    }),
  );
  const enrollments: EnrollmentRecord[] = world.students.flatMap((student) => student.enrollments);
  const ordered = world.context.random
    .shuffle(enrollments)
    .sort(
      (left, right) => left.termIndex - right.termIndex || left.enrolledOn.localeCompare(right.enrolledOn),
    );
  ordered.forEach((enrollment, index) => (enrollment.enrollmentId = 50001 + index));
  insertDrafts(
    db,
    "enrollments",
    "enrollment_id, student_id, section_id, status, grade, enrolled_on, grade_posted_on",
    ordered,
    (enrollment) => ({
      section_id: enrollment.section?.id ?? null,
      grade_posted_on: gradePostedOn(world, enrollment),
    }),
  );
  insertDrafts(
    db,
    "registrar_actions",
    "action_id, action_type, student_id, enrollment_id, old_value, new_value, reason, recorded_by",
    world.actions.map((action, index) => ({ ...action, actionId: index + 1 })),
    (action) => ({ enrollment_id: action.enrollment?.enrollmentId ?? null }),
  );
}

export function generateUniversity(context: GenerateContext): void {
  const { completed, current } = termsForReferenceDate(context.referenceDate);
  const world: World = {
    context,
    terms: [...completed, current],
    currentIndex: completed.length,
    regulations: pickRegulations(context),
    handbook: pickHandbook(context),
    instructors: [],
    students: [],
    sections: [],
    transfers: [],
    actions: [],
    exemptions: [],
    waivers: [],
    staff: Array.from(
      { length: 4 },
      () => `${context.faker.person.firstName()} ${context.faker.person.lastName()}`,
    ),
    usedStudentIds: new Set(),
    usedEmails: new Set(),
  };
  createInstructors(world);
  simulatePopulation(world, BASE_STUDENT_COUNT * context.factors.rows);
  // Every scale repeats the planted cases once per row factor, so answers grow with the data.
  for (let copy = 0; copy < context.factors.rows; copy += 1) plantScenarios(world);
  suspendWeakStudents(world, context.factors.rows);
  buildSections(world);
  tuneSections(world);
  guardRoundingEdges(world);
  reviewStandingHistory(world);
  decideCurrentExemptions(world);
  decideWaivers(world);
  world.transfers.sort((left, right) => left.studentId.localeCompare(right.studentId));
  world.transfers.forEach((row, index) => {
    row.requestId = `TC-${String(301 + index).padStart(4, "0")}`;
  });
  recordStatusChanges(world);
  recordPastGradeChanges(world);
  insertAll(world);
  const memos = planGradeChangeMemos(world, 4 * context.factors.files);
  writeWorkspace(world, memos);
}
