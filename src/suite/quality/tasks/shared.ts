import {
  PYTHON_WORKSPACE_HELPERS,
  REFERENCE_DATE,
  check,
  checkStateDiff,
  makeDate,
  parseAnswerJson,
  parseAnswerNumber,
  pythonPager,
  variantTaskDefiner,
} from "../../../envs/index.js";
import type { Check, TableExpectation, VerifyContext } from "../../../envs/index.js";
import { qualityDomain } from "../domain.js";

/**
 * The first cell of every quality oracle and near-miss: the shared pagers plus `call`, which retries a tool
 * that fails transiently (ToolError) or silently (a `{"status": "error"}` body), as careful code must.
 */
const PY_PRELUDE = String.raw`
import csv, io, json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}
def call(name, **args):
    last = None
    for attempt in range(4):
        try:
            result = tools[name](**args)
        except ToolError as error:
            last = error
            continue
        if isinstance(result, dict) and result.get("status") == "error":
            last = result
            continue
        return result
    raise RuntimeError("%s kept failing: %s" % (name, last))

${pythonPager({ name: "all_pages" })}

def day(text):
    return date.fromisoformat(text[:10])

print("ready")
`;

/** A quality task: the oracle and near-misses are its cell builder run on variants, after the prelude. */
export const qualityTask = variantTaskDefiner(qualityDomain, PY_PRELUDE);

const YEAR = Number(REFERENCE_DATE.slice(0, 4));
const QUARTER_NUMBER = Math.floor((Number(REFERENCE_DATE.slice(5, 7)) - 1) / 3) + 1;
/** The quarter to date: from its first day to the reference date. */
export const QUARTER = {
  start: makeDate(YEAR, (QUARTER_NUMBER - 1) * 3 + 1, 1),
  end: REFERENCE_DATE,
  label: `Q${QUARTER_NUMBER} ${YEAR}`,
};

/**
 * A write task's checks: the `changed` rows of one table changed as expected and nothing else did, and the
 * reply's first number (`answer`) is how many rows that is.
 */
export function checkRowChanges(
  { initial, final, answer }: VerifyContext,
  expectation: TableExpectation & { changed: ReadonlyMap<string | number, object> },
): Check[] {
  const count = expectation.changed.size;
  return [
    ...checkStateDiff(initial.db, final.db, [expectation]),
    check(
      "answer",
      parseAnswerNumber(answer) === count,
      `expected the answer ${count}, got '${answer.slice(0, 80)}'`,
    ),
  ];
}

/**
 * The reply's JSON list under `key` holds exactly the `expected` ids, each once: `answer-format` when there is
 * no such list, else the check `id`, whose message names the missing ids and, as `extraLabel`, the extra ones.
 */
export function checkAnswerIdList(
  answer: string,
  key: string,
  id: string,
  expected: readonly string[],
  extraLabel: string,
): Check[] {
  const list = (parseAnswerJson(answer) as Record<string, unknown> | null)?.[key];
  const given = Array.isArray(list) ? list.map(String) : null;
  if (!given) return [formatFailure(`{"${key}": [...]}`, answer)];
  const missing = expected.filter((item) => !given.includes(item));
  const extra = given.filter((item) => !expected.includes(item));
  return [
    check(
      id,
      missing.length === 0 && extra.length === 0 && given.length === new Set(given).size,
      `expected ${expected.length}; missing ${missing.join(", ") || "none"}; ${extraLabel}: ${extra.join(", ") || "none"}`,
    ),
  ];
}

/** `answer-format`: the reply does not have the shape of `example`. */
function formatFailure(example: string, answer: string): Check {
  return check("answer-format", false, `expected ${example}, got: ${answer.slice(0, 200)}`);
}

/** The checks `judge` makes of the reply's JSON object, or `answer-format` when it holds none (a list is none). */
export function checkAnswerObject(
  answer: string,
  example: string,
  judge: (given: Record<string, unknown>) => Check[],
): Check[] {
  const parsed = parseAnswerJson(answer);
  return parsed && typeof parsed === "object" && !Array.isArray(parsed)
    ? judge(parsed as Record<string, unknown>)
    : [formatFailure(example, answer)];
}

/** A check that passes when `problems` is empty; its message is `success` or the problems joined. */
export function checkNoProblems(id: string, problems: readonly string[], success: string): Check {
  return check(id, problems.length === 0, problems.length === 0 ? success : problems.join("; "));
}
