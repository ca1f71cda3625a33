import { checkProblems, parseAnswerJson, type Check } from "../../../envs/index.js";

/** The reply is a JSON object of exactly the expected keys with the expected string values. */
export function checkAnswerValues(answer: string, expected: ReadonlyMap<string, string>): Check {
  if (expected.size === 0) throw new Error("generation produced nothing to report");
  const value = parseAnswerJson(answer);
  const given = new Map(
    Object.entries(value !== null && typeof value === "object" && !Array.isArray(value) ? value : {}).map(
      ([k, v]) => [k.trim(), String(v).trim()],
    ),
  );
  const problems = [...expected]
    .filter(([key, want]) => given.get(key) !== want)
    .map(([key, want]) => `${key}: expected ${want}, got ${given.get(key) ?? "nothing"}`);
  for (const key of given.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return checkProblems("answer", problems, `all ${expected.size} match`);
}

/** Replies like `approved: 3, declined: 2`: each named count as expected. */
export function checkCounts(answer: string, expected: Record<string, number>): Check {
  const problems = Object.entries(expected)
    .filter(([name, count]) => Number(new RegExp(`${name}\\D*(\\d+)`, "i").exec(answer)?.[1]) !== count)
    .map(([name, count]) => `${name}: expected ${count}`);
  if (problems.length > 0) problems.push(`got '${answer.slice(0, 80)}'`);
  return checkProblems("answer", problems, "counts match");
}
