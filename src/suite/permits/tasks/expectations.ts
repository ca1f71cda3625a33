/**
 * What the permits tasks expect, computed from an instance's initial state: the database and the workspace
 * documents as the agent read them.
 */
import type { Check, StateView } from "../../../envs/index.js";
import {
  REFERENCE_DATE,
  addBusinessDays,
  allRows,
  check,
  nearlyEqual,
  parseAnswerJson,
  parseCsv,
} from "../../../envs/index.js";
import { INSPECTION_POLICY, ROSTER } from "../documents.js";

export function requireFile(state: StateView, path: string): string {
  const text = state.readFile(path);
  if (text === null) throw new Error(`workspace file ${path} is missing`);
  return text;
}

/** Issued permits whose contractor's license is suspended, expired, or past its expiry date. */
export function stopWorkTargets(state: StateView): string[] {
  const ids = allRows<{ permit_id: string }>(
    state.db,
    `SELECT p.permit_id FROM permits p JOIN contractors c ON c.license_id = p.contractor_id
      WHERE p.status = 'issued' AND (c.status <> 'active' OR c.license_expires < ?) ORDER BY p.permit_id`,
    REFERENCE_DATE,
  ).map((row) => row.permit_id);
  if (ids.length === 0) throw new Error("generation produced no permit under a lapsed license");
  return ids;
}

const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"];

/** The re-inspection booking date the memo sets (its business-day lead counted from today). */
export function reinspectionDate(state: StateView): string {
  const found = /for the (\w+) business day/.exec(requireFile(state, INSPECTION_POLICY));
  const lead = ORDINALS.indexOf(found?.[1] ?? "") + 1;
  if (lead === 0) throw new Error("cannot read the re-inspection lead from the memo");
  return addBusinessDays(REFERENCE_DATE, lead);
}

export const NO_REVISIT = /photo verification accepted|verified at final/i;

/** Per issued permit and inspection type, the latest inspection when it failed and its notes ask for a visit. */
export function reinspectionTargets(
  state: StateView,
): Array<{ permit_id: string; inspection_type: string; inspector: string }> {
  const rows = allRows<{
    permit_id: string;
    inspection_type: string;
    inspector: string;
    result: string;
    notes: string;
  }>(
    state.db,
    `SELECT i.permit_id, i.inspection_type, i.inspector, i.result, i.notes FROM inspections i
       JOIN permits p ON p.permit_id = i.permit_id
      WHERE p.status = 'issued' ORDER BY i.permit_id, i.scheduled_for, i.inspection_id`,
  );
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) latest.set(`${row.permit_id}|${row.inspection_type}`, row);
  const targets = [...latest.values()]
    .filter((row) => row.result === "fail" && !NO_REVISIT.test(row.notes))
    .map(({ permit_id, inspection_type, inspector }) => ({ permit_id, inspection_type, inspector }));
  if (targets.length === 0) throw new Error("generation produced no failed inspection to follow up");
  return targets;
}

/** The roster's backup inspector for each inspector. */
export function rosterBackups(state: StateView): Map<string, string> {
  return new Map(parseCsv(requireFile(state, ROSTER)).map((row) => [row.inspector!, row.backup_inspector!]));
}

/** Reads a JSON object answer with numeric values; null when the answer has none. */
export function answerAmounts(answer: string): Map<string, number> | null {
  const value = parseAnswerJson(answer);
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const amounts = new Map<string, number>();
  for (const [key, amount] of Object.entries(value as Record<string, unknown>)) {
    const number = typeof amount === "number" ? amount : Number(String(amount).replace(/[$,\s]/g, ""));
    if (!Number.isFinite(number)) return null;
    amounts.set(key.trim(), number);
  }
  return amounts;
}

/** One check: the answer's object has exactly the expected keys, each number within `tolerance`. */
export function checkAmounts(
  id: string,
  answer: string,
  expected: Map<string, number>,
  tolerance = 0.006,
): Check {
  const actual = answerAmounts(answer);
  if (actual === null) return check(id, false, "the answer holds no JSON object of amounts");
  const problems: string[] = [];
  for (const [key, amount] of expected) {
    const got = actual.get(key);
    if (got === undefined) problems.push(`missing ${key}`);
    else if (!nearlyEqual(got, amount, tolerance)) problems.push(`${key}: expected ${amount}, got ${got}`);
  }
  for (const key of actual.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return check(
    id,
    problems.length === 0,
    problems.length === 0 ? "amounts match" : problems.slice(0, 5).join("; "),
  );
}
