/** What every oncall task shares: the domain, the oracle's helper cell, near-miss rows and answer checks. */
import { check, defineTask, flagNearMisses, parseAnswerJson } from "../../../envs/index.js";
import type { Check, NearMissRow, TaskDefinition } from "../../../envs/index.js";
import { oncallDomain } from "../domain.js";
import { ONCALL_PY } from "./python.js";

interface OncallTask extends Pick<TaskDefinition, "summary" | "instruction" | "tools" | "verify"> {
  slug: string;
  /** The task's cell after the helper cell, given a near-miss's mistake flags (none for the oracle). */
  cell: (near: Set<string>) => string;
  nearMisses: NearMissRow[];
}

/** An oncall task whose oracle and near-misses are one cell builder run with different mistake flags. */
export function defineOncallTask({ slug, cell, nearMisses, ...rest }: OncallTask): TaskDefinition {
  const cells = (flags: string[]): string[] => [ONCALL_PY, cell(new Set(flags))];
  return defineTask({
    id: `oncall.${slug}`,
    domain: oncallDomain,
    ...rest,
    oracle: cells([]),
    nearMisses: flagNearMisses(cells, nearMisses),
  });
}

/** The answer is a JSON object mapping exactly the expected keys to the expected ids. */
export function checkIdMap(answer: string, expected: Map<string, string>): Check {
  const parsed = parseAnswerJson(answer);
  const given = new Map(
    parsed && typeof parsed === "object" ? Object.entries(parsed).map(([k, v]) => [k, String(v)]) : [],
  );
  const ok =
    given.size === expected.size &&
    [...expected].every(([key, id]) => given.get(key)?.trim().toUpperCase() === id);
  return check(
    "answer",
    ok,
    ok ? `${expected.size} entries` : `expected ${JSON.stringify(Object.fromEntries(expected))}`,
  );
}
