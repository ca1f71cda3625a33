import { readdirSync } from "node:fs";
import { join } from "node:path";
import { removeTreeSync } from "./remove-tree.js";

/** How {@link sweepStale} recognises what a process left behind in a directory, and removes it. */
export interface StaleSweep {
  /** The pid an entry's name says owns it, or undefined for an entry that is not of this kind. */
  ownerOf: (name: string) => number | undefined;
  /** Removes one stale entry and says whether it is gone (default: removes the tree; may throw). */
  remove?: (path: string, name: string) => boolean;
}

/** Whether a process exists (one of another user counts: signalling it is refused, not unknown). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the entries of `root` whose owning process (named in the entry's name, see `ownerOf`) no longer
 * exists: what a killed progagent process could not clean up itself. Entries of this process and of live
 * ones stay. Returns how many were removed; a missing or unreadable `root` removes nothing, and an entry that
 * cannot be removed (fully) is skipped.
 */
export function sweepStale(root: string, sweep: StaleSweep): number {
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return 0;
  }
  const remove =
    sweep.remove ??
    ((path: string): boolean => {
      removeTreeSync(path);
      return true;
    });
  let removed = 0;
  for (const name of entries) {
    const owner = sweep.ownerOf(name);
    if (owner === undefined || !Number.isInteger(owner) || owner <= 0) continue;
    if (owner === process.pid || isProcessAlive(owner)) continue;
    // Whatever a dead process left (model code built it) never stops this one: what stays is left for later.
    try {
      if (remove(join(root, name), name)) removed += 1;
    } catch {
      continue;
    }
  }
  return removed;
}
