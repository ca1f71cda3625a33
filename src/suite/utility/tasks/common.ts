/** What every utility task shares: the domain and the oracle/near-miss cells built from one variant. */
import { defineTask } from "../../../envs/index.js";
import type { TaskDefinition } from "../../../envs/index.js";
import { utilityDomain } from "../domain.js";
import { UTILITY_PY } from "./python.js";

interface UtilityTask<Variant> extends Pick<TaskDefinition, "summary" | "instruction" | "tools" | "verify"> {
  slug: string;
  /** The task's cell after the helper cell, for the oracle (`{}`) and for each near-miss's variant. */
  cell: (variant: Variant) => string;
  nearMisses: Array<[id: string, description: string, variant: Variant]>;
}

/** A utility task whose oracle and near-misses are one cell builder run on different variants. */
export function defineUtilityTask<Variant extends object>(task: UtilityTask<Variant>): TaskDefinition {
  const { slug, cell, nearMisses, ...rest } = task;
  return defineTask({
    id: `utility.${slug}`,
    domain: utilityDomain,
    ...rest,
    oracle: [UTILITY_PY, cell({} as Variant)],
    nearMisses: nearMisses.map(([id, description, variant]) => ({
      id,
      description,
      cells: [UTILITY_PY, cell(variant)],
    })),
  });
}
