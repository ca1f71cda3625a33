/** Reading the agents' answers the same way in every oncall task. */
import { check, parseAnswerJson, parseAnswerList, parseAnswerNumber } from "../../../envs/index.js";
import type { Check, NearMiss } from "../../../envs/index.js";

/** The answer lists exactly the expected ids (order free, trimmed, upper-cased). */
export function checkIdList(answer: string, expected: string[]): Check {
  const given = parseAnswerList(answer)
    .map((id) => id.toUpperCase())
    .sort();
  const same = JSON.stringify(given) === JSON.stringify([...expected].sort());
  return check("answer", same, same ? `${expected.length} ids` : `expected ${JSON.stringify(expected)}`);
}

/** The answer is a JSON object mapping exactly the expected keys to the expected ids. */
export function checkIdMap(answer: string, expected: Map<string, string>): Check {
  const parsed = parseAnswerJson(answer);
  const given = new Map(
    parsed && typeof parsed === "object" ? Object.entries(parsed).map(([k, v]) => [k, String(v)]) : [],
  );
  const ok =
    given.size === expected.size &&
    [...expected].every(([key, id]) => given.get(key)?.trim().toUpperCase() === id);
  return check(
    "answer",
    ok,
    ok ? `${expected.size} entries` : `expected ${JSON.stringify(Object.fromEntries(expected))}`,
  );
}

/** The first number of the reply is the expected count. */
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
