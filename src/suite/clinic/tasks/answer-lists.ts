import { check, type Check } from "../../../envs/index.js";

/**
 * The `answer` check of a reply that lists ids: passes when `given` holds each expected item exactly once and
 * nothing else; `described` names what they are (`cancelled appointments`), `label` what the ids are (`MRNs`).
 */
export function checkAnswerListsExactly<Item>(
  answer: string,
  given: readonly Item[],
  expected: readonly Item[],
  described: string,
  label: string,
): Check {
  const exact =
    given.length === expected.length &&
    new Set(given).size === given.length &&
    given.every((item) => expected.includes(item));
  return check(
    "answer",
    exact,
    exact
      ? `answer lists the ${expected.length} ${described}`
      : `expected the ${label} ${JSON.stringify(expected)}, found '${answer.slice(0, 200)}'`,
  );
}

/** How a listed answer differs from the expected items, and how much of each side a message names. */
export interface ListDifference {
  missing: readonly string[];
  extra: ReadonlyArray<string | number>;
  /** Says what was expected, e.g. `expected 4 pairs`. */
  summary: string;
  /** Names the extra items, e.g. `not conflicts`. */
  extraLabel: string;
  missingLimit?: number;
  extraLimit?: number;
}

/** Passes when nothing is missing or extra; the message names the first of each (`none` when a side is empty). */
export function checkListedItems(id: string, difference: ListDifference, success: string): Check {
  const { missing, extra, summary, extraLabel, missingLimit = 10, extraLimit = 10 } = difference;
  const exact = missing.length === 0 && extra.length === 0;
  const missed = missing.slice(0, missingLimit).join(", ") || "none";
  const surplus = extra.slice(0, extraLimit).join(", ") || "none";
  return check(id, exact, exact ? success : `${summary}; missing ${missed}; ${extraLabel}: ${surplus}`);
}
