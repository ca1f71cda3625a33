/** The generator's in-memory world, built before anything is written to the database or workspace. */
import { addDays, weightedPick as kitWeightedPick, type GenerateContext } from "../../envs/index.js";
import { PROGRAMS, catalogCourse, type CatalogProgram } from "./catalog.js";
import type { Handbook, ProgramRequirement, Regulations, TransferCredit } from "./documents.js";
import type { Attempt } from "./rules.js";
import type { Term } from "./terms.js";

export interface InstructorRecord {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  department: string;
  rank: string;
  office: string;
  hireDate: string;
}

export type EnrollmentStatus = "enrolled" | "completed" | "withdrawn" | "dropped";

export interface EnrollmentRecord {
  studentId: string;
  /** Index into `World.terms` (0 = oldest graded term, last = the term in progress). */
  termIndex: number;
  courseCode: string;
  status: EnrollmentStatus;
  grade: string | null;
  enrolledOn: string;
  /** Planted records keep their grades when sections are tuned. */
  locked: boolean;
  section: SectionRecord | null;
  enrollmentId: number;
}

export interface SectionRecord {
  id: number;
  termIndex: number;
  courseCode: string;
  sectionNumber: string;
  instructorId: number;
  capacity: number;
  room: string;
  meetingPattern: string;
  modality: "in_person" | "online" | "hybrid";
  enrollments: EnrollmentRecord[];
  /** Sections whose grades were shaped for the outcome review keep them afterwards. */
  tuned: boolean;
}

export type EnrollmentState = "active" | "leave_of_absence" | "withdrawn" | "graduated";
export type Standing = "good" | "probation" | "suspended";

/** Who a student is: the S-number, name and contact details. */
export interface StudentIdentity {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  dateOfBirth: string;
  citizenship: string;
}

export interface StudentRecord extends StudentIdentity {
  programCode: string;
  admitIndex: number;
  attendance: "full_time" | "part_time";
  enrollmentStatus: EnrollmentState;
  standing: Standing;
  advisorId: number;
  ability: number;
  /** Why this student was planted (null for the ordinary population). */
  plantedAs: string | null;
  enrollments: EnrollmentRecord[];
  /** The term index after which the student graduated, withdrew or went on leave. */
  statusChangedAfter: number | null;
}

export interface RegistrarActionRecord {
  actionType: "grade_change" | "standing_change" | "enrollment_drop" | "status_change";
  studentId: string;
  enrollment: EnrollmentRecord | null;
  oldValue: string | null;
  newValue: string | null;
  reason: string;
  recordedBy: string;
}

export interface ExemptionRecord {
  studentId: string;
  termIndex: number;
  decision: "APPROVED" | "DENIED";
  reason: string;
}

export interface WaiverRecord {
  studentId: string;
  termIndex: number;
  courseCode: string;
  prerequisiteCode: string;
  decision: "APPROVED" | "DENIED";
}

export interface World {
  context: GenerateContext;
  /** Graded terms oldest first, then the term in progress (always the last entry). */
  terms: Term[];
  currentIndex: number;
  regulations: Regulations;
  handbook: Handbook;
  instructors: InstructorRecord[];
  students: StudentRecord[];
  sections: SectionRecord[];
  transfers: TransferCredit[];
  actions: RegistrarActionRecord[];
  exemptions: ExemptionRecord[];
  waivers: WaiverRecord[];
  staff: string[];
  usedStudentIds: Set<string>;
  usedEmails: Set<string>;
}

export function requirementFor(world: World, programCode: string): ProgramRequirement {
  const found = world.handbook.programs.find((program) => program.code === programCode);
  if (!found) throw new Error(`no handbook requirement for program '${programCode}'`);
  return found;
}

export function courseLevel(courseCode: string): number {
  return Number(courseCode.split(" ")[1]);
}

/** The records of one student as the rule functions read them, optionally only up to a term. */
export function attemptsOf(world: World, student: StudentRecord, throughTermIndex = Infinity): Attempt[] {
  return student.enrollments
    .filter((enrollment) => enrollment.termIndex <= throughTermIndex)
    .map((enrollment) => ({
      enrollmentId: enrollment.enrollmentId,
      studentId: student.id,
      sectionId: enrollment.section?.id ?? 0,
      term: world.terms[enrollment.termIndex]?.code ?? "",
      courseCode: enrollment.courseCode,
      courseLevel: courseLevel(enrollment.courseCode),
      credits: catalogCourse(enrollment.courseCode).credits,
      status: enrollment.status,
      grade: enrollment.grade,
    }));
}

/** Whether the catalog offers the course in the season of the term. */
export function offeredIn(world: World, courseCode: string, termIndex: number): boolean {
  const offered = catalogCourse(courseCode).offered;
  return offered === "both" || offered === world.terms[termIndex]?.season;
}

export function approvedTransferCredits(world: World, studentId: string): number {
  return world.transfers
    .filter((row) => row.studentId === studentId && row.status === "approved")
    .reduce((sum, row) => sum + row.credits, 0);
}

export function fullName(student: { firstName: string; lastName: string }): string {
  return `${student.firstName} ${student.lastName}`;
}

/** The student's full name, or the id for a student the world does not know. */
export function studentName(world: World, studentId: string): string {
  const student = world.students.find((item) => item.id === studentId);
  return student ? fullName(student) : studentId;
}

/** A normally distributed value from the seeded stream (Box-Muller). */
export function normal(world: World, mean: number, deviation: number): number {
  const first = Math.max(world.context.random.next(), 1e-9);
  const second = world.context.random.next();
  return mean + deviation * Math.sqrt(-2 * Math.log(first)) * Math.cos(2 * Math.PI * second);
}

/** An item of `[item, weight]` pairs drawn with probability proportional to its weight. */
export function weightedPick<T>(world: World, items: Array<[T, number]>): T {
  return kitWeightedPick(
    world.context.random,
    items.map(([item]) => item),
    items.map(([, weight]) => weight),
  );
}

export function catalogProgram(programCode: string): CatalogProgram {
  const found = PROGRAMS.find((program) => program.code === programCode);
  if (!found) throw new Error(`unknown program '${programCode}'`);
  return found;
}

export function enrolledOnFor(world: World, termIndex: number): string {
  const term = world.terms[termIndex];
  if (!term) throw new Error(`no term at index ${termIndex}`);
  return addDays(term.startDate, -world.context.random.int(3, 80));
}

/** A registration whose status follows its grade (none: enrolled, W: withdrawn, else completed). */
export function newEnrollment(
  world: World,
  studentId: string,
  termIndex: number,
  courseCode: string,
  grade: string | null,
  locked: boolean,
): EnrollmentRecord {
  return {
    studentId,
    termIndex,
    courseCode,
    status: grade === null ? "enrolled" : grade === "W" ? "withdrawn" : "completed",
    grade,
    enrolledOn: enrolledOnFor(world, termIndex),
    locked,
    section: null,
    enrollmentId: 0,
  };
}

type ActionDraft = Omit<RegistrarActionRecord, "enrollment" | "recordedBy"> &
  Partial<Pick<RegistrarActionRecord, "enrollment" | "recordedBy">>;

/** Adds an audit log entry; a staff member records it unless `recordedBy` says who did. */
export function logAction(world: World, action: ActionDraft): void {
  world.actions.push({
    enrollment: null,
    ...action,
    recordedBy: action.recordedBy ?? world.context.random.pick(world.staff),
  });
}

export function logStandingChange(
  world: World,
  studentId: string,
  oldValue: Standing,
  newValue: Standing,
  reason: string,
): void {
  logAction(world, { actionType: "standing_change", studentId, oldValue, newValue, reason });
}
