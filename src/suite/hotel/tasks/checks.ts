import type { Check } from "../../../envs/index.js";
import { checkProblems } from "../../../envs/index.js";

/** `answer-total`: the reply's last euro amount (`€1,234.50`, `€ 95`) is `expected` to the cent. */
export function checkEuroTotal(answer: string, expected: number): Check {
  const stated = [...answer.matchAll(/€\s*(-?[\d,]*\d(?:\.\d+)?)/g)].at(-1)?.[1]?.replace(/,/g, "");
  const right = Math.abs(Number(stated) - expected) < 0.015;
  return checkProblems(
    "answer-total",
    right ? [] : [`expected €${expected.toFixed(2)}, got ${stated}`],
    "ok",
  );
}
