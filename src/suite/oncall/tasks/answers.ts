/** Reading the agents' JSON answers the same way in every oncall task. */
import { check, parseAnswerJson, parseAnswerNumber } from "../../../envs/index.js";
import type { Check, NearMiss } from "../../../envs/index.js";

/** Checks a JSON array answer holds exactly the expected ids (order free, trimmed, upper-cased). */
export function checkIdList(answer: string, expected: string[]): Check {
  const parsed = parseAnswerJson(answer);
  const given = Array.isArray(parsed) ? parsed.map((item) => String(item).trim().toUpperCase()).sort() : null;
  const wanted = [...expected].sort();
  const same =
    given !== null && given.length === wanted.length && given.every((id, index) => id === wanted[index]);
  return check(
    "answer",
    same,
    same ? `${wanted.length} ids` : `expected ${JSON.stringify(wanted)}, got ${answer.slice(0, 300)}`,
  );
}

/** Checks a JSON object answer maps exactly the expected keys to the expected values (numbers within `tolerance`). */
export function checkAnswerMap(answer: string, expected: Map<string, string | number>, tolerance = 0): Check {
  const parsed = parseAnswerJson(answer);
  const given =
    parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  const problems: string[] = [];
  if (given === null) problems.push("the answer is not a JSON object");
  else {
    if (Object.keys(given).length !== expected.size)
      problems.push(`expected ${expected.size} entries, got ${Object.keys(given).length}`);
    for (const [key, value] of expected) {
      const actual = given[key];
      const ok =
        typeof value === "number"
          ? typeof actual === "number" && Math.abs(actual - value) <= tolerance
          : String(actual).trim().toUpperCase() === value;
      if (!ok) problems.push(`${key}: expected ${value}, got ${JSON.stringify(actual)}`);
    }
  }
  return check(
    "answer",
    problems.length === 0,
    problems.length === 0 ? `${expected.size} entries` : problems.slice(0, 5).join("; "),
  );
}

/** Checks the first number of a reply is the expected count. */
export function checkCount(answer: string, expected: number, noun: string): Check {
  const given = parseAnswerNumber(answer);
  return check(
    "answer-count",
    given === expected,
    `expected ${expected} ${noun}, answer says ${answer.slice(0, 80)}`,
  );
}

/** Near-misses as `[id, description, variant]` rows of one cells builder. */
export function nearMissesOf<Variant>(
  cells: (variant: Variant) => string[],
  rows: Array<[id: string, description: string, variant: Variant]>,
): NearMiss[] {
  return rows.map(([id, description, variant]) => ({ id, description, cells: cells(variant) }));
}
