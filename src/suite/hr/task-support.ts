import { PYTHON_WORKSPACE_HELPERS } from "../../envs/index.js";
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
