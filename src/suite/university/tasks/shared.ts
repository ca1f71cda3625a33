/** What every university verifier and oracle shares: reading the state back and comparing id sets. */
import type Database from "better-sqlite3";
import {
  allRows,
  check,
  diffTable,
  getRow,
  groupBy,
  PYTHON_WORKSPACE_HELPERS,
  requireFile,
  type Check,
  type StateView,
  type TableDiff,
} from "../../../envs/index.js";
import {
  CALENDAR_PATH,
  HANDBOOK_PATH,
  REGULATIONS_PATH,
  parseCalendar,
  parseHandbook,
  parseRegulations,
  type CalendarTerm,
  type Handbook,
  type Regulations,
} from "../documents.js";
import type { Attempt } from "../rules.js";

export function regulationsOf(state: StateView): Regulations {
  return parseRegulations(requireFile(state, REGULATIONS_PATH));
}

export function handbookOf(state: StateView): Handbook {
  return parseHandbook(requireFile(state, HANDBOOK_PATH));
}

export function calendarOf(state: StateView): CalendarTerm[] {
  return parseCalendar(requireFile(state, CALENDAR_PATH));
}

/** Every file of a workspace folder with its text. */
export function folderFiles(state: StateView, folder: string): Array<{ path: string; text: string }> {
  return state
    .listFiles()
    .filter((path) => path.startsWith(`${folder}/`))
    .map((path) => ({ path, text: requireFile(state, path) }));
}

/** Every registration with its term, course and credits, grouped by student. */
export function attemptsByStudent(db: Database.Database): Map<string, Attempt[]> {
  const attempts = allRows<Attempt>(
    db,
    `SELECT e.enrollment_id AS enrollmentId, e.student_id AS studentId, e.section_id AS sectionId, s.term,
       c.code AS courseCode, c.level AS courseLevel, c.credits, e.status, e.grade
       FROM enrollments e JOIN sections s ON s.section_id = e.section_id JOIN courses c ON c.course_id = s.course_id
       ORDER BY e.enrollment_id`,
  );
  return groupBy(attempts, (attempt) => attempt.studentId);
}

export interface StudentRow {
  student_id: string;
  program_code: string;
  enrollment_status: string;
  academic_standing: string;
}

export function studentRows(db: Database.Database): StudentRow[] {
  return allRows<StudentRow>(
    db,
    `SELECT s.student_id, p.code AS program_code, s.enrollment_status, s.academic_standing
       FROM students s JOIN programs p ON p.program_id = s.program_id ORDER BY s.student_id`,
  );
}

/** The term with grades on record most recently, and the term whose registrations are still open. */
export function gradedAndCurrentTerms(db: Database.Database): { graded: string[]; current: string } {
  const terms = allRows<{ term: string }>(db, "SELECT DISTINCT term FROM sections ORDER BY term").map(
    (row) => row.term,
  );
  const current = getRow<{ term: string | null }>(
    db,
    "SELECT MAX(s.term) AS term FROM enrollments e JOIN sections s ON s.section_id = e.section_id WHERE e.status = 'enrolled'",
  )?.term;
  if (!current) throw new Error("no registrations of a term in progress");
  return { graded: terms.filter((term) => term < current), current };
}

export function termName(calendar: CalendarTerm[], code: string): string {
  const found = calendar.find((term) => term.code === code);
  if (!found) throw new Error(`term ${code} is not in the academic calendar`);
  return found.name;
}

function describe(items: string[]): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, 12).join(", ");
  return items.length > 12 ? `${shown} and ${items.length - 12} more` : shown;
}

/** A check that two id sets are equal, naming what is missing and what is unexpected. */
export function compareIds(
  id: string,
  what: string,
  expected: Iterable<string>,
  actual: Iterable<string>,
): Check {
  const expectedSet = new Set(expected);
  const actualSet = new Set(actual);
  const missing = [...expectedSet].filter((item) => !actualSet.has(item)).sort();
  const unexpected = [...actualSet].filter((item) => !expectedSet.has(item)).sort();
  const passed = missing.length === 0 && unexpected.length === 0;
  return check(
    id,
    passed,
    passed
      ? `${what}: all ${expectedSet.size} expected and nothing else`
      : `${what}: expected ${expectedSet.size}, found ${actualSet.size}; missing ${describe(missing)}; unexpected ${describe(unexpected)}`,
  );
}

type RowChange = TableDiff["changed"][number];

/** The changes of a table diff that `allowed` rejects or that touch more columns than `column`. */
export function strayChanges(
  changes: readonly RowChange[],
  column: string,
  allowed: (change: RowChange) => boolean,
): RowChange[] {
  return changes.filter((change) => {
    if (!allowed(change)) return true;
    const { [column]: _before, ...restBefore } = change.before;
    const { [column]: _after, ...restAfter } = change.after;
    return JSON.stringify(restBefore) !== JSON.stringify(restAfter);
  });
}

/**
 * `id`: no row of the diff changed but `column` of the rows `allowed` accepts, and none was added or
 * removed; otherwise `unexpected` names the first ten stray keys.
 */
export function checkOnlyColumnChanged(
  id: string,
  diff: TableDiff,
  column: string,
  allowed: (change: RowChange) => boolean,
  texts: { success: string; unexpected: string },
): Check {
  const stray = strayChanges(diff.changed, column, allowed);
  const addedOrRemoved = diff.added.length + diff.removed.length;
  const passed = stray.length + addedOrRemoved === 0;
  const keys = stray.map((change) => change.key).slice(0, 10);
  return check(
    id,
    passed,
    passed
      ? texts.success
      : `${texts.unexpected}: ${keys.join(", ")}${addedOrRemoved > 0 ? " (rows added or removed)" : ""}`,
  );
}

/**
 * `audit-log`: each of `subjects` (enrollment ids or student ids, as `subjectOf` reads them from an entry)
 * got a new `actionType` entry in the registrar's audit log, nothing else was logged and no entry altered.
 */
export function checkAuditLog<Subject>(
  initial: Database.Database,
  final: Database.Database,
  log: {
    actionType: string;
    subjectOf: (entry: Record<string, unknown>) => NoInfer<Subject>;
    subjects: { has(subject: Subject): boolean; keys(): Iterable<Subject> };
    /** What one entry records, e.g. "grade change", and the plural the failure uses, e.g. "changes". */
    every: string;
    notLogged: string;
  },
): Check {
  const actions = diffTable(initial, final, "registrar_actions", "action_id");
  const ofType = actions.added.filter((row) => row.action_type === log.actionType);
  const logged = new Set(ofType.map(log.subjectOf));
  const unlogged = [...log.subjects.keys()].filter((subject) => !logged.has(subject));
  const stray = actions.added.filter(
    (row) => row.action_type !== log.actionType || !log.subjects.has(log.subjectOf(row)),
  );
  const altered = actions.changed.length + actions.removed.length;
  const passed = unlogged.length === 0 && stray.length === 0 && altered === 0;
  return check(
    "audit-log",
    passed,
    passed
      ? `every ${log.every} is in the audit log and nothing else was logged`
      : `audit log: ${unlogged.length} ${log.notLogged} not logged, ${stray.length} unexpected entries, ${altered} existing entries altered`,
  );
}

/** Normalises an id given as a number or string. */
export function normaliseId(value: unknown): string {
  return String(value).trim().toUpperCase();
}

/**
 * The Python helpers every oracle starts with: paging through a list tool, reading a whole file, and
 * the workspace file list. Kept in one place so the oracles read like one competent agent's habits.
 */
export const PYTHON_PRELUDE = `import json, re
from collections import defaultdict

${PYTHON_WORKSPACE_HELPERS}

files = [item["path"] for item in tools.list_files(per_page=100)["files"]]
regulations = read_text("policies/academic-regulations.md")
calendar = read_text("registrar/academic-calendar.md")
term_names = {code: name for name, code in re.findall(r"^\\| ((?:Spring|Fall) \\d{4}) \\| (\\d{6}) \\|", calendar, re.M)}
grades_due = {code: due for code, due in re.findall(r"^\\| (?:Spring|Fall) \\d{4} \\| (\\d{6}) \\| [^|]+ \\| [^|]+ \\| [^|]+ \\| (\\d{4}-\\d\\d-\\d\\d) \\|$", calendar, re.M)}
points = {grade: round(float(value) * 100) for grade, value in re.findall(r"^\\| ([A-F][+-]?) \\| (\\d\\.\\d\\d) \\|$", regulations, re.M)}
print(len(files), "files;", len(term_names), "terms;", "grade points:", points)`;
