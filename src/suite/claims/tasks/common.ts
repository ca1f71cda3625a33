import { variantTaskDefiner } from "../../../envs/index.js";
import { claimsDomain } from "../domain.js";
import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  check,
  checkOtherTablesUnchanged,
  checkStateDiff,
  nearlyEqual,
  parseAnswerJson,
  type Check,
  type Row,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";

/** The first cell of every claims oracle and near-miss: imports, the shared pagers, `md_table` and a date helper. */
export const PYTHON_SETUP = String.raw`
import json, re
from datetime import date
${PYTHON_WORKSPACE_HELPERS}
def days(a, b):
    return (date.fromisoformat(b) - date.fromisoformat(a)).days
${PYTHON_MARKDOWN_HELPERS}
print("ready")
`;

/** A claims task whose oracle and near-misses are its cell builder run on variants, after PYTHON_SETUP. */
export const defineClaimsTask = variantTaskDefiner(claimsDomain, PYTHON_SETUP);

/** Whether the answer's JSON list under `key` holds exactly the expected ids (order free, no duplicates). */
export function answerListCheck(id: string, answer: string, key: string, expected: readonly string[]): Check {
  const parsed = parseAnswerJson(answer) as Record<string, unknown> | null;
  const raw = parsed?.[key];
  const given = Array.isArray(raw) ? raw.map((item) => String(item).trim().toUpperCase()) : null;
  const want = new Set(expected);
  const ok =
    given !== null &&
    given.length === want.size &&
    new Set(given).size === given.length &&
    given.every((item) => want.has(item));
  return check(
    id,
    ok,
    ok
      ? `answer lists the ${expected.length} expected ids`
      : `expected {"${key}": ${JSON.stringify([...expected])}}, found '${answer.slice(0, 200)}'`,
  );
}

/**
 * Whether the dollar amount under `key` (e.g. `total_excess`) in the JSON answer, as `read` takes it (null or
 * not finite: unreadable), is within a cent of `expected`.
 */
export function answerTotalCheck(
  id: string,
  answer: string,
  key: string,
  expected: number,
  read: (given: unknown) => number | null,
): Check {
  const given = (parseAnswerJson(answer) as Record<string, unknown> | null)?.[key];
  const total = read(given);
  const ok = total !== null && Number.isFinite(total) && nearlyEqual(total, expected, 0.011);
  const amount = expected.toFixed(2);
  return check(
    id,
    ok,
    ok ? `${key.replace("_", " ")} ${amount}` : `expected ${key} ${amount}, found ${String(given)}`,
  );
}

/** The verifier of a read-only task: the answer's list under `key` is exactly `expected(initial)`, nothing changed. */
export function listAnswerVerifier(
  id: string,
  key: string,
  expected: (state: StateView) => readonly string[],
) {
  return ({ initial, final, answer }: VerifyContext): Check[] => [
    answerListCheck(id, answer, key, expected(initial)),
    checkOtherTablesUnchanged(initial.db, final.db, []),
  ];
}

/**
 * The state checks of a claims write task: exactly these claims change to these values, and (when `notes`
 * is given) exactly these claim notes are added; no other table changes.
 */
export function claimChanges(
  { initial, final }: Pick<VerifyContext, "initial" | "final">,
  changed: Iterable<readonly [string, Row]>,
  notes?: Row[],
): Check[] {
  return checkStateDiff(initial.db, final.db, [
    { table: "claims", key: "claim_id", changed: new Map(changed) },
    ...(notes ? [{ table: "claim_notes", key: "note_id", added: notes }] : []),
  ]);
}

/**
 * The verifier of a task that makes the same `change` to every claim of `expected(initial)`, each with a
 * claims-desk note, and lists those claims under `key` in its answer.
 */
export function deskWriteVerifier(
  id: string,
  key: string,
  expected: (state: StateView) => string[],
  change: Row,
) {
  return (context: VerifyContext): Check[] => {
    const claims = expected(context.initial);
    return [
      ...claimChanges(
        context,
        claims.map((claim) => [claim, change]),
        deskNotes(claims),
      ),
      answerListCheck(id, context.answer, key, claims),
    ];
  };
}

/** The note the claims desk's write tools add to each of these claims. */
export function deskNotes(claims: Iterable<string>): Row[] {
  return [...claims].map((claim) => ({ claim_id: claim, author: "Claims desk" }));
}
