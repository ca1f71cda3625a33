/** A domain's task definer for tasks whose oracle and near-misses are one cell builder run on variants. */
import type { DomainDefinition } from "../define-domain.js";
import { defineTask, type TaskDefinition } from "../define-task.js";
import { CORRECT, variantNearMisses } from "./near-misses.js";

/**
 * Near-misses as variants of the oracle's builder: `{ id: [change, description] }` or rows
 * `[id, description, change]`, in order.
 */
export type VariantMisses<Variant> =
  | Record<string, readonly [change: Partial<Variant>, description: string]>
  | ReadonlyArray<readonly [id: string, description: string, change: Partial<Variant>]>;

/** A task of a {@link variantTaskDefiner}: the task's text, tools and verifier, its cell builder and near-misses. */
export interface VariantTask<Variant> extends Omit<TaskDefinition, "domain" | "oracle" | "nearMisses"> {
  /** The cell or cells after the domain's helper cell, for the oracle (`{}`) and each near-miss's variant. */
  cells: (variant: Variant) => string | string[];
  nearMisses: VariantMisses<Variant>;
}

/**
 * The task definer of a domain whose programs all start with the same helper cell (`prelude`): the oracle is
 * `[prelude, ...cells({})]` and each near-miss `[prelude, ...cells(change)]`. For example
 * `export const defineCoopTask = variantTaskDefiner(coopDomain, COOP_PY);` then
 * `defineCoopTask({ id: "coop.flag-hot-bins", summary, instruction, tools, verify, cells, nearMisses: [["no-dedupe", "Raises a second alert.", { noDedupe: true }]] })`.
 */
export function variantTaskDefiner(domain: DomainDefinition, prelude: string) {
  return <Variant extends object>(task: VariantTask<Variant>): TaskDefinition => {
    const { cells, nearMisses, ...rest } = task;
    const program = (variant: Variant): string[] => [prelude].concat(cells(variant));
    const misses = Array.isArray(nearMisses)
      ? Object.fromEntries(
          (nearMisses as Extract<VariantMisses<Variant>, readonly unknown[]>).map(
            ([id, description, change]) => [id, [change, description] as const],
          ),
        )
      : (nearMisses as Extract<VariantMisses<Variant>, Record<string, unknown>>);
    return defineTask({
      ...rest,
      domain,
      oracle: program(CORRECT as Variant),
      nearMisses: variantNearMisses(program, CORRECT as Variant, misses),
    });
  };
}
