/** Fills the registrar database and writes the workspace for one seed and scale. */
import { addDays, insertRow, type GenerateContext } from "../../envs/index.js";
import { ALL_COURSES, DEPARTMENTS, PROGRAMS } from "./catalog.js";
import type { Handbook, Regulations } from "./documents.js";
import { planGradeChangeMemos } from "./memos.js";
import { courseLevel, type EnrollmentRecord, type InstructorRecord, type World } from "./model.js";
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

function recordStatusChanges(world: World): void {
  const { random } = world.context;
  for (const student of world.students) {
    if (student.enrollmentStatus === "active" || student.statusChangedAfter === null) continue;
    const term = world.terms[student.statusChangedAfter];
    const reason =
      student.enrollmentStatus === "graduated"
        ? `Degree conferred at the end of ${term?.name ?? "the term"}`
        : student.enrollmentStatus === "withdrawn"
          ? `Withdrew from the program after ${term?.name ?? "the term"}`
          : `Approved leave of absence starting after ${term?.name ?? "the term"}`;
    world.actions.push({
      actionType: "status_change",
      studentId: student.id,
      enrollment: null,
      oldValue: "active",
      newValue: student.enrollmentStatus,
      reason,
      recordedBy: random.pick(world.staff),
    });
  }
  for (const student of world.students) {
    if (student.plantedAs === null || student.standing !== "probation") continue;
    world.actions.push({
      actionType: "standing_change",
      studentId: student.id,
      enrollment: null,
      oldValue: "good",
      newValue: "probation",
      reason: `${world.terms[student.admitIndex + 1]?.name ?? "Earlier"} standing review`,
      recordedBy: random.pick(world.staff),
    });
  }
}

/** Drops, withdrawals and grade changes of earlier terms, so that the audit log looks lived-in. */
function recordPastGradeChanges(world: World): void {
  const { random } = world.context;
  for (const student of world.students) {
    for (const enrollment of student.enrollments) {
      if (enrollment.status === "dropped" || enrollment.status === "withdrawn") {
        const dropped = enrollment.status === "dropped";
        world.actions.push({
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
      world.actions.push({
        actionType: "grade_change",
        studentId: student.id,
        enrollment,
        oldValue: before,
        newValue: enrollment.grade,
        reason: `Grade change request GC-${random.int(1000, 9899)} approved by the department chair`,
        recordedBy: random.pick(world.staff),
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
  for (const item of world.instructors)
    insertRow(db, "instructors", {
      instructor_id: item.id,
      first_name: item.firstName,
      last_name: item.lastName,
      email: item.email,
      department: item.department,
      rank: item.rank,
      office: item.office,
      hire_date: item.hireDate,
    });
  const programIds = new Map<string, number>();
  PROGRAMS.forEach((program, index) => {
    const director = world.instructors.find(
      (item) => item.department === program.department && item.rank === "Professor",
    );
    const { code, name, department, degree } = program;
    insertRow(db, "programs", {
      program_id: index + 1,
      code,
      name,
      department,
      degree,
      director_id: director?.id ?? null,
    });
    programIds.set(program.code, index + 1);
  });
  const courseIds = new Map<string, number>();
  for (const department of DEPARTMENTS) {
    for (const course of department.courses) {
      const id = courseIds.size + 1;
      courseIds.set(course.code, id);
      insertRow(db, "courses", {
        course_id: id,
        code: course.code,
        title: course.title,
        department: department.name,
        level: courseLevel(course.code),
        credits: course.credits,
        grading_basis: course.gradingBasis,
        typically_offered: course.offered,
      });
    }
  }
  for (const course of ALL_COURSES)
    for (const prerequisite of course.prerequisites)
      insertRow(db, "course_prerequisites", {
        course_id: courseIds.get(course.code),
        prerequisite_course_id: courseIds.get(prerequisite),
      });
  return { programIds, courseIds };
}

function insertAll(world: World): void {
  const { db } = world.context;
  const { programIds, courseIds } = insertCatalog(world);
  for (const student of [...world.students].sort((left, right) => left.id.localeCompare(right.id))) {
    insertRow(db, "students", {
      student_id: student.id,
      first_name: student.firstName,
      last_name: student.lastName,
      email: student.email,
      phone: student.phone,
      date_of_birth: student.dateOfBirth,
      citizenship: student.citizenship,
      program_id: programIds.get(student.programCode),
      admit_term: world.terms[student.admitIndex]?.code ?? "",
      attendance: student.attendance,
      enrollment_status: student.enrollmentStatus,
      academic_standing: student.standing,
      advisor_id: student.advisorId,
    });
  }
  const sections = world.sections
    .filter((section) => section.enrollments.length > 0)
    .sort(
      (left, right) =>
        left.termIndex - right.termIndex ||
        left.courseCode.localeCompare(right.courseCode) ||
        left.sectionNumber.localeCompare(right.sectionNumber),
    );
  sections.forEach((section, index) => {
    section.id = 1001 + index;
    insertRow(db, "sections", {
      section_id: section.id,
      course_id: courseIds.get(section.courseCode),
      term: world.terms[section.termIndex]?.code ?? "",
      section_number: section.sectionNumber,
      instructor_id: section.instructorId,
      capacity: section.capacity,
      room: section.room,
      meeting_pattern: section.meetingPattern,
      modality: section.modality,
    });
  });
  const enrollments: EnrollmentRecord[] = world.students.flatMap((student) => student.enrollments);
  const ordered = world.context.random
    .shuffle(enrollments)
    .sort(
      (left, right) => left.termIndex - right.termIndex || left.enrolledOn.localeCompare(right.enrolledOn),
    );
  ordered.forEach((enrollment, index) => {
    enrollment.enrollmentId = 50001 + index;
    insertRow(db, "enrollments", {
      enrollment_id: enrollment.enrollmentId,
      student_id: enrollment.studentId,
      section_id: enrollment.section?.id ?? null,
      status: enrollment.status,
      grade: enrollment.grade,
      enrolled_on: enrollment.enrolledOn,
      grade_posted_on: gradePostedOn(world, enrollment),
    });
  });
}

function insertActions(world: World): void {
  world.actions.forEach((action, index) => {
    insertRow(world.context.db, "registrar_actions", {
      action_id: index + 1,
      action_type: action.actionType,
      student_id: action.studentId,
      enrollment_id: action.enrollment?.enrollmentId ?? null,
      old_value: action.oldValue,
      new_value: action.newValue,
      reason: action.reason,
      recorded_by: action.recordedBy,
    });
  });
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
  insertActions(world);
  const memos = planGradeChangeMemos(world, 4 * context.factors.files);
  writeWorkspace(world, memos);
}
