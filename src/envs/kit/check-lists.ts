/** Verifier building blocks for checks over lists of findings and answers that map ids to amounts. */
import type { Check } from "../define-task.js";
import { check, nearlyEqual, parseAnswerJson, type TableDiff } from "../verify-helpers.js";

/**
 * A check that passes when nothing was found: its message is `success`, or `describe(found)` naming what was
 * (e.g. `(ids) => \`stray rows: ${ids.slice(0, 10).join(", ")}\``).
 */
export function checkNone<Item>(
  id: string,
  found: readonly Item[],
  success: string,
  describe: (found: readonly Item[]) => string,
): Check {
  return check(id, found.length === 0, found.length === 0 ? success : describe(found));
}

/** How an answer's id -> amount object differs from the expected amounts. */
export interface AnswerAmountsDiff {
  /** Expected ids the answer leaves out. */
  missing: string[];
  /** Ids in the answer that are not expected. */
  extra: string[];
  /** `<id>: expected 12.50, got 12.4` for every expected id whose amount is off by more than a cent. */
  wrong: string[];
}

/**
 * Compares an answer that is a JSON object of id -> amount (numbers, or text such as "$1,234.50"; ids trimmed
 * and upper-cased) with the expected amounts by id. Null when the answer holds no JSON object.
 */
export function compareAnswerAmounts(
  answer: string,
  expected: ReadonlyMap<string, number>,
): AnswerAmountsDiff | null {
  const parsed = parseAnswerJson(answer);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const given = new Map(
    Object.entries(parsed as Record<string, unknown>).map(([id, value]) => [
      id.trim().toUpperCase(),
      typeof value === "number" ? value : Number(String(value).replace(/[$,\s]/g, "")),
    ]),
  );
  return {
    missing: [...expected.keys()].filter((id) => !given.has(id)),
    extra: [...given.keys()].filter((id) => !expected.has(id)),
    wrong: [...expected]
      .filter(([id, amount]) => given.has(id) && !nearlyEqual(given.get(id)!, amount))
      .map(([id, amount]) => `${id}: expected ${amount.toFixed(2)}, got ${String(given.get(id))}`),
  };
}

/**
 * Keys of the changed rows of a table diff in which some column other than `allowed` changed (e.g. a tool
 * that may only set `status` also changed `amount`).
 */
export function keysChangedBeyond(changes: TableDiff["changed"], allowed: readonly string[]): string[] {
  return changes
    .filter((change) =>
      Object.keys(change.before).some(
        (column) => !allowed.includes(column) && change.before[column] !== change.after[column],
      ),
    )
    .map((change) => change.key);
}
