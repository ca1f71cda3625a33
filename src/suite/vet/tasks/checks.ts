import { REFERENCE_DATE, check, longDate, parseAnswerJson, type Check } from "../../../envs/index.js";

/** The date the instructions of the tasks that count from today state (the sandbox clock is not it). */
export const TODAY_TEXT = `Today is ${longDate(REFERENCE_DATE)}.`;

/** The answer as a JSON list compared, as a set, with the expected ids. */
export function checkIdList(answer: string, expected: string[]): Check {
  if (expected.length === 0) throw new Error("generation produced no case for this task");
  const parsed = parseAnswerJson(answer);
  const given = Array.isArray(parsed) ? [...new Set(parsed.map((item) => String(item).trim()))].sort() : null;
  const wanted = [...expected].sort();
  return check(
    "answer",
    JSON.stringify(given) === JSON.stringify(wanted),
    `expected ${JSON.stringify(wanted)}, got ${JSON.stringify(given)}`,
  );
}

/** Counts per key, every key present (0 included). */
export function countBy<T>(items: T[], keys: string[], keyOf: (item: T) => string): Map<string, number> {
  const counts = new Map(keys.map((key) => [key, 0]));
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}
