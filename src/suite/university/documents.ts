/**
 * Workspace documents that carry rules: written by the generator and parsed back by the verifiers, so
 * that the documents (not the generator's memory) are the single source of truth for every expectation.
 */
import { draftsToCsv, parseCsv } from "../../envs/index.js";
import { GRADE_POINTS_HUNDREDTHS, formatHundredths } from "./rules.js";
import type { Term } from "./terms.js";

export const SCHOOL_NAME = "Northbridge University School of Graduate Studies";

export const REGULATIONS_PATH = "policies/academic-regulations.md";
export const HANDBOOK_PATH = "handbook/graduate-program-handbook.md";
export const CALENDAR_PATH = "registrar/academic-calendar.md";
export const TRANSFER_REGISTER_PATH = "registrar/transfer-credit-register.csv";
export const MEMO_FOLDER = "memos";
export const WAIVER_FOLDER = "waivers";
export const COMMITTEE_FOLDER = "committee";

export interface Regulations {
  probationThresholdHundredths: number;
  probationMinimumCredits: number;
  gradeChangeWindowDays: number;
  prerequisiteMinimumGrade: string;
  sectionPassMinimumGrade: string;
  sectionReviewThresholdPercent: number;
  sectionReviewMinimumGraded: number;
}

export interface ProgramRequirement {
  code: string;
  name: string;
  minimumCredits: number;
  core: string[];
  coreMinimumGrade: string;
  maxTransferCredits: number;
  minimumGpaHundredths: number;
}

export interface Handbook {
  creditMinimumGrade: string;
  degreeCreditMinimumLevel: number;
  programs: ProgramRequirement[];
}

function formatError(path: string, what: string): Error {
  return new Error(`workspace document '${path}' does not state ${what}`);
}

function required(text: string, pattern: RegExp, path: string, what: string): string {
  const match = text.match(pattern);
  if (!match?.[1]) throw formatError(path, what);
  return match[1];
}

export function writeRegulations(regulations: Regulations, revisionYear: number): string {
  const scale = Object.entries(GRADE_POINTS_HUNDREDTHS)
    .map(([grade, points]) => `| ${grade} | ${formatHundredths(points)} |`)
    .join("\n");
  return `# ${SCHOOL_NAME} — Academic Regulations

Revision of ${revisionYear}. Approved by the Graduate Council. These regulations apply to every graduate
degree and certificate program. Where a program handbook is stricter, the handbook applies.

## 1. Grading scale

| Grade | Grade points |
|---|---|
${scale}

Grades that carry no grade points: P (pass), NP (no pass), I (incomplete), W (withdrawn). Seminars are
graded P/NP. A course dropped before the add/drop deadline does not appear on the transcript.

## 2. Grade point average

2.1 The grade point average (GPA) is the sum of grade points times course credits, divided by the sum
of the credits of the courses that carry a letter grade (A to F). P, NP, I and W grades are left out of
both sums. Transfer credit carries no grade points and is left out of the GPA.

2.2 Repeated courses. When a course is taken more than once, only the most recent attempt that received
a letter grade counts in the cumulative GPA. Earlier attempts remain on the transcript.

2.3 A GPA is rounded half up to two decimal places before it is compared with any threshold in these
regulations or in a program handbook.

## 3. Academic standing

3.1 At the end of each term the Registrar reviews the standing of every student whose enrollment status
is active. Students on leave of absence, withdrawn or graduated are not reviewed.

3.2 A student in good standing whose cumulative GPA is below **${formatHundredths(regulations.probationThresholdHundredths)}** is placed on academic probation, provided the
student has at least **${regulations.probationMinimumCredits}** GPA credits on record. Students with fewer GPA credits are not reviewed
until they reach that number.

3.3 A student on probation whose cumulative GPA is ${formatHundredths(regulations.probationThresholdHundredths)} or higher is returned to good standing.

3.4 A student who has an Incomplete (I) recorded for the term under review is not reviewed for that
term, in either direction; the review takes place once the Incomplete is resolved.

3.5 The Academic Standing Committee may exempt a student from the review of a named term. Exemptions are
recorded in the committee's meeting notes and apply only to the term they name. A denied request has no
effect.

3.6 Suspension and reinstatement are decided by the committee only. The Registrar does not change the
standing of a suspended student.

## 4. Grade changes

4.1 A recorded grade may be changed only through a grade change request approved by the chair of the
department that offers the course. Pending or denied requests must not be processed.

4.2 A request must be submitted within **${regulations.gradeChangeWindowDays}** days after the grades-due date of the term in which the
grade was awarded (see the academic calendar). Later requests are forwarded to the Academic Appeals
Committee and must not be processed by the Registrar, even when the chair approved them.

4.3 When more than one approved request concerns the same enrollment, the request submitted most
recently prevails.

## 5. Prerequisites

5.1 A prerequisite is satisfied by a completed attempt of the prerequisite course with a grade of **${regulations.prerequisiteMinimumGrade}** or
better (or P). A prerequisite taken in the same term does not satisfy it.

5.2 A department may waive a prerequisite for a named student, course and term. Waivers are issued in
writing by the department and apply only to the term they name.

5.3 Before the add/drop deadline the Registrar drops every registration of the term that does not meet
5.1 and has no approved waiver.

## 6. Section outcome review

6.1 The pass rate of a section is the number of students with a final grade of **${regulations.sectionPassMinimumGrade}** or better, or P,
divided by the number of students with a final grade (any letter grade, P or NP). Withdrawals (W) and
Incompletes (I) count in neither number.

6.2 A section is flagged for curriculum review when its pass rate, as a percentage rounded to one
decimal, is below **${regulations.sectionReviewThresholdPercent}%** and at least **${regulations.sectionReviewMinimumGraded}** of its students have a final grade.
`;
}

export function parseRegulations(text: string): Regulations {
  const read = (pattern: RegExp, what: string): string => required(text, pattern, REGULATIONS_PATH, what);
  const threshold = read(/cumulative GPA is below \*\*(\d+\.\d\d)\*\*/, "the probation GPA");
  return {
    probationThresholdHundredths: Math.round(Number(threshold) * 100),
    probationMinimumCredits: Number(read(/at least \*\*(\d+)\*\* GPA credits/, "the probation credits")),
    gradeChangeWindowDays: Number(read(/within \*\*(\d+)\*\* days/, "the grade change window")),
    prerequisiteMinimumGrade: read(
      /prerequisite course with a grade of \*\*([A-F][+-]?)\*\*/,
      "the prerequisite grade",
    ),
    sectionPassMinimumGrade: read(/final grade of \*\*([A-F][+-]?)\*\*/, "the pass grade"),
    sectionReviewThresholdPercent: Number(read(/is below \*\*(\d+)%\*\*/, "the review threshold")),
    sectionReviewMinimumGraded: Number(read(/at least \*\*(\d+)\*\* of its students/, "the review minimum")),
  };
}

export function writeHandbook(handbook: Handbook, academicYear: string): string {
  const programs = handbook.programs
    .map(
      (program) => `### ${program.name} (${program.code})

- Minimum credits: ${program.minimumCredits}
- Core courses (each with a grade of ${program.coreMinimumGrade} or better): ${program.core.join(", ")}
- Maximum transfer credits: ${program.maxTransferCredits}
- Minimum cumulative GPA: ${formatHundredths(program.minimumGpaHundredths)}
`,
    )
    .join("\n");
  return `# Graduate Program Handbook ${academicYear} — Degree Requirements

${SCHOOL_NAME}.

This handbook states what a student must complete to be cleared for graduation. The Registrar clears a
student once every requirement below is met; the academic regulations define grades and the GPA.

## General requirements (all programs)

1. Degree credit: a course earns credit toward the degree only with a grade of **${handbook.creditMinimumGrade}** or better, or P. A
   course counts once, through its most recent graded attempt.
2. Bridge courses numbered below ${handbook.degreeCreditMinimumLevel} count in the GPA but earn no credit toward the degree.
3. Courses in progress do not count until they are graded.
4. Transfer credit counts only when the Registrar's transfer credit register shows it as approved, and
   only up to the maximum of the student's program. Pending and denied requests do not count.
5. A student with an outstanding Incomplete (I) on the record cannot be cleared.
6. Only students whose enrollment status is active are cleared; graduated, withdrawn and on-leave
   students are not.

## Program requirements

${programs}`;
}

export function parseHandbook(text: string): Handbook {
  const path = HANDBOOK_PATH;
  const programs: ProgramRequirement[] = [];
  for (const block of text.split(/^### /m).slice(1)) {
    const header = block.match(/^(.+) \(([A-Z]+)\)/);
    if (!header?.[1] || !header[2]) throw formatError(path, "a program heading");
    const core = block.match(/Core courses \(each with a grade of ([A-F][+-]?) or better\): (.+)/);
    if (!core?.[1] || !core[2]) throw formatError(path, `the core of ${header[2]}`);
    programs.push({
      code: header[2],
      name: header[1],
      minimumCredits: Number(required(block, /Minimum credits: (\d+)/, path, "minimum credits")),
      core: core[2].split(",").map((item) => item.trim()),
      coreMinimumGrade: core[1],
      maxTransferCredits: Number(
        required(block, /Maximum transfer credits: (\d+)/, path, "transfer maximum"),
      ),
      minimumGpaHundredths: Math.round(
        Number(required(block, /Minimum cumulative GPA: (\d+\.\d\d)/, path, "minimum GPA")) * 100,
      ),
    });
  }
  return {
    creditMinimumGrade: required(text, /only with a grade of \*\*([A-F][+-]?)\*\*/, path, "the credit grade"),
    degreeCreditMinimumLevel: Number(required(text, /numbered below (\d+)/, path, "the bridge level")),
    programs,
  };
}

export function writeCalendar(terms: Term[], referenceDate: string): string {
  const rows = terms
    .map(
      (term) =>
        `| ${term.name} | ${term.code} | ${term.startDate} | ${term.addDropDeadline} | ${term.endDate} | ${term.gradesDueDate} |`,
    )
    .join("\n");
  return `# Academic Calendar

Published by the Office of the Registrar (last updated ${referenceDate}). Term codes are used in every
registrar system and export.

| Term | Code | Classes begin | Add/drop deadline | Classes end | Grades due |
|---|---|---|---|---|---|
${rows}

Notes:
- Final grades are entered by instructors and locked on the grades-due date.
- Registrations may be added or dropped without a W until the add/drop deadline.
- There is no summer term for graduate courses.
`;
}

export interface CalendarTerm {
  name: string;
  code: string;
  startDate: string;
  addDropDeadline: string;
  endDate: string;
  gradesDueDate: string;
}

export function parseCalendar(text: string): CalendarTerm[] {
  const terms: CalendarTerm[] = [];
  const pattern =
    /^\| ((?:Spring|Fall) \d{4}) \| (\d{6}) \| (\d{4}-\d\d-\d\d) \| (\d{4}-\d\d-\d\d) \| (\d{4}-\d\d-\d\d) \| (\d{4}-\d\d-\d\d) \|$/gm;
  for (const match of text.matchAll(pattern)) {
    terms.push({
      name: match[1] ?? "",
      code: match[2] ?? "",
      startDate: match[3] ?? "",
      addDropDeadline: match[4] ?? "",
      endDate: match[5] ?? "",
      gradesDueDate: match[6] ?? "",
    });
  }
  if (terms.length === 0) throw formatError(CALENDAR_PATH, "any term");
  return terms;
}

export interface TransferCredit {
  requestId: string;
  studentId: string;
  studentName: string;
  institution: string;
  courseTitle: string;
  credits: number;
  status: "approved" | "pending" | "denied";
  decidedOn: string;
}

export function writeTransferRegister(rows: TransferCredit[]): string {
  return draftsToCsv(
    "request_id, student_id, student_name, institution, course_title, credits, status, decided_on",
    rows,
  );
}

/** What the graduation audit reads from the register: whose request, its credits and its status. */
export function parseTransferRegister(
  text: string,
): Array<Pick<TransferCredit, "studentId" | "credits" | "status">> {
  return parseCsv(text).map((row) => ({
    studentId: row.student_id ?? "",
    credits: Number(row.credits),
    status: (row.status ?? "pending") as TransferCredit["status"],
  }));
}

export type Decision = "APPROVED" | "DENIED" | "PENDING";

export interface GradeChangeMemo {
  memoId: string;
  submittedOn: string;
  requestedBy: string;
  department: string;
  courseCode: string;
  courseTitle: string;
  sectionNumber: string;
  termName: string;
  changes: Array<{
    studentId: string;
    studentName: string;
    recordedGrade: string;
    correctedGrade: string;
    reason: string;
  }>;
  decision: Decision;
  decidedBy: string;
  decidedOn: string | null;
}

export function gradeChangeMemoPath(memoId: string): string {
  return `${MEMO_FOLDER}/grade-change-${memoId}.md`;
}

export function writeGradeChangeMemo(memo: GradeChangeMemo): string {
  const rows = memo.changes
    .map(
      (change) =>
        `| ${change.studentId} | ${change.studentName} | ${change.recordedGrade} | ${change.correctedGrade} | ${change.reason} |`,
    )
    .join("\n");
  const decision =
    memo.decision === "PENDING"
      ? "Department chair decision: PENDING (awaiting review)"
      : `Department chair decision: ${memo.decision} by ${memo.decidedBy} on ${memo.decidedOn ?? ""}`;
  return `# Grade Change Request ${memo.memoId}

Submitted: ${memo.submittedOn}
Requested by: ${memo.requestedBy}, ${memo.department}
Course: ${memo.courseCode} ${memo.courseTitle}, section ${memo.sectionNumber}, ${memo.termName}

| Student ID | Student name | Recorded grade | Corrected grade | Reason |
|---|---|---|---|---|
${rows}

${decision}
`;
}

export function parseGradeChangeMemo(text: string, path: string) {
  const course = text.match(/^Course: ([A-Z]+ \d{3}) .*, section (\d{3}), ((?:Spring|Fall) \d{4})$/m);
  if (!course?.[1] || !course[2] || !course[3]) throw formatError(path, "the course line");
  const changes = [
    ...text.matchAll(/^\| (S\d{6}) \| [^|]+ \| ([A-Z][+-]?) \| ([A-Z][+-]?) \| [^|]+ \|$/gm),
  ].map((match) => ({
    studentId: match[1] ?? "",
    recordedGrade: match[2] ?? "",
    correctedGrade: match[3] ?? "",
  }));
  return {
    memoId: required(text, /^# Grade Change Request (\S+)$/m, path, "the memo id"),
    submittedOn: required(text, /^Submitted: (\d{4}-\d\d-\d\d)$/m, path, "the submission date"),
    courseCode: course[1],
    sectionNumber: course[2],
    termName: course[3],
    decision: required(
      text,
      /^Department chair decision: (APPROVED|DENIED|PENDING)/m,
      path,
      "the decision",
    ) as Decision,
    changes,
  };
}

export interface WaiverLetter {
  department: string;
  termName: string;
  issuedOn: string;
  issuedBy: string;
  waivers: Array<{
    studentId: string;
    studentName: string;
    courseCode: string;
    prerequisiteCode: string;
    decision: Exclude<Decision, "PENDING">;
  }>;
}

export function writeWaiverLetter(letter: WaiverLetter): string {
  const rows = letter.waivers
    .map(
      (waiver) =>
        `| ${waiver.studentId} | ${waiver.studentName} | ${waiver.courseCode} | ${waiver.prerequisiteCode} | ${waiver.decision} |`,
    )
    .join("\n");
  return `# Prerequisite Waiver Decisions — ${letter.department}

Term: ${letter.termName}
Issued: ${letter.issuedOn} by ${letter.issuedBy}, on behalf of the departments named above

The departments have reviewed the following requests to waive a prerequisite. Approved waivers apply to
the named term only; students who were denied must meet the prerequisite as stated in the catalog.

| Student ID | Student name | Course | Waived prerequisite | Decision |
|---|---|---|---|---|
${rows}
`;
}

export function parseWaiverLetter(text: string, path: string) {
  const termName = required(text, /^Term: ((?:Spring|Fall) \d{4})$/m, path, "the term");
  return [
    ...text.matchAll(/^\| (S\d{6}) \| [^|]+ \| ([A-Z]+ \d{3}) \| [A-Z]+ \d{3} \| (APPROVED|DENIED) \|$/gm),
  ].map((match) => ({
    termName,
    studentId: match[1] ?? "",
    courseCode: match[2] ?? "",
    decision: match[3] ?? "",
  }));
}

export interface StandingExemption {
  studentId: string;
  studentName: string;
  termName: string;
  decision: Exclude<Decision, "PENDING">;
  reason: string;
}

export function exemptionLine(exemption: StandingExemption): string {
  return `- ${exemption.studentId} (${exemption.studentName}): exemption from the ${exemption.termName} standing review ${exemption.decision} — ${exemption.reason}`;
}

export function parseExemptions(text: string) {
  return [
    ...text.matchAll(
      /^- (S\d{6}) \([^)]*\): exemption from the ((?:Spring|Fall) \d{4}) standing review (APPROVED|DENIED)/gm,
    ),
  ].map((match) => ({ studentId: match[1] ?? "", termName: match[2] ?? "", decision: match[3] ?? "" }));
}
