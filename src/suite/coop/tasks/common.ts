/** What every coop task shares: the domain, and oracle/near-miss cells built from one variant. */
import {
  checkProblems,
  longDate,
  parseAnswerJson,
  parseAnswerList,
  REFERENCE_DATE,
  variantTaskDefiner,
} from "../../../envs/index.js";
import type { Check } from "../../../envs/index.js";
import { coopDomain } from "../domain.js";
import { COOP_PY } from "./python.js";

/** Opens the instructions whose answer depends on what day it is. */
export const TODAY_TEXT = `Today is ${longDate(REFERENCE_DATE)}.`;

/** A coop task: the oracle and near-misses are its cell builder run on variants, after COOP_PY. */
export const defineCoopTask = variantTaskDefiner(coopDomain, COOP_PY);

/** The answer lists exactly the expected ids (order free). */
export function checkIdList(answer: string, expected: string[]): Check {
  const given = JSON.stringify(
    parseAnswerList(answer)
      .map((id) => id.trim().toUpperCase())
      .sort(),
  );
  const wanted = JSON.stringify([...expected].sort());
  return checkProblems("answer", given === wanted ? [] : [`expected ${wanted}`], `${expected.length} ids`);
}

/** The answer is `{outer: {inner: number}}` with exactly the expected pairs, each within the tolerance. */
export function checkNestedAmounts(
  answer: string,
  expected: Map<string, Map<string, number>>,
  tolerance: number,
): Check {
  const value = parseAnswerJson(answer);
  const given = new Map<string, number>();
  if (value && typeof value === "object")
    for (const [outer, inner] of Object.entries(value as Record<string, unknown>))
      if (inner && typeof inner === "object")
        for (const [key, amount] of Object.entries(inner as Record<string, unknown>))
          given.set(`${outer.trim()}/${key.trim()}`, Number(amount));
  const problems: string[] = [];
  for (const [outer, inner] of expected)
    for (const [key, amount] of inner) {
      const got = given.get(`${outer}/${key}`);
      if (got === undefined || !(Math.abs(got - amount) <= tolerance))
        problems.push(`${outer}/${key}: expected ${amount}, got ${got}`);
      given.delete(`${outer}/${key}`);
    }
  for (const key of given.keys()) problems.push(`unexpected ${key}`);
  return checkProblems("answer", problems, "all match");
}
