/** What every oncall task shares: the domain, the oracle's helper cell, near-miss rows and answer checks. */
import { check, defineTask, parseAnswerJson } from "../../../envs/index.js";
import type { Check, TaskDefinition } from "../../../envs/index.js";
import { oncallDomain } from "../domain.js";
import { ONCALL_PY } from "./python.js";

interface OncallTask<Variant> extends Pick<TaskDefinition, "summary" | "instruction" | "tools" | "verify"> {
  slug: string;
  /** The task's cell after the helper cell, for the oracle (`{}`) and for each near-miss's variant. */
  cell: (variant: Variant) => string;
  nearMisses: Array<[id: string, description: string, variant: Variant]>;
}

/** An oncall task whose oracle and near-misses are one cell builder run on different variants. */
export function defineOncallTask<Variant extends object>(task: OncallTask<Variant>): TaskDefinition {
  const { slug, cell, nearMisses, ...rest } = task;
  return defineTask({
    id: `oncall.${slug}`,
    domain: oncallDomain,
    ...rest,
    oracle: [ONCALL_PY, cell({} as Variant)],
    nearMisses: nearMisses.map(([id, description, variant]) => ({
      id,
      description,
      cells: [ONCALL_PY, cell(variant)],
    })),
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
