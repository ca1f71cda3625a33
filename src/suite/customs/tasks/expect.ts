import {
  check,
  flagNearMisses,
  parseAnswerJson,
  parseAnswerNumber,
  type Check,
  type NearMiss,
  type NearMissRow,
} from "../../../envs/index.js";
import { CUSTOMS_PY } from "./python.js";

const amountOf = (value: unknown): number =>
  typeof value === "number" ? value : typeof value === "string" ? (parseAnswerNumber(value) ?? NaN) : NaN;

/** Checks an answer object of id -> amount against the expectation (ids trimmed, cents tolerance). */
export function checkAmounts(id: string, answer: string, expected: Map<string, number>): Check {
  if (expected.size === 0) throw new Error(`generation produced nothing for ${id}`);
  const actual = parseAnswerJson(answer);
  if (!actual || typeof actual !== "object" || Array.isArray(actual))
    return check(id, false, "the answer is not a JSON object");
  const given = new Map(
    Object.entries(actual as Record<string, unknown>).map(([key, value]) => [
      key.trim().toUpperCase(),
      amountOf(value),
    ]),
  );
  const problems: string[] = [];
  for (const [key, value] of expected) {
    if (!given.has(key)) problems.push(`missing ${key}`);
    else if (Math.abs(given.get(key)! - value) > 0.011)
      problems.push(`${key}: ${given.get(key)}, expected ${value.toFixed(2)}`);
  }
  for (const key of given.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return check(
    id,
    problems.length === 0,
    problems.length === 0 ? `all ${expected.size} amounts match` : problems.slice(0, 8).join("; "),
  );
}

/** Checks a reply that is only a count. */
export function checkCount(answer: string, expected: number): Check {
  return check(
    "answer",
    parseAnswerNumber(answer) === expected,
    `expected ${expected}, got '${answer.trim().slice(0, 80)}'`,
  );
}

/**
 * A task's oracle and near-misses: the customs helpers, then `setup` after the NEAR flags, then `body`. Each
 * near-miss row is `[id, description, ...NEAR flags]`.
 */
export function customsPrograms(
  setup: string,
  body: string,
  rows: readonly NearMissRow[],
): { oracle: string[]; nearMisses: NearMiss[] } {
  const cells = (near: string[]): string[] => [
    CUSTOMS_PY,
    `NEAR = set(${JSON.stringify(near)})\n${setup}`,
    body,
  ];
  return {
    oracle: cells([]),
    nearMisses: flagNearMisses(cells, rows),
  };
}
