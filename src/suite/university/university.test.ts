import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, createGenerateContext, type ToolContext } from "../../envs/index.js";
import { resultText } from "../../runtime/index.js";
import {
  parseHandbook,
  parseRegulations,
  writeHandbook,
  writeRegulations,
  type Handbook,
  type Regulations,
} from "./documents.js";
import { universityDomain, universityTasks } from "./index.js";
import { cumulativeGpa, earnedDegreeCredits, type Attempt } from "./rules.js";
import { termsForReferenceDate } from "./terms.js";

const REFERENCE_DATE = "2025-06-30";
const directories: string[] = [];

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function build(seed: number): ToolContext {
  const workspaceDir = mkdtempSync(join(tmpdir(), "university-test-"));
  directories.push(workspaceDir);
  const db = new Database(":memory:");
  db.exec(universityDomain.schemaSql);
  const context = createGenerateContext({
    db,
    workspaceDir,
    scale: "v0",
    seed: seed,
    stream: universityDomain.id,
  });
  db.transaction(() => universityDomain.generate(context))();
  return { db, workspaceDir };
}

async function call(context: ToolContext, name: string, args: Record<string, unknown>) {
  const result = await callTool(universityDomain.tools, context, name, args);
  return {
    isError: result.isError === true,
    text: resultText(result),
    value: result.structuredContent ?? {},
  };
}

/** How many registrations the section or student `id` has. */
function countEnrollments(db: Database.Database, column: "section_id" | "student_id", id: unknown): number {
  return (db.prepare(`SELECT COUNT(*) AS n FROM enrollments WHERE ${column} = ?`).get(id) as { n: number }).n;
}

function attempt(courseCode: string, term: string, grade: string, credits = 3): Attempt {
  return {
    enrollmentId: 0,
    studentId: "S100000",
    sectionId: 0,
    term,
    courseCode,
    courseLevel: Number(courseCode.split(" ")[1]),
    credits,
    status: grade === "W" ? "withdrawn" : "completed",
    grade,
  };
}

describe("university rules", () => {
  it("keeps only the latest letter-graded attempt and rounds exactly", () => {
    const record = [
      attempt("CS 501", "202401", "F"),
      attempt("CS 501", "202408", "A"),
      attempt("CS 520", "202401", "B+"),
      attempt("CS 540", "202408", "B-"),
      attempt("CS 598", "202408", "P", 1),
    ];
    expect(cumulativeGpa(record)).toEqual({ qualityHundredths: 3000, credits: 9, roundedHundredths: 333 });
    const exact = [
      attempt("CS 501", "202401", "B+"),
      attempt("CS 520", "202401", "B-"),
      attempt("CS 540", "202408", "B"),
    ];
    expect(cumulativeGpa(exact).roundedHundredths).toBe(300);
  });

  it("earns degree credit once per course and never for bridge courses", () => {
    const record = [
      attempt("CS 450", "202308", "A"),
      attempt("CS 501", "202401", "D"),
      attempt("CS 501", "202408", "B"),
      attempt("CS 520", "202408", "C-"),
    ];
    expect(earnedDegreeCredits(record, "C", 500)).toBe(3);
  });

  it("reads back the rule documents it writes", () => {
    const regulations: Regulations = {
      probationThresholdHundredths: 300,
      probationMinimumCredits: 9,
      gradeChangeWindowDays: 120,
      prerequisiteMinimumGrade: "C+",
      sectionPassMinimumGrade: "C",
      sectionReviewThresholdPercent: 75,
      sectionReviewMinimumGraded: 5,
    };
    expect(parseRegulations(writeRegulations(regulations, 2024))).toEqual(regulations);
    const handbook: Handbook = {
      creditMinimumGrade: "C",
      degreeCreditMinimumLevel: 500,
      programs: [
        {
          code: "MSCS",
          name: "M.S. in Computer Science",
          minimumCredits: 33,
          core: ["CS 501", "CS 520"],
          coreMinimumGrade: "B",
          maxTransferCredits: 6,
          minimumGpaHundredths: 300,
        },
      ],
    };
    expect(parseHandbook(writeHandbook(handbook, "2025-2026"))).toEqual(handbook);
  });

  it("places the reference date between the last graded term and the open one", () => {
    const { completed, current } = termsForReferenceDate(REFERENCE_DATE);
    expect(current.code).toBe("202508");
    expect(completed.map((term) => term.code)).toEqual(["202308", "202401", "202408", "202501"]);
  });
});

describe("university tools", () => {
  let context: ToolContext;
  beforeAll(() => {
    context = build(11);
  });

  it("generates the same data for the same seed", () => {
    const other = build(11);
    const dump = (db: Database.Database) =>
      JSON.stringify(db.prepare("SELECT * FROM enrollments ORDER BY enrollment_id").all());
    expect(dump(other.db)).toBe(dump(context.db));
  });

  it("pages through students", async () => {
    const first = await call(context, "list_students", { per_page: 50 });
    const total = Number(first.value.total);
    expect(total).toBeGreaterThan(50);
    expect(first.value.has_more).toBe(true);
    const last = await call(context, "list_students", { page: 2, per_page: 50 });
    expect((last.value.students as unknown[]).length).toBe(total - 50);
    expect(last.value.has_more).toBe(false);
    const tooMany = await call(context, "list_students", { per_page: 51 });
    expect(tooMany.isError).toBe(true);
  });

  it("shows prerequisites and rejects unknown courses", async () => {
    const course = await call(context, "get_course", { course_code: "cs545" });
    expect((course.value.course as { prerequisites: Array<{ code: string }> }).prerequisites).toEqual([
      { code: "CS 540", title: "Machine Learning" },
    ]);
    const missing = await call(context, "get_course", { course_code: "CS 999" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("list_courses");
  });

  it("changes a completed grade and logs it, but refuses open registrations", async () => {
    const completed = context.db
      .prepare(
        `SELECT e.enrollment_id, e.grade FROM enrollments e JOIN sections s USING (section_id) JOIN courses c USING (course_id)
         WHERE e.status = 'completed' AND c.grading_basis = 'letter' AND e.grade = 'B' LIMIT 1`,
      )
      .get() as { enrollment_id: number };
    const changed = await call(context, "change_grade", {
      enrollment_id: completed.enrollment_id,
      new_grade: "B+",
      reason: "GC-1234 regrade",
    });
    expect(changed.isError).toBe(false);
    expect(changed.value).toMatchObject({ old_grade: "B", new_grade: "B+" });
    const logged = context.db
      .prepare("SELECT action_type, old_value, new_value FROM registrar_actions WHERE action_id = ?")
      .get(changed.value.action_id);
    expect(logged).toEqual({ action_type: "grade_change", old_value: "B", new_value: "B+" });
    const open = context.db
      .prepare("SELECT enrollment_id FROM enrollments WHERE status = 'enrolled' LIMIT 1")
      .get() as {
      enrollment_id: number;
    };
    const refused = await call(context, "change_grade", {
      enrollment_id: open.enrollment_id,
      new_grade: "A",
      reason: "test",
    });
    expect(refused.isError).toBe(true);
    const dropped = await call(context, "drop_enrollment", {
      enrollment_id: open.enrollment_id,
      reason: "prerequisite",
    });
    expect(dropped.value).toMatchObject({ status: "dropped" });
    const again = await call(context, "drop_enrollment", {
      enrollment_id: open.enrollment_id,
      reason: "prerequisite",
    });
    expect(again.isError).toBe(true);
  });

  it("changes the standing of active students only", async () => {
    const inactive = context.db
      .prepare("SELECT student_id FROM students WHERE enrollment_status <> 'active' LIMIT 1")
      .get() as { student_id: string };
    const refused = await call(context, "set_academic_standing", {
      student_id: inactive.student_id,
      standing: "probation",
      reason: "test",
    });
    expect(refused.isError).toBe(true);
    const active = context.db
      .prepare(
        "SELECT student_id FROM students WHERE enrollment_status = 'active' AND academic_standing = 'good' LIMIT 1",
      )
      .get() as { student_id: string };
    const done = await call(context, "set_academic_standing", {
      student_id: active.student_id.toLowerCase(),
      standing: "probation",
      reason: "test",
    });
    expect(done.value).toMatchObject({ old_standing: "good", new_standing: "probation" });
  });

  it("answers a cold transcript read with an error body, not an error result, and serves the retry", async () => {
    const student = context.db
      .prepare(
        "SELECT student_id FROM students WHERE student_id GLOB '*[0369]' AND student_id IN (SELECT student_id FROM enrollments) LIMIT 1",
      )
      .get() as { student_id: string };
    const first = await call(context, "get_transcript", { student_id: student.student_id });
    expect(first.isError).toBe(false);
    expect(first.value).toMatchObject({ status: "error" });
    expect(first.value).not.toHaveProperty("registrations");
    const second = await call(context, "get_transcript", { student_id: student.student_id });
    const count = countEnrollments(context.db, "student_id", student.student_id);
    expect(second.value).toMatchObject({ status: "ok", student_id: student.student_id });
    expect((second.value.registrations as unknown[]).length).toBe(count);
    const warm = context.db
      .prepare("SELECT student_id FROM students WHERE student_id GLOB '*[12457]' LIMIT 1")
      .get() as { student_id: string };
    expect((await call(context, "get_transcript", { student_id: warm.student_id })).value).toMatchObject({
      status: "ok",
    });
  });

  it("lists a section's roster after one 503 on the busy sections", async () => {
    const section = context.db
      .prepare("SELECT section_id FROM sections WHERE section_id % 3 = 1 ORDER BY section_id LIMIT 1")
      .get() as { section_id: number };
    const busy = await call(context, "list_section_roster", { section_id: section.section_id });
    expect(busy.isError).toBe(true);
    expect(busy.text).toContain("503");
    const roster = await call(context, "list_section_roster", { section_id: section.section_id });
    const count = countEnrollments(context.db, "section_id", section.section_id);
    expect(roster.isError).toBe(false);
    expect(roster.value).toMatchObject({ page: 1, total: count });
    const missing = await call(context, "list_section_roster", { section_id: 2 });
    expect(missing.text).toContain("list_sections");
  });

  it("declares tasks whose tools all exist", () => {
    expect(universityTasks.length).toBeGreaterThanOrEqual(4);
    for (const task of universityTasks) expect(task.id.startsWith("university.")).toBe(true);
  });
});
