import { mkdtempSync, rmSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sweepStale } from "./sweep-stale.js";

const PREFIX = "progagent-";

/** A temporary directory owned by this process; removed by dispose(), swept later if the process was killed. */
export interface TempDir {
  readonly path: string;
  dispose(): void;
  /** The same removal through libuv's thread pool, so that deleting a large tree does not block the event loop. */
  disposeAsync(): Promise<void>;
  [Symbol.dispose](): void;
}

let swept = false;

/**
 * Creates a directory named after the owning pid, so that directories left behind by a killed process
 * can be recognised and removed by the next progagent process.
 */
export function createTempDir(label: string, parent: string = tmpdir()): TempDir {
  if (!swept) {
    swept = true;
    sweepStaleTempDirs();
  }
  const path = mkdtempSync(join(parent, `${PREFIX}${process.pid}-${label}-`));
  let disposed = false;
  const dispose = (): void => {
    if (disposed) return;
    disposed = true;
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
  };
  const disposeAsync = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    await rm(path, { recursive: true, force: true, maxRetries: 3 });
  };
  return { path, dispose, disposeAsync, [Symbol.dispose]: dispose };
}

/** Whether every ancestor of a directory lets other users pass through (search permission for "others"). */
export function isTraversableByOthers(path: string): boolean {
  let current = path;
  for (;;) {
    try {
      if ((statSync(current).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    const parent = dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/** Removes temp directories whose owning process no longer exists. */
export function sweepStaleTempDirs(root: string = tmpdir()): number {
  return sweepStale(root, {
    ownerOf: (name) =>
      name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length).split("-")[0]) : undefined,
  });
}
