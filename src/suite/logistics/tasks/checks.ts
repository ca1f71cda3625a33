import {
  check,
  parseAnswerJson,
  parseAnswerNumber,
  variantNearMisses,
  type Check,
  type NearMiss,
} from "../../../envs/index.js";

/** The reply's JSON object, or null when it holds none (an array is not one). */
export function answerObject(answer: string): Record<string, unknown> | null {
  const parsed = parseAnswerJson(answer);
  return parsed && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : null;
}

/** A figure given as a number or inside text ("12 breaches", "1,234.50"); NaN when there is none. */
export const answerNumber = (value: unknown): number =>
  typeof value === "number" ? value : (parseAnswerNumber(String(value)) ?? NaN);

/** A dollar amount given as a number or as text such as "$1,234.50"; NaN when it is not one. */
export const answerDollars = (value: unknown): number => Number(String(value).replace(/[$,\s]/g, ""));

/** One check of a reply that should be the JSON object `expected`; a failure shows both. */
export function checkAnswerObject(
  id: string,
  answer: string,
  expected: ReadonlyMap<string, unknown>,
  ok: boolean,
  success: string,
): Check {
  return check(
    id,
    ok,
    ok
      ? success
      : `expected ${JSON.stringify(Object.fromEntries(expected))}, found '${answer.slice(0, 300)}'`,
  );
}

/** A check whose message is `success` when it passes and `failure()` when it does not. */
export function verdict(id: string, ok: boolean, success: string, failure: () => string): Check {
  return check(id, ok, ok ? success : failure());
}

/** Near-misses of an oracle built as `cells({})`: one per entry, the cells with that entry's options set. */
export function optionNearMisses<Options extends object>(
  cells: (options: Options) => string[],
  misses: Record<string, readonly [change: Partial<Options>, description: string]>,
): NearMiss[] {
  return variantNearMisses(cells, {} as Options, misses);
}
