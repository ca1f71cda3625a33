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

/** A near-miss as a row: `[id, description, ...flags]`; a row without flags uses its id as the one flag. */
export type NearMissRow = readonly [id: string, description: string, ...flags: string[]];

/**
 * Near-misses of a task whose cells builder takes a set of mistake flags (the oracle is `cells([])`): one per
 * row, in order, each the cells of the row's flags. For example
 * `flagNearMisses(cells, [["no-retry", "Gives up on the first 503."], ["wrong-day", "Uses the sent date.", "sent-date"]])`.
 */
export function flagNearMisses(
  cells: (flags: string[]) => string[],
  rows: readonly NearMissRow[],
): NearMiss[] {
  return rows.map(([id, description, ...flags]) => ({
    id,
    description,
    cells: cells(flags.length > 0 ? flags : [id]),
  }));
}
