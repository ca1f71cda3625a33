/**
 * The academic rules as the verifiers apply them. Their parameters come from the workspace documents
 * (parsed in documents.ts), never from the database; the grade arithmetic is exact (hundredths as
 * integers) so that a GPA of exactly 3.00 is 3.00 whatever order the credits are summed in.
 */
import type { Handbook, ProgramRequirement } from "./documents.js";

/** Grade points in hundredths, as printed in the academic regulations. */
export const GRADE_POINTS_HUNDREDTHS: Record<string, number> = {
  A: 400,
  "A-": 367,
  "B+": 333,
  B: 300,
  "B-": 267,
  "C+": 233,
  C: 200,
  "C-": 167,
  D: 100,
  F: 0,
};

/** Letter grades from best to worst; the order used for "X or better" comparisons. */
export const LETTER_GRADES = Object.keys(GRADE_POINTS_HUNDREDTHS);

export function isLetterGrade(grade: string | null): grade is string {
  return grade !== null && grade in GRADE_POINTS_HUNDREDTHS;
}

/** True when `grade` is the letter `minimum` or better; P counts as meeting any letter minimum. */
export function meetsMinimumGrade(grade: string | null, minimum: string): boolean {
  if (grade === "P") return true;
  if (!isLetterGrade(grade)) return false;
  return (GRADE_POINTS_HUNDREDTHS[grade] ?? -1) >= (GRADE_POINTS_HUNDREDTHS[minimum] ?? 1000);
}

/** One row of a student's record, as the verifiers read it from the database. */
export interface Attempt {
  enrollmentId: number;
  studentId: string;
  sectionId: number;
  term: string;
  courseCode: string;
  courseLevel: number;
  credits: number;
  status: string;
  grade: string | null;
}

/** The latest completed attempt per course whose grade passes `keep`, keyed by course code. */
function latestAttempts(attempts: Attempt[], keep: (attempt: Attempt) => boolean): Map<string, Attempt> {
  const latest = new Map<string, Attempt>();
  for (const attempt of attempts) {
    if (attempt.status !== "completed" || !keep(attempt)) continue;
    const previous = latest.get(attempt.courseCode);
    if (!previous || attempt.term > previous.term) latest.set(attempt.courseCode, attempt);
  }
  return latest;
}

export interface GpaResult {
  qualityHundredths: number;
  credits: number;
  /** GPA rounded half-up to two decimals, in hundredths (300 = 3.00); null without GPA credits. */
  roundedHundredths: number | null;
}

/** Cumulative GPA: letter grades only, and only the most recent letter-graded attempt of a repeated course. */
export function cumulativeGpa(attempts: Attempt[]): GpaResult {
  let quality = 0;
  let credits = 0;
  for (const attempt of latestAttempts(attempts, (item) => isLetterGrade(item.grade)).values()) {
    quality += (GRADE_POINTS_HUNDREDTHS[attempt.grade ?? ""] ?? 0) * attempt.credits;
    credits += attempt.credits;
  }
  const rounded = credits === 0 ? null : Math.floor((2 * quality + credits) / (2 * credits));
  return { qualityHundredths: quality, credits, roundedHundredths: rounded };
}

/** Any grade but I and W ends an attempt. */
function hasFinalGrade(attempt: Attempt): boolean {
  return attempt.grade !== null && attempt.grade !== "I" && attempt.grade !== "W";
}

/** Degree credits: each course at or above `minimumLevel` once, when its latest graded attempt earns credit. */
export function earnedDegreeCredits(
  attempts: Attempt[],
  creditMinimumGrade: string,
  minimumLevel: number,
): number {
  let credits = 0;
  for (const attempt of latestAttempts(attempts, hasFinalGrade).values()) {
    if (attempt.courseLevel < minimumLevel) continue;
    if (meetsMinimumGrade(attempt.grade, creditMinimumGrade)) credits += attempt.credits;
  }
  return credits;
}

/** The grade of the latest graded attempt of a course, or null when never graded. */
export function latestGrade(attempts: Attempt[], courseCode: string): string | null {
  return latestAttempts(attempts, hasFinalGrade).get(courseCode)?.grade ?? null;
}

export function formatHundredths(value: number): string {
  return (value / 100).toFixed(2);
}

/** What the graduation audit needs to know about one student, beyond the record itself. */
export interface GraduationInputs {
  attempts: Attempt[];
  requirement: ProgramRequirement;
  handbook: Handbook;
  approvedTransferCredits: number;
}

/** True when the record meets every program requirement of the handbook (status is checked by the caller). */
export function meetsGraduationRequirements(inputs: GraduationInputs): boolean {
  const { attempts, requirement, handbook } = inputs;
  if (attempts.some((attempt) => attempt.status === "completed" && attempt.grade === "I")) return false;
  const courseCredits = earnedDegreeCredits(
    attempts,
    handbook.creditMinimumGrade,
    handbook.degreeCreditMinimumLevel,
  );
  const transferCredits = Math.min(inputs.approvedTransferCredits, requirement.maxTransferCredits);
  if (courseCredits + transferCredits < requirement.minimumCredits) return false;
  for (const core of requirement.core) {
    if (!meetsMinimumGrade(latestGrade(attempts, core), requirement.coreMinimumGrade)) return false;
  }
  const gpa = cumulativeGpa(attempts).roundedHundredths;
  return gpa !== null && gpa >= requirement.minimumGpaHundredths;
}

/** True when some completed attempt of `prerequisiteCode` before `term` has the minimum grade. */
export function prerequisiteSatisfied(
  attempts: Attempt[],
  prerequisiteCode: string,
  term: string,
  minimumGrade: string,
): boolean {
  return attempts.some(
    (attempt) =>
      attempt.courseCode === prerequisiteCode &&
      attempt.term < term &&
      attempt.status === "completed" &&
      meetsMinimumGrade(attempt.grade, minimumGrade),
  );
}
