import { check, parseAnswerJson, type Check } from "../../../envs/index.js";

/** A check that passes when there are no problems; its message names the first ones. */
export function checkProblems(id: string, problems: string[], success: string): Check {
  return check(id, problems.length === 0, problems.length === 0 ? success : problems.slice(0, 5).join("; "));
}

/** A check that the reply's total (its last dollar amount) is the expected one, to the cent. */
export function checkTotal(answer: string, expected: number): Check {
  const stated = [...answer.matchAll(/\$\s*(-?[\d,]*\d(?:\.\d+)?)/g)].at(-1)?.[1]?.replace(/,/g, "");
  const problems =
    Math.abs(Number(stated) - expected) < 0.015 ? [] : [`expected $${expected.toFixed(2)}, got ${stated}`];
  return checkProblems("answer-total", problems, "the total matches");
}

/** A check that the reply's first number (a count, ids aside) is the expected one. */
export function checkCount(answer: string, expected: number): Check {
  const stated = Number(/\d+/.exec(answer.replace(/[A-Z]+-\d+/g, ""))?.[0]);
  return checkProblems(
    "answer-count",
    stated === expected ? [] : [`expected ${expected}, got ${stated}`],
    "count ok",
  );
}

/** A check that the reply is a JSON object of id -> list of ids equal to the expected one (lists as sets). */
export function checkIdLists(answer: string, expected: Map<string, string[]>): Check {
  const value = parseAnswerJson(answer);
  const given = new Map(
    Object.entries(value && typeof value === "object" ? value : {}).map(([key, list]) => [
      key.trim(),
      Array.isArray(list) ? [...new Set(list.map(String))].sort().join(",") : "?",
    ]),
  );
  const problems = [...expected]
    .filter(([key, list]) => given.get(key) !== [...list].sort().join(","))
    .map(([key, list]) => `${key}: expected ${list.join(",")}, got ${given.get(key) ?? "nothing"}`);
  for (const key of given.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return checkProblems("answer", problems, `all ${expected.size} match`);
}

/** Throws when generation left a task without a case to act on (the verifier would reward doing nothing). */
export function nonEmpty<T extends { size: number } | { length: number }>(value: T, what: string): T {
  if (("size" in value ? value.size : value.length) === 0) throw new Error(`generation produced no ${what}`);
  return value;
}
