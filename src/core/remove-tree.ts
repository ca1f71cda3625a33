import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  opendirSync,
  renameSync,
  rmdirSync,
  unlinkSync,
} from "node:fs";

/*
 * Removing a tree that model code built. Node's rm recurses once per level (a chain ~5,000 directories deep
 * overflows the stack) and rebuilds the whole path for every entry (ENAMETOOLONG past 4 KiB), and it walks by
 * name, so a link swapped in meanwhile would be followed. Here no path longer than one name is ever resolved:
 * each directory is opened with O_NOFOLLOW and its entries are removed through `/proc/self/fd/<fd>/<name>`
 * (openat by another name; see envs/workspace-path.ts). Depth costs nothing: a directory that is not empty is
 * moved up into the tree's top directory and emptied from there later, so at most two directories are open at
 * once and the pending work is a list of names.
 */

/** Open a directory without following a link, and without waiting on anything (a FIFO fails at once). */
export const NO_FOLLOW_DIRECTORY_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The path of `name` inside the directory that descriptor `fd` refers to (openat by another name). */
export function entryAt(fd: number, name: string): string {
  return `/proc/self/fd/${fd}/${name}`;
}

/** Entries removed between two yields to the event loop in {@link removeTree}. */
const ENTRIES_PER_SLICE = 512;
/** A directory that fills up again while it is emptied (a process still writing) is retried this often. */
const EMPTY_ATTEMPTS = 4;
const PARKED_PREFIX = ".progagent-removing-";

function errnoOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

class Removal {
  private parked = 0;
  /** Directories in the top directory (by name) still to empty and remove. */
  private readonly pending: string[] = [];
  failure: unknown;

  constructor(private readonly top: number) {}

  private note(error: unknown): void {
    if (errnoOf(error) !== "ENOENT") this.failure ??= error;
  }

  /** Removes one entry of `parent`; a directory that is not empty is queued (moved to the top first). */
  private removeEntry(parent: number, name: string, directory: boolean, retries = 2): void {
    const path = entryAt(parent, name);
    try {
      if (directory) rmdirSync(path);
      else unlinkSync(path);
      return;
    } catch (error) {
      const code = errnoOf(error);
      // The entry changed kind since it was listed: try the other removal.
      const otherKind = code === "ENOTDIR" || code === "EISDIR" || (code === "EPERM" && !directory);
      if (otherKind && retries > 0) return this.removeEntry(parent, name, !directory, retries - 1);
      if (code !== "ENOTEMPTY" && code !== "EEXIST") return this.note(error);
    }
    if (parent === this.top) {
      this.pending.push(name);
      return;
    }
    const parkedName = this.freeName();
    try {
      renameSync(path, entryAt(this.top, parkedName));
      this.pending.push(parkedName);
    } catch (error) {
      this.note(error);
    }
  }

  private freeName(): string {
    for (;;) {
      const name = `${PARKED_PREFIX}${this.parked++}`;
      try {
        lstatSync(entryAt(this.top, name));
      } catch {
        return name;
      }
    }
  }

  /** Removes every entry of the directory `fd`, yielding every ENTRIES_PER_SLICE entries. */
  *empty(fd: number): Generator<void> {
    const directory = opendirSync(`/proc/self/fd/${fd}`, { bufferSize: 128 });
    let count = 0;
    try {
      for (let entry = directory.readSync(); entry !== null; entry = directory.readSync()) {
        this.removeEntry(fd, entry.name, entry.isDirectory());
        count += 1;
        if (count % ENTRIES_PER_SLICE === 0) yield;
      }
    } finally {
      directory.closeSync();
    }
  }

  /** Empties and removes the queued directories, newest first. */
  *drain(): Generator<void> {
    for (let name = this.pending.pop(); name !== undefined; name = this.pending.pop()) {
      const path = entryAt(this.top, name);
      for (let attempt = 0; attempt < EMPTY_ATTEMPTS; attempt += 1) {
        let fd: number;
        try {
          fd = openSync(path, NO_FOLLOW_DIRECTORY_FLAGS);
        } catch (error) {
          // Replaced by something that is not a directory: remove that instead.
          if (errnoOf(error) === "ENOTDIR" || errnoOf(error) === "ELOOP")
            this.removeEntry(this.top, name, false);
          else this.note(error);
          break;
        }
        try {
          yield* this.empty(fd);
        } catch (error) {
          this.note(error);
        } finally {
          closeSync(fd);
        }
        try {
          rmdirSync(path);
          break;
        } catch (error) {
          if (errnoOf(error) !== "ENOTEMPTY" || attempt === EMPTY_ATTEMPTS - 1) {
            this.note(error);
            break;
          }
        }
      }
    }
  }
}

/**
 * The steps of removing `path` and everything under it, yielding between slices of entries. A path that is a
 * file or a link is unlinked (a link's target is never touched); a missing path is already removed. Every entry
 * that can be removed is; the first error is then thrown.
 */
function* removalSteps(path: string): Generator<void> {
  let top: number;
  try {
    top = openSync(path, NO_FOLLOW_DIRECTORY_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT") return;
    if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
    try {
      unlinkSync(path);
    } catch (unlinkError) {
      if (errnoOf(unlinkError) !== "ENOENT") throw unlinkError;
    }
    return;
  }
  const removal = new Removal(top);
  try {
    for (let attempt = 0; attempt < EMPTY_ATTEMPTS; attempt += 1) {
      yield* removal.empty(top);
      yield* removal.drain();
      try {
        rmdirSync(path);
        return;
      } catch (error) {
        if (errnoOf(error) === "ENOENT") return;
        if (errnoOf(error) !== "ENOTEMPTY" || attempt === EMPTY_ATTEMPTS - 1) removal.failure ??= error;
        if (removal.failure !== undefined) break;
      }
    }
  } finally {
    closeSync(top);
  }
  if (removal.failure !== undefined) throw removal.failure;
}

/**
 * Removes a directory tree however deep or wide, without following links, with at most two directories open;
 * synchronous, for exit handlers and for trees no program can change any more. Throws the first error after
 * removing everything else it could.
 */
export function removeTreeSync(path: string): void {
  for (const step of removalSteps(path)) void step;
}

/**
 * {@link removeTreeSync} in slices of a few hundred entries with a yield to the event loop between them, so that
 * a workspace of many files does not hold the host's thread.
 */
export async function removeTree(path: string): Promise<void> {
  for (const step of removalSteps(path)) {
    void step;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
