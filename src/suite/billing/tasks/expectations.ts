import {
  check,
  checkStateDiff,
  groupBy,
  parseAnswerNumber,
  type Check,
  type Row,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { graduatedCharge, type PlanSpec } from "../rules.js";

/** Overage charge per subscription for a date range, from the plans and tiers in the database. */
export function overageCharges(state: StateView, from: string, to: string): Map<string, number> {
  const tierRows = state.db
    .prepare(
      "SELECT plan_code, from_calls, to_calls, price_per_1000 FROM price_tiers ORDER BY plan_code, tier_no",
    )
    .all() as Array<{
    plan_code: string;
    from_calls: number;
    to_calls: number | null;
    price_per_1000: number;
  }>;
  const tiers = groupBy(
    tierRows,
    (row) => row.plan_code,
    (row): PlanSpec["tiers"][number] => [row.from_calls, row.to_calls, row.price_per_1000],
  );
  const rows = state.db
    .prepare(
      `SELECT s.subscription_id, s.plan_code, p.included_api_calls AS included, SUM(u.api_calls) AS calls
         FROM usage_records u JOIN subscriptions s ON s.subscription_id = u.subscription_id
         JOIN plans p ON p.plan_code = s.plan_code
        WHERE u.usage_date BETWEEN ? AND ? AND s.status != 'cancelled'
        GROUP BY s.subscription_id ORDER BY s.subscription_id`,
    )
    .all(from, to) as Array<{ subscription_id: string; plan_code: string; included: number; calls: number }>;
  const charges = new Map<string, number>();
  for (const row of rows) {
    const charge = graduatedCharge(Math.max(0, row.calls - row.included), tiers.get(row.plan_code) ?? []);
    if (charge > 0) charges.set(row.subscription_id, charge);
  }
  return charges;
}

/** An amount as an agent may write it: a number, or text such as "$1,234.50" or "431.25 USD". */
export function answerAmount(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string") return parseAnswerNumber(value) ?? NaN;
  return NaN;
}

/** Compares an answer object of id -> amount with the expectation; returns problems. */
export function compareAmounts(actual: unknown, expected: Map<string, number>): string[] {
  if (!actual || typeof actual !== "object" || Array.isArray(actual))
    return ["the answer is not a JSON object"];
  const problems: string[] = [];
  const given = new Map(
    Object.entries(actual as Record<string, unknown>).map(([key, value]) => [
      key.trim(),
      answerAmount(value),
    ]),
  );
  for (const [key, value] of expected) {
    if (!given.has(key)) problems.push(`missing ${key}`);
    else if (Math.abs((given.get(key) ?? NaN) - value) > 0.011)
      problems.push(`${key}: ${given.get(key)}, expected ${value.toFixed(2)}`);
  }
  for (const key of given.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return problems;
}

/** `answer`: the reply's number is the count of changes the task expects. */
export function answerCountCheck(answer: string, expected: number): Check {
  return check(
    "answer",
    parseAnswerNumber(answer) === expected,
    `expected ${expected}, got '${answer.trim()}'`,
  );
}

/**
 * The verifier of a task that issues credit notes: exactly the `expected(initial)` notes are added (none
 * expected means the generator failed to plant `what`), and the reply gives their count.
 */
export function creditNotesVerifier(expected: (state: StateView) => Row[], what: string) {
  return ({ initial, final, answer }: VerifyContext): Check[] => {
    const notes = expected(initial);
    if (notes.length === 0) throw new Error(`generation produced no ${what}`);
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "credit_notes", key: "credit_note_id", added: notes },
      ]),
      answerCountCheck(answer, notes.length),
    ];
  };
}

/** A check that passes when `problems` is empty; its message names the first ten problems or `success`. */
export function problemsCheck(id: string, problems: readonly string[], success: string): Check {
  return check(id, problems.length === 0, problems.length === 0 ? success : problems.slice(0, 10).join("; "));
}
