import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

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
  let removed = 0;
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!entry.startsWith(PREFIX)) continue;
    const pid = Number(entry.slice(PREFIX.length).split("-")[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(root, entry), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
