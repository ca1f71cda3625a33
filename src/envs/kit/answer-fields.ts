/**
 * Reading one field of a JSON reply such as `{"swaps": {"FL-00012": "N104RA"}, "not_accommodated": ["BK-000031"]}`,
 * for verifiers that compare it with their own expectation and word their own checks.
 */
import { parseAnswerJson } from "../verify-helpers.js";

/**
 * The entries of the object under `key` of the reply's JSON object (of the reply's JSON object itself without a
 * key), as `Object.entries` gives them (keys untouched, so the caller normalises them), or null when there is no
 * object there.
 *
 * @example
 * const entries = answerObjectEntries(answer, "changed");
 * const given = entries && new Map(entries.map(([tail, status]) => [tail.trim().toUpperCase(), String(status)]));
 */
export function answerObjectEntries(answer: string, key?: string): Array<[string, unknown]> | null {
  const parsed = parseAnswerJson(answer);
  const value = key === undefined ? parsed : (parsed as Record<string, unknown> | null)?.[key];
  return typeof value === "object" && value !== null ? Object.entries(value) : null;
}

/**
 * The items of the list under `key` of the reply's JSON object, each as trimmed text, or null when there is no
 * list there (`{"missed": [" k7qxzp", ...]}` gives `["k7qxzp", ...]`).
 */
export function answerListItems(answer: string, key: string): string[] | null {
  const value = (parseAnswerJson(answer) as Record<string, unknown> | null)?.[key];
  return Array.isArray(value) ? value.map((item) => String(item).trim()) : null;
}
