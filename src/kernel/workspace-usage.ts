import { constants } from "node:fs";
import { lstat, open, readdir, type FileHandle } from "node:fs/promises";

export interface WorkspaceUsage {
  /** Disk space the files take (allocated blocks, so sparse files count what they really use). */
  bytes: number;
  entryCount: number;
  /** The walk stopped at `maxEntries`: `bytes` is a lower bound. */
  incomplete: boolean;
}

const DIRECTORY_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Measures a directory tree that model code can change while we walk it: every directory is opened without
 * following links and read through its descriptor (`/proc/self/fd/N/name`), so a link swapped in never leads
 * the walk outside the tree. Each inode counts once (hard links). Async: never blocks the event loop.
 */
export async function measureWorkspace(root: string, maxEntries = 200_000): Promise<WorkspaceUsage> {
  const seen = new Set<string>();
  const usage: WorkspaceUsage = { bytes: 0, entryCount: 0, incomplete: false };
  // Depth first, one open descriptor per level.
  const walk = async (directory: FileHandle): Promise<void> => {
    const base = `/proc/self/fd/${directory.fd}`;
    let names: string[];
    try {
      names = await readdir(base);
    } catch {
      return;
    }
    for (const name of names) {
      if (usage.entryCount >= maxEntries) {
        usage.incomplete = true;
        return;
      }
      usage.entryCount += 1;
      let stat;
      try {
        stat = await lstat(`${base}/${name}`);
      } catch {
        continue;
      }
      const key = `${stat.dev}:${stat.ino}`;
      if (!seen.has(key)) {
        seen.add(key);
        usage.bytes += stat.blocks * 512;
      }
      if (!stat.isDirectory()) continue;
      let child: FileHandle;
      try {
        child = await open(`${base}/${name}`, DIRECTORY_FLAGS);
      } catch {
        continue; // replaced by something else in the meantime: nothing to walk
      }
      try {
        await walk(child);
      } finally {
        await child.close();
      }
    }
  };
  let top: FileHandle;
  try {
    top = await open(root, DIRECTORY_FLAGS);
  } catch {
    return usage;
  }
  try {
    await walk(top);
  } finally {
    await top.close();
  }
  return usage;
}
