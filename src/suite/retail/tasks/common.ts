import {
  PYTHON_WORKSPACE_HELPERS,
  check,
  checkNone,
  nearlyEqual,
  parseAnswerJson,
  pythonClientHelpers,
  type Check,
  type TableDiff,
} from "../../../envs/index.js";

/** Python the oracle and near-miss programs start with: paging, reading files, listing folders, day counts, `once(cache, key, load)`. */
export const FETCH_ALL_PY = `import csv, io, json, re
from datetime import date, timedelta

${PYTHON_WORKSPACE_HELPERS}
${pythonClientHelpers()}

def once(cache, key, load):
    if key not in cache:
        cache[key] = load()
    return cache[key]

def days_between(earlier, later):
    return (date.fromisoformat(later[:10]) - date.fromisoformat(earlier[:10])).days
`;

/** A Python boolean literal, for the flags that turn an oracle into a near-miss. */
export function py(flag: boolean): string {
  return flag ? "True" : "False";
}

/** The entries of a JSON object answer; none when the answer holds no object. */
export function answerEntries(answer: string): Array<[string, unknown]> {
  const parsed = parseAnswerJson(answer);
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? Object.entries(parsed) : [];
}

/** A dollar amount as answered: a number, or text such as "$1,234.50". */
export function amountOf(value: unknown): number {
  return typeof value === "number" ? value : Number(String(value).replace(/[$,\s]/g, ""));
}

/** The expected amounts the answer misses or gets wrong by more than a cent, named by `label(key)`. */
export function wrongAmounts(
  expected: Readonly<Record<string, number>>,
  given: (key: string) => number | undefined,
  label: (key: string) => string,
): string[] {
  const problems: string[] = [];
  for (const [key, amount] of Object.entries(expected)) {
    const found = given(key);
    if (found === undefined || !nearlyEqual(found, amount, 0.011))
      problems.push(`${label(key)}: expected ${amount.toFixed(2)}, found ${found ?? "missing"}`);
  }
  return problems;
}

/** A check that passes without problems; its message is `success` or the first `shown` problems after `prefix`. */
export function checkListed(
  id: string,
  problems: readonly string[],
  success: string,
  shown: number,
  prefix = "",
  separator = "; ",
): Check {
  return checkNone(id, problems, success, (found) => prefix + found.slice(0, shown).join(separator));
}

/** The answer's list of order ids under `key`, deduplicated and sorted; null when there is no such list. */
function answerIdList(answer: string, key: string): number[] | null {
  const parsed = parseAnswerJson(answer) as Record<string, unknown> | null;
  const value = parsed && typeof parsed === "object" ? parsed[key] : undefined;
  if (!Array.isArray(value)) return null;
  return [...new Set(value.map((item) => Number(String(item).replace(/\D/g, ""))))].sort((a, b) => a - b);
}

/** `id`: the answer's id list under `key` is exactly `expected` (ascending). */
export function checkAnswerIdList(
  id: string,
  answer: string,
  key: string,
  expected: readonly number[],
): Check {
  const given = answerIdList(answer, key);
  return check(
    id,
    JSON.stringify(given) === JSON.stringify(expected),
    `expected ${JSON.stringify(expected)}, found ${JSON.stringify(given)}`,
  );
}

/** Whether a changed row changed in a column other than `columns`. */
export function changedOutside(change: TableDiff["changed"][number], columns: readonly string[]): boolean {
  return Object.keys(change.after).some(
    (column) => !columns.includes(column) && change.after[column] !== change.before[column],
  );
}

/** Rows added or removed (`added 7`, `removed 9`) and changed rows `allowed` rejects (`<changedLabel> 12`). */
export function strayRows(
  diff: TableDiff,
  allowed: (change: TableDiff["changed"][number]) => boolean,
  changedLabel = "changed",
): string[] {
  return [
    ...diff.added.map((row) => `added ${String(row.id)}`),
    ...diff.removed.map((row) => `removed ${String(row.id)}`),
    ...diff.changed.filter((change) => !allowed(change)).map((change) => `${changedLabel} ${change.key}`),
  ];
}
