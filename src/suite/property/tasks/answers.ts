import { check, nearlyEqual, parseAnswerJson } from "../../../envs/index.js";
import type { Check } from "../../../envs/index.js";

/** `answer-total`: the reply's first dollar amount with cents (`$1,234.50`) is `total`. */
export function checkStatedTotal(answer: string, total: number): Check {
  const stated = /\$\s*([\d,]+\.\d{2})/.exec(answer);
  return check(
    "answer-total",
    stated !== null && nearlyEqual(Number(stated[1]!.replace(/,/g, "")), total),
    `expected a total of $${total.toFixed(2)}`,
  );
}

/** The reply's JSON object (an array is none), or null. */
export function answerObject(answer: string): Record<string, unknown> | null {
  const parsed = parseAnswerJson(answer);
  return parsed && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : null;
}
