import type Database from "better-sqlite3";
import {
  checkNone,
  checkOtherTablesUnchanged,
  defineTask,
  parseAnswerJson,
  type Check,
  type GenerateContext,
  type VerifyContext,
  allRows,
  variantNearMisses,
} from "../../../envs/index.js";
import { SCHOOL_NAME } from "../documents.js";
import { universityDomain } from "../domain.js";
import { gradedAndCurrentTerms, PYTHON_PRELUDE } from "./shared.js";

export const CREDIT_HOUR_NOTE_PATH = "registrar/credit-hour-reporting.md";

const NOTE = `# ${SCHOOL_NAME} — Student credit hour reporting

Note from the Office of Institutional Research to the Registrar, for the provost's budget model.

Student credit hours (SCH) measure teaching volume. Please compute them from the class rosters, not from
the capacity or the enrollment counts printed on schedules.

- The SCH of a section are the course's credits times the number of students on its roster who
  completed the section. Students who withdrew (W) or dropped do not count. A student with an
  Incomplete (I) is still carrying the credits and counts, as does a student who failed.
- The SCH of a section are credited to the home department of its instructor of record, which is not
  always the department that owns the course (joint appointments, service teaching). The course's
  department is irrelevant here.
- An academic year is a Fall term and the Spring term that follows it.
`;

/**
 * Hands some sections of the last academic year to instructors of other departments, and plants a
 * withdrawal and an Incomplete per row factor, so that every rule of the note changes the totals.
 */
function prepare(context: GenerateContext): void {
  const { db, random, factors } = context;
  context.writeFile(CREDIT_HOUR_NOTE_PATH, NOTE);
  const terms = academicYear(db);
  const sections = allRows<{ section_id: number; department: string }>(
    db,
    `SELECT s.section_id, i.department FROM sections s JOIN instructors i ON i.instructor_id = s.instructor_id
       WHERE s.term IN (?, ?) AND (SELECT COUNT(*) FROM enrollments e WHERE e.section_id = s.section_id AND e.status = 'completed') >= 3
       ORDER BY s.section_id`,
    ...terms,
  );
  const instructors = allRows<{ instructor_id: number; department: string }>(
    db,
    "SELECT instructor_id, department FROM instructors ORDER BY instructor_id",
  );
  const reassign = db.prepare("UPDATE sections SET instructor_id = ? WHERE section_id = ?");
  const chosen = random.shuffle(sections).slice(0, 2 + factors.rows);
  for (const section of chosen) {
    const other = instructors.filter((item) => item.department !== section.department);
    reassign.run(random.pick(other).instructor_id, section.section_id);
  }
  const completed = allRows<{ enrollment_id: number }>(
    db,
    `SELECT e.enrollment_id FROM enrollments e JOIN sections s ON s.section_id = e.section_id
       JOIN courses c ON c.course_id = s.course_id
       WHERE s.term IN (?, ?) AND e.status = 'completed' AND c.grading_basis = 'letter' AND e.grade NOT IN ('I')
       ORDER BY e.enrollment_id`,
    ...terms,
  );
  const planted = random.shuffle(completed).slice(0, 2 * factors.rows);
  const withdraw = db.prepare(
    "UPDATE enrollments SET status = 'withdrawn', grade = 'W' WHERE enrollment_id = ?",
  );
  const incomplete = db.prepare("UPDATE enrollments SET grade = 'I' WHERE enrollment_id = ?");
  planted.forEach((row, index) => (index % 2 === 0 ? withdraw : incomplete).run(row.enrollment_id));
}

/** The Fall and Spring terms of the academic year that ended last (the two most recent graded terms). */
function academicYear(db: Database.Database): [string, string] {
  const { graded } = gradedAndCurrentTerms(db);
  const spring = [...graded].reverse().find((term) => term.endsWith("01"));
  if (!spring) throw new Error("no graded spring term");
  return [`${Number(spring.slice(0, 4)) - 1}08`, spring];
}

/** SCH per instructor home department for the last academic year. */
export function expectedCreditHours(db: Database.Database): Map<string, number> {
  const rows = allRows<{ department: string; sch: number }>(
    db,
    `SELECT i.department, SUM(c.credits) AS sch
       FROM enrollments e JOIN sections s ON s.section_id = e.section_id
       JOIN courses c ON c.course_id = s.course_id JOIN instructors i ON i.instructor_id = s.instructor_id
       WHERE s.term IN (?, ?) AND e.status = 'completed'
       GROUP BY i.department ORDER BY i.department`,
    ...academicYear(db),
  );
  return new Map(rows.map((row) => [row.department, row.sch]));
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedCreditHours(context.initial.db);
  const parsed = parseAnswerJson(context.answer);
  const given =
    parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? new Map(
          Object.entries(parsed as Record<string, unknown>).map(([key, value]) => [
            key.trim().toLowerCase(),
            Number(value),
          ]),
        )
      : null;
  const problems: string[] = [];
  if (given === null) problems.push("the answer is not a JSON object of departments");
  else {
    for (const [department, sch] of expected) {
      const value = given.get(department.toLowerCase());
      if (value !== sch) problems.push(`${department}: expected ${sch}, got ${String(value ?? "nothing")}`);
    }
    const known = new Set([...expected.keys()].map((name) => name.toLowerCase()));
    for (const [department, value] of given)
      if (!known.has(department) && value !== 0) problems.push(`${department} taught no credit hours`);
  }
  return [
    checkNone("credit-hours", problems, `all ${expected.size} departments right`, (found) =>
      found.slice(0, 8).join("; "),
    ),
    checkOtherTablesUnchanged(context.initial.db, context.final.db, []),
  ];
}

interface CreditHourVariant {
  instructorDepartment: boolean;
  excludeWithdrawals: boolean;
  countIncompletes: boolean;
  retry: boolean;
}

function creditHourCells(variant: CreditHourVariant): string[] {
  const roster = variant.retry
    ? `def roster(section_id):
    for attempt in range(5):
        try:
            return fetch_all("list_section_roster", "roster", section_id=section_id)
        except Exception as error:
            print("retrying roster of", section_id, "-", error)
    raise RuntimeError("roster service kept failing")`
    : `def roster(section_id):
    try:
        return fetch_all("list_section_roster", "roster", section_id=section_id)
    except Exception as error:
        print("skipping roster of", section_id, "-", error)
        return []`;
  const counted = [
    'r["status"] == "completed"',
    variant.excludeWithdrawals ? null : 'r["status"] == "withdrawn"',
  ]
    .filter(Boolean)
    .join(" or ");
  return [
    PYTHON_PRELUDE,
    `updated = re.search(r"last updated (\\d{4}-\\d\\d-\\d\\d)", calendar).group(1)
graded = sorted(code for code, due in grades_due.items() if due < updated)
spring = [code for code in graded if code.endswith("01")][-1]
year_terms = [str(int(spring[:4]) - 1) + "08", spring]
home = {i["instructor_id"]: i["department"] for i in fetch_all("list_instructors", "instructors")}
courses = {c["code"]: c for c in fetch_all("list_courses", "courses")}
sections = [s for term in year_terms for s in fetch_all("list_sections", "sections", term=term)]
print("academic year", year_terms, len(sections), "sections;", len(home), "instructors;", len(courses), "courses")`,
    `${roster}

sch = defaultdict(int)
for s in sections:
    students = [r for r in roster(s["section_id"]) if (${counted})${variant.countIncompletes ? "" : ' and r["grade"] != "I"'}]
    department = ${variant.instructorDepartment ? 'home[s["instructor_id"]]' : 'courses[s["course_code"]]["department"]'}
    sch[department] += courses[s["course_code"]]["credits"] * len(students)
print(dict(sch))`,
    `print(json.dumps({department: hours for department, hours in sorted(sch.items()) if hours}))`,
  ];
}

const FULL: CreditHourVariant = {
  instructorDepartment: true,
  excludeWithdrawals: true,
  countIncompletes: true,
  retry: true,
};

export const creditHourReportTask = defineTask({
  id: "university.credit-hour-report",
  domain: universityDomain,
  summary:
    "Student credit hours of the last academic year per instructor home department, from every section's roster (a roster service that answers 503 now and then), per Institutional Research's note.",
  instruction:
    "Institutional Research needs the student credit hours of the academic year that ended most recently (its Fall and Spring terms), by department, for the provost's budget model. Compute them from the section rosters exactly as their note in the registrar folder defines them. Do not change any records. Reply with only a JSON object mapping each department name to its credit hours (a whole number), leaving out departments with none.",
  tools: ["list_instructors", "list_courses", "get_course", "list_sections", "list_section_roster"],
  prepare,
  verify,
  oracle: creditHourCells(FULL),
  nearMisses: variantNearMisses(creditHourCells, FULL, {
    "course-department": [
      { instructorDepartment: false },
      "Credits the hours to the department that owns the course, not the instructor's.",
    ],
    "counts-withdrawals": [{ excludeWithdrawals: false }, "Counts students who withdrew from the section."],
    "drops-incompletes": [
      { countIncompletes: false },
      "Leaves out students with an Incomplete, who still carry the credits.",
    ],
    "skips-failed-rosters": [
      { retry: false },
      "Skips a section when its roster call answers 503 instead of retrying.",
    ],
  }),
});
