import { check, parseAnswerJson, type Check } from "../../../envs/index.js";

/** The last dollar amount of a reply (a reply may list items before its total), or NaN. */
export function lastDollarAmount(answer: string): number {
  const found = [...answer.matchAll(/\$\s*(-?[\d,]*\d(?:\.\d+)?)/g)].at(-1)?.[1];
  return found === undefined ? NaN : Number(found.replace(/,/g, ""));
}

/** A check that the reply's total (its last dollar amount) is the expected one, to the cent. */
export function checkTotal(answer: string, expected: number): Check {
  const stated = lastDollarAmount(answer);
  return check(
    "answer-total",
    Math.abs(stated - expected) < 0.015,
    `expected a total of $${expected.toFixed(2)}, got ${stated}`,
  );
}

/** A check that the reply's first number (a count) is the expected one. */
export function checkCount(answer: string, expected: number): Check {
  const stated = Number(/\d+/.exec(answer.replace(/AWD-\d+|EMP-\d+/g, ""))?.[0]);
  return check(
    "answer-count",
    stated === expected,
    `expected ${expected}, got '${answer.trim().slice(0, 80)}'`,
  );
}

/** A check that the reply is a JSON object of id -> list of ids equal to the expected one (lists as sets). */
export function checkIdLists(answer: string, expected: Map<string, string[]>): Check {
  const value = parseAnswerJson(answer);
  if (!value || typeof value !== "object" || Array.isArray(value))
    return check("answer", false, "the answer is not a JSON object");
  const given = new Map(
    Object.entries(value as Record<string, unknown>).map(([key, list]) => [
      key.trim(),
      Array.isArray(list) ? [...new Set(list.map(String))].sort().join(",") : "?",
    ]),
  );
  const problems = [...expected]
    .filter(([key, list]) => given.get(key) !== [...list].sort().join(","))
    .map(([key, list]) => `${key}: expected ${list.join(",")}, got ${given.get(key) ?? "nothing"}`);
  for (const key of given.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return check(
    "answer",
    problems.length === 0,
    problems.length === 0 ? `all ${expected.size} match` : problems.slice(0, 5).join("; "),
  );
}
