import { closeSync, constants, lstatSync, openSync, readdirSync } from "node:fs";
import { measureInMeter, type WorkspaceUsage } from "./workspace-meter.js";

export type { WorkspaceUsage };

const DIRECTORY_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Entries handled between two yields to the event loop (a few milliseconds of work at most). */
const ENTRIES_PER_SLICE = 256;

/** A root in one of these states is not a directory (any more) or is gone: it holds nothing. */
const GONE = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

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

/** Directories nested deeper than this are not walked (the meter has the same bound, MAX_DEPTH). */
export const MAX_WALK_DEPTH = 128;

function errnoName(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : String(error);
}

/**
 * Measures a directory tree that model code can change while we walk it: every directory is opened without
 * following links and read through its descriptor (`/proc/self/fd/N/name`), so a link swapped in never leads
 * the walk outside the tree, and a FIFO is never opened. Each inode counts once (hard links). Bounded: at most
 * `maxEntries` entries and MAX_WALK_DEPTH levels, one descriptor per level (a directory's names are read at
 * once); a walk that stops early or cannot open or read a directory is `incomplete` with its `reason`. The
 * work is done in short synchronous slices with a yield to the event loop between them.
 */
export async function walkWorkspace(root: string, maxEntries = 200_000): Promise<WorkspaceUsage> {
  const seen = new Set<string>();
  const usage: WorkspaceUsage = { bytes: 0, entryCount: 0, incomplete: false };
  const stop = (reason: string): void => {
    usage.incomplete = true;
    usage.reason = reason;
  };
  let top: number;
  try {
    top = openSync(root, DIRECTORY_FLAGS);
  } catch (error) {
    // A root that is not a directory (any more), or is gone, holds nothing.
    if (!GONE.has(errnoName(error))) stop(`the workspace could not be opened (${errnoName(error)})`);
    return usage;
  }
  // Depth first: a stack of open directories, each with the names it still has to visit.
  const stack: Array<{ fd: number; names: string[] }> = [];
  let slice = 0;
  try {
    stack.push({ fd: top, names: [] });
    stack[0]!.names = readdirSync(`/proc/self/fd/${top}`).reverse();
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const name = frame.names.pop();
      if (name === undefined) {
        stack.pop();
        closeSync(frame.fd);
        continue;
      }
      if (usage.entryCount >= maxEntries) {
        stop(`more than ${maxEntries} entries`);
        break;
      }
      usage.entryCount += 1;
      const path = `/proc/self/fd/${frame.fd}/${name}`;
      let stat;
      try {
        stat = lstatSync(path);
      } catch (error) {
        if (errnoName(error) === "ENOENT") continue; // removed meanwhile
        throw error;
      }
      const key = `${stat.dev}:${stat.ino}`;
      if (!seen.has(key)) {
        seen.add(key);
        usage.bytes += stat.blocks * 512;
      }
      if (stat.isDirectory()) {
        if (stack.length >= MAX_WALK_DEPTH) {
          stop(`directories nested deeper than ${MAX_WALK_DEPTH}`);
          break;
        }
        let child: number;
        try {
          child = openSync(path, DIRECTORY_FLAGS);
        } catch (error) {
          if (errnoName(error) === "ENOENT") continue;
          throw error;
        }
        try {
          stack.push({ fd: child, names: readdirSync(`/proc/self/fd/${child}`).reverse() });
        } catch (error) {
          closeSync(child);
          throw error;
        }
      }
      slice += 1;
      if (slice >= ENTRIES_PER_SLICE) {
        slice = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } catch (error) {
    // A directory that cannot be opened or read leaves what it holds uncounted: never "complete".
    stop(`a directory could not be read (${errnoName(error)})`);
  } finally {
    for (const frame of stack) closeSync(frame.fd);
  }
  return usage;
}
