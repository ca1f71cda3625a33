/** Near-misses built from the oracle's own cell builder, each flipping one part of the correct variant. */
import type { NearMiss } from "../define-task.js";

/** The correct variant of a cell builder whose variants only ever switch a default off: `variantNearMisses(cells, CORRECT, ...)`. */
export const CORRECT: Readonly<Record<never, never>> = Object.freeze({});

/**
 * Near-misses of a task whose oracle is `cells(full)`: one per entry, keyed by its id, in the order given,
 * each the cells of `{ ...full, ...change }` with its description. For example
 * `variantNearMisses(auditCells, FULL, { "ignores-transfer-cap": [{ transferCap: false }, "Counts all transfer credit."] })`.
 */
export function variantNearMisses<Variant extends object>(
  cells: (variant: Variant) => string[],
  full: Variant,
  misses: Record<string, readonly [change: Partial<Variant>, description: string]>,
): NearMiss[] {
  return Object.entries(misses).map(([id, [change, description]]) => ({
    id,
    description,
    cells: cells({ ...full, ...change }),
  }));
}
