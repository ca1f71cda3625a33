import { closeSync, constants, lstatSync, openSync, opendirSync, type Dir } from "node:fs";
import { measureInMeter, type WorkspaceUsage } from "./workspace-meter.js";

export type { WorkspaceUsage };

const DIRECTORY_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Entries handled between two yields to the event loop (a few milliseconds of work at most). */
const ENTRIES_PER_SLICE = 256;

function openDirectory(path: string): number | undefined {
  try {
    return openSync(path, DIRECTORY_FLAGS);
  } catch {
    return undefined; // not a directory (any more), or gone: nothing to walk
  }
}

/** `PROGAGENT_WORKSPACE_METER=inline` walks on the host's thread instead of in the workspace meter. */
export const WORKSPACE_METER_VARIABLE = "PROGAGENT_WORKSPACE_METER";

/**
 * What a workspace holds, measured in this host's workspace meter (workspace-meter.ts: off the event loop, with
 * fstatat) and, when the meter cannot answer, by `walkWorkspace` here. Both walk the same way.
 */
export async function measureWorkspace(
  root: string,
  maxEntries = 200_000,
  interpreter = "/usr/bin/python3",
): Promise<WorkspaceUsage> {
  if (process.env[WORKSPACE_METER_VARIABLE] !== "inline") {
    try {
      return await measureInMeter(interpreter, root, maxEntries);
    } catch {
      // no meter to ask, or it failed on this request: walk here
    }
  }
  return await walkWorkspace(root, maxEntries);
}

/**
 * Measures a directory tree that model code can change while we walk it: every directory is opened without
 * following links and read through its descriptor (`/proc/self/fd/N/name`), so a link swapped in never leads
 * the walk outside the tree, and a FIFO is never opened. Each inode counts once (hard links). The work is
 * done in short synchronous slices with a yield to the event loop between them.
 */
export async function walkWorkspace(root: string, maxEntries = 200_000): Promise<WorkspaceUsage> {
  const seen = new Set<string>();
  const usage: WorkspaceUsage = { bytes: 0, entryCount: 0, incomplete: false };
  const top = openDirectory(root);
  if (top === undefined) return usage;
  // Depth first: a stack of open directories, one descriptor per level.
  const stack: Array<{ fd: number; dir: Dir | undefined }> = [{ fd: top, dir: undefined }];
  let slice = 0;
  try {
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const base = `/proc/self/fd/${frame.fd}`;
      let entry = null;
      try {
        frame.dir ??= opendirSync(base);
        entry = frame.dir.readSync();
      } catch {
        entry = null;
      }
      if (entry === null) {
        stack.pop();
        try {
          frame.dir?.closeSync();
        } catch {
          // already closed
        }
        closeSync(frame.fd);
        continue;
      }
      if (usage.entryCount >= maxEntries) {
        usage.incomplete = true;
        break;
      }
      usage.entryCount += 1;
      const path = `${base}/${entry.name}`;
      let stat;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      const key = `${stat.dev}:${stat.ino}`;
      if (!seen.has(key)) {
        seen.add(key);
        usage.bytes += stat.blocks * 512;
      }
      if (stat.isDirectory()) {
        const child = openDirectory(path);
        if (child !== undefined) stack.push({ fd: child, dir: undefined });
      }
      slice += 1;
      if (slice >= ENTRIES_PER_SLICE) {
        slice = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } finally {
    for (const frame of stack) {
      try {
        frame.dir?.closeSync();
      } catch {
        // already closed
      }
      closeSync(frame.fd);
    }
  }
  return usage;
}
