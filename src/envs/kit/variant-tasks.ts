/** A domain's task definer for tasks whose oracle and near-misses are one cell builder run on variants. */
import type { DomainDefinition } from "../define-domain.js";
import { defineTask, type TaskDefinition } from "../define-task.js";
import { CORRECT, variantNearMisses } from "./near-misses.js";

/** A cell builder's switches: all off in the oracle, one turned on by each near-miss (`Flags<"noRetry" | "lenient">`). */
export type Flags<Name extends string> = Partial<Record<Name, boolean>>;

/**
 * Near-misses as variants of the oracle's builder: `{ id: [change, description] }` or rows
 * `[id, description, change]`, in order.
 */
export type VariantMisses<Variant> =
  | Record<string, readonly [change: Partial<Variant>, description: string]>
  | ReadonlyArray<readonly [id: string, description: string, change: Partial<Variant>]>;

/**
 * A task of a {@link variantTaskDefiner}: the task's text, tools and verifier, its cell builder and near-misses.
 * A near-miss's change may also set the helper cell's own variant (`Shared`, e.g. `{ helpers: BLIND_POST_PY }`).
 */
export interface VariantTask<Variant, Shared = unknown> extends Omit<
  TaskDefinition,
  "domain" | "oracle" | "nearMisses"
> {
  /** The cell or cells after the domain's helper cell, for the oracle (`{}`) and each near-miss's variant. */
  cells: (variant: Variant) => string | string[];
  nearMisses: VariantMisses<Variant & Shared>;
}

/**
 * The task definer of a domain whose programs all start with a helper cell: the oracle is
 * `[prelude, ...cells({})]` and each near-miss `[prelude, ...cells(change)]`. For example
 * `export const defineCoopTask = variantTaskDefiner(coopDomain, COOP_PY);` then
 * `defineCoopTask({ id: "coop.flag-hot-bins", summary, instruction, tools, verify, cells, nearMisses: [["no-dedupe", "Raises a second alert.", { noDedupe: true }]] })`.
 * A helper cell that near-misses vary is a function of the variant:
 * `variantTaskDefiner(hotelDomain, ({ helpers = "" }: { helpers?: string }) => HOTEL_PY + helpers)`.
 */
export function variantTaskDefiner<Shared extends object = Record<never, never>>(
  domain: DomainDefinition,
  prelude: string | ((variant: Shared) => string),
) {
  return <Variant extends object>(task: VariantTask<Variant, Shared>): TaskDefinition => {
    const { cells, nearMisses, ...rest } = task;
    type Full = Variant & Shared;
    const program = (variant: Full): string[] =>
      [typeof prelude === "string" ? prelude : prelude(variant)].concat(cells(variant));
    const misses = Array.isArray(nearMisses)
      ? Object.fromEntries(
          (nearMisses as Extract<VariantMisses<Full>, readonly unknown[]>).map(
            ([id, description, change]) => [id, [change, description] as const],
          ),
        )
      : (nearMisses as Extract<VariantMisses<Full>, Record<string, unknown>>);
    return defineTask({
      ...rest,
      domain,
      oracle: program(CORRECT as Full),
      nearMisses: variantNearMisses(program, CORRECT as Full, misses),
    });
  };
}
