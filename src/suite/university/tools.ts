/** The registrar API: single-purpose read tools over the records and three audited write tools. */
import { z } from "zod";
import {
  allRows,
  cachedStatement,
  defineGetTool,
  defineListTool,
  insertRow,
  listPage,
  pagingFields,
  requireRow,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";

const RECORDED_BY = "registrar-api";

/** Grades a grade change may set; W comes only from a withdrawal. */
const CHANGEABLE_GRADES = ["A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D", "F", "P", "NP", "I"] as const;

/** A filter argument that is null (no filtering) unless given. */
function nullFilter<T extends z.ZodType>(schema: T, description: string) {
  return schema.nullable().default(null).describe(description);
}

const listPrograms = defineListTool({
  name: "list_programs",
  description:
    "List the graduate degree and certificate programs. Returns `programs` [{program_id, code, name, department, degree, director_id}] with `page`, `per_page`, `total` and `has_more`.",
  key: "programs",
  from: "programs",
  select: "program_id, code, name, department, degree, director_id",
  orderBy: "program_id",
});

const listStudents = defineListTool({
  name: "list_students",
  description:
    "List students, optionally filtered by program, enrollment status, academic standing or admit term, ordered by student_id. Returns `students` [{student_id, first_name, last_name, program_code, admit_term, attendance, enrollment_status, academic_standing}] with `page`, `per_page`, `total` and `has_more`. Grades are not included: use list_enrollments.",
  filters: {
    program_code: nullFilter(z.string(), "Program code such as 'MSCS'; null for all programs"),
    enrollment_status: nullFilter(
      z.enum(["active", "leave_of_absence", "withdrawn", "graduated"]),
      "Only students with this enrollment status; null for any",
    ),
    academic_standing: nullFilter(
      z.enum(["good", "probation", "suspended"]),
      "Only students with this academic standing; null for any",
    ),
    admit_term: nullFilter(z.string(), "Only students admitted in this term code, e.g. '202408'"),
  },
  key: "students",
  from: "students s JOIN programs p ON p.program_id = s.program_id",
  select: `s.student_id, s.first_name, s.last_name, p.code AS program_code, s.admit_term, s.attendance,
  s.enrollment_status, s.academic_standing`,
  where: {
    program_code: "p.code = ?",
    enrollment_status: "s.enrollment_status = ?",
    academic_standing: "s.academic_standing = ?",
    admit_term: "s.admit_term = ?",
  },
  orderBy: "s.student_id",
});

const studentIdSchema = z.string().min(1).describe("Student id, e.g. 'S104233'");
/** Student ids are looked up trimmed and upper-cased; a miss names the id as given. */
const normalizeStudentId = (id: string): string => id.trim().toUpperCase();
const studentNotFound = (id: string): string => `student '${id}' not found; use list_students to find ids`;

const getStudent = defineGetTool({
  name: "get_student",
  description:
    "Get one student's record: contact details, program, admit term, attendance, enrollment status, academic standing and advisor. Returns `student`.",
  input: { student_id: studentIdSchema },
  key: "student",
  select: `s.student_id, s.first_name, s.last_name, s.email, s.phone, s.date_of_birth, s.citizenship,
     p.code AS program_code, p.name AS program_name, s.admit_term, s.attendance, s.enrollment_status,
     s.academic_standing, s.advisor_id, i.first_name || ' ' || i.last_name AS advisor_name`,
  from: `students s JOIN programs p ON p.program_id = s.program_id
     LEFT JOIN instructors i ON i.instructor_id = s.advisor_id`,
  idColumn: "s.student_id",
  normalizeId: normalizeStudentId,
  notFound: studentNotFound,
});

const listInstructors = defineListTool({
  name: "list_instructors",
  description:
    "List instructors, optionally of one department, ordered by instructor_id. Returns `instructors` [{instructor_id, first_name, last_name, email, department, rank, office}] with `page`, `per_page`, `total` and `has_more`.",
  filters: {
    department: nullFilter(z.string(), "Department name such as 'Statistics'; null for all"),
  },
  key: "instructors",
  from: "instructors",
  select: "instructor_id, first_name, last_name, email, department, rank, office",
  where: { department: "=" },
  orderBy: "instructor_id",
});

const listCourses = defineListTool({
  name: "list_courses",
  description:
    "List catalog courses, optionally of one department, ordered by code. Returns `courses` [{course_id, code, title, department, level, credits, grading_basis, typically_offered}] with `page`, `per_page`, `total` and `has_more`. Prerequisites are shown by get_course.",
  filters: {
    department: nullFilter(z.string(), "Department name such as 'Computer Science'; null for all"),
  },
  key: "courses",
  from: "courses",
  select: "course_id, code, title, department, level, credits, grading_basis, typically_offered",
  where: { department: "=" },
  orderBy: "code",
});

const getCourse = defineTool({
  name: "get_course",
  description:
    "Get one catalog course by its code, with its prerequisite courses. Returns `course` {course_id, code, title, department, level, credits, grading_basis, typically_offered, prerequisites: [{code, title}]}.",
  kind: "read",
  inputSchema: z.object({ course_code: z.string().min(1).describe("Course code, e.g. 'CS 540'") }),
  handler: ({ course_code }, context: ToolContext) => {
    const code = course_code
      .trim()
      .toUpperCase()
      .replace(/^([A-Z]+)\s*(\d+)$/, "$1 $2");
    const course = requireRow(
      context.db,
      "SELECT course_id, code, title, department, level, credits, grading_basis, typically_offered FROM courses WHERE code = ?",
      [code],
      `course '${course_code}' not found; use list_courses to see the catalog`,
    );
    const prerequisites = allRows(
      context.db,
      `SELECT c.code, c.title FROM course_prerequisites cp JOIN courses c ON c.course_id = cp.prerequisite_course_id
       WHERE cp.course_id = ? ORDER BY c.code`,
      course.course_id,
    );
    return { course: { ...course, prerequisites } };
  },
});

const listSections = defineListTool({
  name: "list_sections",
  description:
    "List course sections, optionally filtered by term code, course code or instructor, ordered by section_id. Returns `sections` [{section_id, course_code, term, section_number, instructor_id, capacity, modality}] with `page`, `per_page`, `total` and `has_more`.",
  filters: {
    term: nullFilter(z.string(), "Term code such as '202408' (see the academic calendar); null for all"),
    course_code: nullFilter(z.string(), "Course code such as 'CS 540'; null for all"),
    instructor_id: nullFilter(z.number().int(), "Only sections taught by this instructor"),
  },
  key: "sections",
  from: "sections s JOIN courses c ON c.course_id = s.course_id",
  select:
    "s.section_id, c.code AS course_code, s.term, s.section_number, s.instructor_id, s.capacity, s.modality",
  where: { term: "s.term = ?", course_code: "c.code = ?", instructor_id: "s.instructor_id = ?" },
  orderBy: "s.section_id",
});

const getSection = defineTool({
  name: "get_section",
  description:
    "Get one section: course, term, instructor, room and schedule, and how many registrations it has in each status. Returns `section`.",
  kind: "read",
  inputSchema: z.object({ section_id: z.number().int().describe("Section id") }),
  handler: ({ section_id }, context: ToolContext) => {
    const section = requireRow(
      context.db,
      `SELECT s.section_id, c.code AS course_code, c.title AS course_title, c.credits, s.term, s.section_number,
         s.instructor_id, i.first_name || ' ' || i.last_name AS instructor_name, s.capacity, s.room,
         s.meeting_pattern, s.modality
       FROM sections s JOIN courses c ON c.course_id = s.course_id JOIN instructors i ON i.instructor_id = s.instructor_id
       WHERE s.section_id = ?`,
      [section_id],
      `section ${section_id} not found; use list_sections to find ids`,
    );
    const counts = { enrolled: 0, completed: 0, withdrawn: 0, dropped: 0 };
    for (const row of allRows<{ status: keyof typeof counts; count: number }>(
      context.db,
      "SELECT status, COUNT(*) AS count FROM enrollments WHERE section_id = ? GROUP BY status",
      section_id,
    ))
      counts[row.status] = row.count;
    return { section: { ...section, registration_counts: counts } };
  },
});

const ENROLLMENT_COLUMNS = `e.enrollment_id, e.student_id, e.section_id, s.term, c.code AS course_code, c.credits,
  e.status, e.grade, e.enrolled_on, e.grade_posted_on`;
const ENROLLMENT_FROM =
  "enrollments e JOIN sections s ON s.section_id = e.section_id JOIN courses c ON c.course_id = s.course_id";

const listEnrollments = defineListTool({
  name: "list_enrollments",
  description:
    "List registrations (one per student per section) with their status and grade, optionally filtered by student, section, term or status, ordered by enrollment_id. Returns `enrollments` [{enrollment_id, student_id, section_id, term, course_code, credits, status, grade, enrolled_on, grade_posted_on}] with `page`, `per_page`, `total` and `has_more`. Status is enrolled (registered, not graded yet), completed, withdrawn (grade W) or dropped.",
  filters: {
    student_id: nullFilter(z.string(), "Only this student's registrations"),
    section_id: nullFilter(z.number().int(), "Only registrations in this section"),
    term: nullFilter(z.string(), "Only registrations in this term code, e.g. '202501'"),
    status: nullFilter(
      z.enum(["enrolled", "completed", "withdrawn", "dropped"]),
      "Only registrations with this status",
    ),
  },
  key: "enrollments",
  from: ENROLLMENT_FROM,
  select: ENROLLMENT_COLUMNS,
  where: ({ student_id, section_id, term, status }) => [
    when(student_id === null ? null : normalizeStudentId(student_id), "e.student_id = ?"),
    when(section_id, "e.section_id = ?"),
    when(term, "s.term = ?"),
    when(status, "e.status = ?"),
  ],
  orderBy: "e.enrollment_id",
});

const listRegistrarActions = defineListTool({
  name: "list_registrar_actions",
  description:
    "List the registrar's audit log (grade changes, standing changes, drops, status changes), optionally for one student or one action type, ordered by action_id. Returns `actions` [{action_id, action_type, student_id, enrollment_id, old_value, new_value, reason, recorded_by}] with `page`, `per_page`, `total` and `has_more`.",
  filters: {
    student_id: nullFilter(z.string(), "Only actions about this student"),
    action_type: nullFilter(
      z.enum(["grade_change", "standing_change", "enrollment_drop", "status_change"]),
      "Only actions of this type",
    ),
  },
  key: "actions",
  from: "registrar_actions",
  select: "action_id, action_type, student_id, enrollment_id, old_value, new_value, reason, recorded_by",
  where: ({ student_id, action_type }) => [
    when(student_id === null ? null : normalizeStudentId(student_id), "student_id = ?"),
    when(action_type, "action_type = ?"),
  ],
  orderBy: "action_id",
});

interface AuditEntry {
  action_type: "grade_change" | "standing_change" | "enrollment_drop";
  student_id: string;
  enrollment_id: number | null;
  old_value: string | null;
  new_value: string;
  reason: string;
}

/** Runs one UPDATE and logs it in the audit log as the registrar API did it; returns the entry's action_id. */
function auditedUpdate(context: ToolContext, sql: string, params: unknown[], entry: AuditEntry): number {
  cachedStatement(context.db, sql).run(...params);
  return Number(insertRow(context.db, "registrar_actions", { ...entry, recorded_by: RECORDED_BY }).action_id);
}

interface EnrollmentRow {
  enrollment_id: number;
  student_id: string;
  term: string;
  course_code: string;
  grading_basis: string;
  status: string;
  grade: string | null;
}

function findEnrollment(context: ToolContext, enrollmentId: number): EnrollmentRow {
  return requireRow<EnrollmentRow>(
    context.db,
    `SELECT e.enrollment_id, e.student_id, s.term, c.code AS course_code, c.grading_basis, e.status, e.grade
     FROM ${ENROLLMENT_FROM} WHERE e.enrollment_id = ?`,
    [enrollmentId],
    `enrollment ${enrollmentId} not found; use list_enrollments to find ids`,
  );
}

const changeGrade = defineTool({
  name: "change_grade",
  description:
    "Change the recorded grade of a completed registration and log the change in the audit log. Letter grades (A to F) and I apply to letter-graded courses, P/NP to pass/fail courses. Returns `enrollment_id`, `student_id`, `course_code`, `term`, `old_grade`, `new_grade` and `action_id`.",
  kind: "write",
  inputSchema: z.object({
    enrollment_id: z.number().int().describe("The registration whose grade changes"),
    new_grade: z.enum(CHANGEABLE_GRADES).describe("The corrected grade"),
    reason: z.string().min(3).describe("Why the grade changes, e.g. the grade change request number"),
  }),
  handler: ({ enrollment_id, new_grade, reason }, context: ToolContext) => {
    const enrollment = findEnrollment(context, enrollment_id);
    if (enrollment.status !== "completed")
      throw new ToolFailure(
        `enrollment ${enrollment_id} has status '${enrollment.status}'; only completed registrations have a grade that can be changed`,
      );
    const passFail = enrollment.grading_basis === "pass_fail";
    if (passFail !== (new_grade === "P" || new_grade === "NP") && new_grade !== "I")
      throw new ToolFailure(
        `${enrollment.course_code} is graded ${passFail ? "P/NP" : "with letters"}; '${new_grade}' is not a valid grade for it`,
      );
    if (enrollment.grade === new_grade)
      throw new ToolFailure(
        `enrollment ${enrollment_id} already has grade '${new_grade}'; nothing to change`,
      );
    const actionId = auditedUpdate(
      context,
      "UPDATE enrollments SET grade = ? WHERE enrollment_id = ?",
      [new_grade, enrollment_id],
      {
        action_type: "grade_change",
        student_id: enrollment.student_id,
        enrollment_id,
        old_value: enrollment.grade,
        new_value: new_grade,
        reason,
      },
    );
    return {
      enrollment_id,
      student_id: enrollment.student_id,
      course_code: enrollment.course_code,
      term: enrollment.term,
      old_grade: enrollment.grade,
      new_grade,
      action_id: actionId,
    };
  },
});

const setAcademicStanding = defineTool({
  name: "set_academic_standing",
  description:
    "Set the academic standing (good, probation, suspended) of an active student and log the change in the audit log. Returns `student_id`, `old_standing`, `new_standing` and `action_id`.",
  kind: "write",
  inputSchema: z.object({
    student_id: studentIdSchema,
    standing: z.enum(["good", "probation", "suspended"]).describe("The new academic standing"),
    reason: z
      .string()
      .min(3)
      .describe("Why the standing changes, e.g. 'Fall 2024 standing review: cumulative GPA 2.81'"),
  }),
  handler: ({ student_id, standing, reason }, context: ToolContext) => {
    const id = normalizeStudentId(student_id);
    const student = requireRow<{ student_id: string; enrollment_status: string; academic_standing: string }>(
      context.db,
      "SELECT student_id, enrollment_status, academic_standing FROM students WHERE student_id = ?",
      [id],
      studentNotFound(student_id),
    );
    if (student.enrollment_status !== "active")
      throw new ToolFailure(
        `student ${id} has enrollment status '${student.enrollment_status}'; only active students' standing can be changed`,
      );
    if (student.academic_standing === standing)
      throw new ToolFailure(`student ${id} is already in ${standing} standing; nothing to change`);
    const actionId = auditedUpdate(
      context,
      "UPDATE students SET academic_standing = ? WHERE student_id = ?",
      [standing, id],
      {
        action_type: "standing_change",
        student_id: id,
        enrollment_id: null,
        old_value: student.academic_standing,
        new_value: standing,
        reason,
      },
    );
    return {
      student_id: id,
      old_standing: student.academic_standing,
      new_standing: standing,
      action_id: actionId,
    };
  },
});

const dropEnrollment = defineTool({
  name: "drop_enrollment",
  description:
    "Administratively drop a registration that is not graded yet (status 'enrolled'); the registration stays in the record with status 'dropped' and the drop is logged in the audit log. Returns `enrollment_id`, `student_id`, `course_code`, `term`, `status` and `action_id`.",
  kind: "write",
  inputSchema: z.object({
    enrollment_id: z.number().int().describe("The registration to drop"),
    reason: z.string().min(3).describe("Why the registration is dropped"),
  }),
  handler: ({ enrollment_id, reason }, context: ToolContext) => {
    const enrollment = findEnrollment(context, enrollment_id);
    if (enrollment.status !== "enrolled")
      throw new ToolFailure(
        `enrollment ${enrollment_id} has status '${enrollment.status}'; only registrations with status 'enrolled' can be dropped`,
      );
    const actionId = auditedUpdate(
      context,
      "UPDATE enrollments SET status = 'dropped' WHERE enrollment_id = ?",
      [enrollment_id],
      {
        action_type: "enrollment_drop",
        student_id: enrollment.student_id,
        enrollment_id,
        old_value: "enrolled",
        new_value: "dropped",
        reason,
      },
    );
    return {
      enrollment_id,
      student_id: enrollment.student_id,
      course_code: enrollment.course_code,
      term: enrollment.term,
      status: "dropped",
      action_id: actionId,
    };
  },
});

/**
 * The transcript service answers from a separate records system; on a cache miss it times out and says
 * so in an ordinary result (no error flag), the first time a student ending in 0, 3, 6 or 9 is read.
 */
const getTranscript = withSilentFailures(
  defineTool({
    name: "get_transcript",
    description:
      "Get a student's unofficial transcript from the transcript service: every registration with its term, course, credits, grading basis, status and grade, oldest term first. Returns `status` ('ok'), `student_id`, `program_code`, `attendance`, `academic_standing`, `enrollment_status` and `registrations` [{enrollment_id, term, course_code, credits, grading_basis, status, grade}]. When the service cannot answer, `status` is 'error' and `error` says why.",
    kind: "read",
    inputSchema: z.object({ student_id: studentIdSchema }),
    handler: ({ student_id }, context: ToolContext) => {
      const id = normalizeStudentId(student_id);
      const student = requireRow<Record<string, unknown>>(
        context.db,
        `SELECT s.student_id, p.code AS program_code, s.attendance, s.academic_standing, s.enrollment_status
         FROM students s JOIN programs p ON p.program_id = s.program_id WHERE s.student_id = ?`,
        [id],
        studentNotFound(student_id),
      );
      const registrations = allRows(
        context.db,
        `SELECT e.enrollment_id, s.term, c.code AS course_code, c.credits, c.grading_basis, e.status, e.grade
         FROM ${ENROLLMENT_FROM} WHERE e.student_id = ? ORDER BY s.term, e.enrollment_id`,
        id,
      );
      return { status: "ok", ...student, registrations };
    },
  }),
  {
    when: (input) => /[0369]$/.test(input.student_id.trim()),
    body: (input) => ({
      status: "error",
      error: `transcript service timeout while reading ${normalizeStudentId(input.student_id)}; retry the request`,
    }),
  },
);

/** The class-list service behind rosters is rate limited: some sections' rosters answer 503 once. */
const listSectionRoster = withTransientFailures(
  defineTool({
    name: "list_section_roster",
    description:
      "List the class roster of one section: each registered student with their program, registration status and grade, ordered by student_id. Returns `roster` [{enrollment_id, student_id, first_name, last_name, program_code, status, grade}] with `page`, `per_page`, `total` and `has_more`.",
    kind: "read",
    inputSchema: z.object({
      section_id: z.number().int().describe("Section id (see list_sections)"),
      ...pagingFields,
    }),
    handler: ({ section_id, page, per_page }, context: ToolContext) => {
      requireRow(
        context.db,
        "SELECT section_id FROM sections WHERE section_id = ?",
        [section_id],
        `section ${section_id} not found; use list_sections to find ids`,
      );
      return listPage(context.db, {
        key: "roster",
        from: "enrollments e JOIN students st ON st.student_id = e.student_id JOIN programs p ON p.program_id = st.program_id",
        select:
          "e.enrollment_id, e.student_id, st.first_name, st.last_name, p.code AS program_code, e.status, e.grade",
        where: [when(section_id, "e.section_id = ?")],
        orderBy: "e.student_id, e.enrollment_id",
        page,
        perPage: per_page,
      });
    },
  }),
  {
    when: (input) => input.section_id % 3 === 1 && input.page === 1,
    message: "503 Service Unavailable: the class-list service is busy, retry the same call",
  },
);

export const universityTools: DomainTool[] = [
  listPrograms,
  listStudents,
  getStudent,
  listInstructors,
  listCourses,
  getCourse,
  listSections,
  getSection,
  listEnrollments,
  listRegistrarActions,
  changeGrade,
  setAcademicStanding,
  dropEnrollment,
  getTranscript,
  listSectionRoster,
] as DomainTool[];
