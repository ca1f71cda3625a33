import {
  PYTHON_WORKSPACE_HELPERS,
  check,
  checkNone as checkNoneFound,
  parseAnswerJson,
  type Check,
} from "../../envs/index.js";
/** Helpers shared by the HR tasks' verifiers and their Python solutions. */
import type Database from "better-sqlite3";

/** Python: fetch every page of a list tool (the first cell of every solution defines it). */
export const FETCH_ALL_PYTHON = `import json, re
from datetime import date

${PYTHON_WORKSPACE_HELPERS}`;

export interface EmployeeRow {
  id: string;
  department_id: number;
  position_id: number;
  employment_type: string;
  fte: number;
  status: string;
  hire_date: string;
  termination_date: string | null;
  annual_salary: number | null;
  hourly_rate: number | null;
  compensation_effective_date: string;
  department_name: string;
  grade: string;
  flsa_status: string;
  pay_type: string;
}

export function loadEmployees(db: Database.Database): Map<string, EmployeeRow> {
  const rows = db
    .prepare(
      `SELECT e.*, d.name AS department_name, p.grade, p.flsa_status, p.pay_type
         FROM employees e
         JOIN departments d ON d.id = e.department_id
         JOIN positions p ON p.id = e.position_id`,
    )
    .all() as EmployeeRow[];
  return new Map(rows.map((row) => [row.id, row]));
}

/** A short, readable list for check messages (the first few items and how many more). */
export function preview(items: readonly string[], limit = 8): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, limit).join(", ");
  return items.length > limit ? `${shown} and ${items.length - limit} more` : shown;
}

/** A check that passes when `problems` is empty: `success`, else `failure: ` and a preview of the problems. */
export function checkNone(
  id: string,
  problems: readonly string[],
  success: string,
  failure: string,
  limit?: number,
): Check {
  return checkNoneFound(id, problems, success, (found) => `${failure}: ${preview(found, limit)}`);
}

/** Reads a JSON object answer whose values are numbers (strings like "$1,234.50" are tolerated). */
export function numericRecord(value: unknown): Map<string, number> | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const result = new Map<string, number>();
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const number =
      typeof raw === "number"
        ? raw
        : typeof raw === "string"
          ? Number(raw.replace(/[$,\s]/g, ""))
          : Number.NaN;
    if (!Number.isFinite(number)) return null;
    result.set(key.trim().toUpperCase(), number);
  }
  return result;
}

export interface ReportedValuesSpec {
  /** Check ids: the employees listed, and the value given for each. */
  listedId: string;
  valuesId: string;
  /** Who should be listed ("employees owed overtime") and what the others are ("not owed anything"). */
  who: string;
  notExpected: string;
  /** Success and failure texts of the values check ("every listed amount matches the policy", "wrong amounts"). */
  valuesMatch: string;
  wrongValues: string;
  tolerance: number;
  previewLimit: number;
  /** How expected and reported values are shown in the failure text. */
  showExpected: (value: number) => string;
  showFound: (value: number | undefined) => string;
}

/** Two checks of a report mapping employee ids to numbers: exactly the expected employees, each with its value. */
export function checkReportedValues(
  reported: ReadonlyMap<string, number>,
  expected: ReadonlyMap<string, number>,
  spec: ReportedValuesSpec,
): Check[] {
  const missing = [...expected.keys()].filter((id) => !reported.has(id));
  const extra = [...reported.keys()].filter((id) => !expected.has(id));
  const wrong = [...expected]
    .filter(([id, value]) => reported.has(id) && Math.abs((reported.get(id) ?? 0) - value) > spec.tolerance)
    .map(
      ([id, value]) =>
        `${id} expected ${spec.showExpected(value)}, found ${spec.showFound(reported.get(id))}`,
    );
  return [
    check(
      spec.listedId,
      missing.length === 0 && extra.length === 0,
      missing.length === 0 && extra.length === 0
        ? `the ${expected.size} ${spec.who} are listed`
        : `expected ${expected.size} employees; missing: ${preview(missing)}; ${spec.notExpected}: ${preview(extra)}`,
    ),
    checkNone(spec.valuesId, wrong, spec.valuesMatch, spec.wrongValues, spec.previewLimit),
  ];
}

/**
 * The checks of an answer that is a JSON object of employee ids to numbers: its format, then
 * `checkReportedValues` (entries of zero or less dropped first when `positiveOnly`).
 */
export function checkEmployeeNumbers(
  answer: string,
  expected: ReadonlyMap<string, number>,
  spec: ReportedValuesSpec & { expectedShape: string; positiveOnly: boolean },
): Check[] {
  const reported = numericRecord(parseAnswerJson(answer));
  const format = check(
    "answer-format",
    reported !== null,
    reported !== null ? `answer lists ${reported.size} employees` : `expected ${spec.expectedShape}`,
  );
  if (!reported) return [format];
  const listed = spec.positiveOnly ? new Map([...reported].filter(([, value]) => value > 0.004)) : reported;
  return [format, ...checkReportedValues(listed, expected, spec)];
}
