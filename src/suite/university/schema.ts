/**
 * The registrar's database of a graduate school. Academic rules live in workspace documents, not here.
 *
 * Small pages keep the fixed cost of each table and index (one page at least) from dominating the size of
 * the smallest scale; uniqueness of e-mails is the generator's job rather than an index's, for the same
 * reason.
 */
export const schemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE instructors (
  instructor_id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  department TEXT NOT NULL,
  rank TEXT NOT NULL CHECK (rank IN ('Professor', 'Associate Professor', 'Assistant Professor', 'Lecturer', 'Adjunct Instructor')),
  office TEXT NOT NULL,
  hire_date TEXT NOT NULL
);

CREATE TABLE programs (
  program_id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  department TEXT NOT NULL,
  degree TEXT NOT NULL,
  director_id INTEGER REFERENCES instructors(instructor_id)
);

CREATE TABLE students (
  student_id TEXT PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  phone TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,
  citizenship TEXT NOT NULL,
  program_id INTEGER NOT NULL REFERENCES programs(program_id),
  admit_term TEXT NOT NULL,
  attendance TEXT NOT NULL CHECK (attendance IN ('full_time', 'part_time')),
  enrollment_status TEXT NOT NULL CHECK (enrollment_status IN ('active', 'leave_of_absence', 'withdrawn', 'graduated')),
  academic_standing TEXT NOT NULL CHECK (academic_standing IN ('good', 'probation', 'suspended')),
  advisor_id INTEGER REFERENCES instructors(instructor_id)
);

CREATE TABLE courses (
  course_id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  department TEXT NOT NULL,
  level INTEGER NOT NULL,
  credits INTEGER NOT NULL,
  grading_basis TEXT NOT NULL CHECK (grading_basis IN ('letter', 'pass_fail')),
  typically_offered TEXT NOT NULL
);

CREATE TABLE course_prerequisites (
  course_id INTEGER NOT NULL REFERENCES courses(course_id),
  prerequisite_course_id INTEGER NOT NULL REFERENCES courses(course_id),
  PRIMARY KEY (course_id, prerequisite_course_id)
);

CREATE TABLE sections (
  section_id INTEGER PRIMARY KEY,
  course_id INTEGER NOT NULL REFERENCES courses(course_id),
  term TEXT NOT NULL,
  section_number TEXT NOT NULL,
  instructor_id INTEGER NOT NULL REFERENCES instructors(instructor_id),
  capacity INTEGER NOT NULL,
  room TEXT NOT NULL,
  meeting_pattern TEXT NOT NULL,
  modality TEXT NOT NULL CHECK (modality IN ('in_person', 'online', 'hybrid'))
);

CREATE TABLE enrollments (
  enrollment_id INTEGER PRIMARY KEY,
  student_id TEXT NOT NULL REFERENCES students(student_id),
  section_id INTEGER NOT NULL REFERENCES sections(section_id),
  status TEXT NOT NULL CHECK (status IN ('enrolled', 'completed', 'withdrawn', 'dropped')),
  grade TEXT,
  enrolled_on TEXT NOT NULL,
  grade_posted_on TEXT
);

CREATE TABLE registrar_actions (
  action_id INTEGER PRIMARY KEY,
  action_type TEXT NOT NULL CHECK (action_type IN ('grade_change', 'standing_change', 'enrollment_drop', 'status_change')),
  student_id TEXT NOT NULL REFERENCES students(student_id),
  enrollment_id INTEGER REFERENCES enrollments(enrollment_id),
  old_value TEXT,
  new_value TEXT,
  reason TEXT NOT NULL,
  recorded_by TEXT NOT NULL
);

CREATE INDEX enrollments_student ON enrollments(student_id);
CREATE INDEX enrollments_section ON enrollments(section_id);
`;
