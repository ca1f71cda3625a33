/** Checks of an agent's reply that task verifiers keep writing: a total, a count, a JSON map of id lists. */
import type { Check } from "../define-task.js";
import { check, parseAnswerJson, parseAnswerList } from "../verify-helpers.js";

/** A check that passes when `problems` is empty; its message names the first five problems or `success`. */
export function checkProblems(id: string, problems: readonly string[], success: string): Check {
  return check(id, problems.length === 0, problems.length === 0 ? success : problems.slice(0, 5).join("; "));
}

const AMOUNTS = {
  $: /\$\s*(-?[\d,]*\d(?:\.\d+)?)/g,
  "€": /€\s*(-?[\d,]*\d(?:\.\d+)?)/g,
} as const;

/**
 * `answer-total`: the reply's last amount in `symbol` (`$1,234.50`, `$ 95`; `€` for a euro domain) is `expected`
 * within half a cent plus a cent, so a reply may list items before its total.
 */
export function checkAnswerTotal(
  answer: string,
  expected: number,
  symbol: keyof typeof AMOUNTS = "$",
): Check {
  const stated = [...answer.matchAll(AMOUNTS[symbol])].at(-1)?.[1]?.replace(/,/g, "");
  const wrong = !(Math.abs(Number(stated) - expected) < 0.015);
  return checkProblems(
    "answer-total",
    wrong ? [`expected ${symbol}${expected.toFixed(2)}, got ${stated}`] : [],
    "ok",
  );
}

/** `answer-count`: the reply's first number, ids such as `AWD-10007` or `INV-42` skipped, is `expected`. */
export function checkAnswerCount(answer: string, expected: number): Check {
  const stated = Number(/\d+/.exec(answer.replace(/[A-Za-z]+-\d+/g, ""))?.[0]);
  return checkProblems(
    "answer-count",
    stated === expected ? [] : [`expected ${expected}, got ${stated}`],
    "ok",
  );
}

/**
 * `answer`: the reply is a JSON object of key -> list of ids with exactly the expected keys, each list the
 * expected set (order and repeats ignored).
 */
export function checkAnswerIdLists(answer: string, expected: ReadonlyMap<string, readonly string[]>): Check {
  const value = parseAnswerJson(answer);
  const entries = Object.entries(value !== null && typeof value === "object" ? value : {});
  const set = (list: unknown): string =>
    Array.isArray(list) ? [...new Set(list.map(String))].sort().join() : "?";
  const given = new Map(entries.map(([key, list]) => [key.trim(), set(list)]));
  const problems = [...expected]
    .filter(([key, list]) => given.get(key) !== set(list))
    .map(([key, list]) => `${key}: expected ${set(list)}, got ${given.get(key) ?? "nothing"}`);
  for (const key of given.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return checkProblems("answer", problems, `all ${expected.size} match`);
}

/**
 * `answer`: the reply lists exactly the expected ids (a JSON array, or lines / commas), order free, each trimmed and
 * upper-cased; repeats count.
 */
export function checkAnswerIds(answer: string, expected: readonly string[]): Check {
  const given = parseAnswerList(answer)
    .map((id) => id.toUpperCase())
    .sort();
  const same = JSON.stringify(given) === JSON.stringify([...expected].sort());
  return check("answer", same, same ? `${expected.length} ids` : `expected ${JSON.stringify(expected)}`);
}

/**
 * `answer-counts`: the reply is a JSON object giving every expected count (`{"approved": 3, "rejected": 1}`;
 * numbers may be strings, other keys are ignored). The message shows the expected counts and the reply's start.
 */
export function checkAnswerTally(answer: string, counts: Readonly<Record<string, number>>): Check {
  const parsed = parseAnswerJson(answer) as Record<string, unknown> | null;
  const answered =
    parsed !== null &&
    typeof parsed === "object" &&
    Object.entries(counts).every(([key, count]) => Number(parsed[key]) === count);
  return check(
    "answer-counts",
    answered,
    `expected ${JSON.stringify(counts)}, found ${answer.trim().slice(0, 200) || "(empty answer)"}`,
  );
}
