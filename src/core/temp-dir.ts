import { accessSync, constants, mkdtempSync, statSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { ERROR_CODES, ProgAgentError } from "./errors.js";
import { removeTree, removeTreeSync } from "./remove-tree.js";
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

/** Names a directory for the episodes' and kernels' scratch directories (their workspaces, io files). */
export const SCRATCH_DIR_VARIABLE = "PROGAGENT_SCRATCH_DIR";
const TMPFS_MAGIC = 0x01021994;
/** /dev/shm is used only with this much room: a container's default (64 MB) is too small for a burst. */
const MIN_SHM_FREE_BYTES = 2 * 1024 ** 3;
let scratch: ScratchDir | undefined;

export interface ScratchDir {
  dir: string;
  /** Why this directory, for diagnostics (`progagent sandbox`, benchmarks). */
  reason: string;
  /**
   * Chosen by progagent (/dev/shm), not named by the user: a kernel with its own uid falls back to the temp
   * directory when its workspace cannot be idmapped there.
   */
  automatic: boolean;
}

/**
 * Where episodes and kernels make their scratch directories (the workspace copy, the kernel's io files and
 * mount stage): PROGAGENT_SCRATCH_DIR when set; else the temp directory when TMPDIR is set or it is a tmpfs;
 * else /dev/shm when it is a writable tmpfs with 2 GiB free; else the temp directory. Scratch directories are
 * created and removed by the thousand at RL scale, and on a disk file system that costs more than the rest of
 * an episode's start: ext4 without a journal skips inodes freed in the last minutes when it allocates one
 * (fs/ext4/ialloc.c, recently_deleted), so every file created after a burst of removals scans past them.
 * Chosen once per process.
 */
export function scratchDir(): ScratchDir {
  if (scratch) return scratch;
  const named = process.env[SCRATCH_DIR_VARIABLE];
  if (named !== undefined && named !== "") {
    const problem = !isAbsolute(named) ? "it is not an absolute path" : unusableDirectory(named);
    if (problem !== undefined)
      throw new ProgAgentError(
        `${SCRATCH_DIR_VARIABLE}=${named} cannot be used: ${problem}. Name an existing directory this user can write, or unset it.`,
        { code: ERROR_CODES.INVALID_ARGUMENT, category: "user", details: { [SCRATCH_DIR_VARIABLE]: named } },
      );
    scratch = { dir: named, reason: `${SCRATCH_DIR_VARIABLE} names it`, automatic: false };
  } else if (process.env.TMPDIR) {
    scratch = { dir: tmpdir(), reason: "TMPDIR names it", automatic: false };
  } else if (isTmpfs(tmpdir())) {
    scratch = { dir: tmpdir(), reason: "the temp directory is a tmpfs", automatic: false };
  } else {
    const shm = "/dev/shm";
    const free = freeBytes(shm);
    scratch =
      isTmpfs(shm) && unusableDirectory(shm) === undefined && isSticky(shm) && free >= MIN_SHM_FREE_BYTES
        ? {
            dir: shm,
            reason: `the temp directory is not a tmpfs and ${shm} is (${formatGiB(free)} free)`,
            automatic: true,
          }
        : {
            dir: tmpdir(),
            reason: `the temp directory; ${shm} is not a writable tmpfs with 2 GiB free`,
            automatic: false,
          };
  }
  return scratch;
}

/**
 * Every directory progagent makes its temp directories in: the temp directory, the scratch directory and /tmp
 * (where kernels go when the temp directory is private to this user).
 */
export function tempDirRoots(): string[] {
  const roots = [tmpdir()];
  try {
    roots.push(scratchDir().dir);
  } catch {
    // a bad PROGAGENT_SCRATCH_DIR: reported where scratch is made, not for every temp directory
  }
  roots.push("/tmp");
  return [...new Set(roots)];
}

/** Forgets the chosen scratch directory (tests that change the environment). */
export function resetScratchDirForTests(): void {
  scratch = undefined;
}

function unusableDirectory(path: string): string | undefined {
  try {
    if (!statSync(path).isDirectory()) return "it is not a directory";
    accessSync(path, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT"
      ? "it does not exist"
      : "this user cannot write it";
  }
}

/** Whether a path is on a tmpfs (its files are memory, charged to the memory cgroup of whoever writes them). */
export function isTmpfs(path: string): boolean {
  try {
    return statfsSync(path).type === TMPFS_MAGIC;
  } catch {
    return false;
  }
}

/** World-writable directories must be sticky, as /tmp is: otherwise any user could remove our directories. */
function isSticky(path: string): boolean {
  const mode = statSync(path).mode;
  return (mode & 0o002) === 0 || (mode & 0o1000) !== 0;
}

function freeBytes(path: string): number {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize;
  } catch {
    return 0;
  }
}

function formatGiB(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

/**
 * Creates a directory named after the owning pid, so that directories left behind by a killed process
 * can be recognised and removed by the next progagent process.
 */
export function createTempDir(label: string, parent: string = tmpdir()): TempDir {
  if (!swept) {
    swept = true;
    for (const root of tempDirRoots()) sweepStaleTempDirs(root);
  }
  const path = mkdtempSync(join(parent, `${PREFIX}${process.pid}-${label}-`));
  let disposed = false;
  const dispose = (): void => {
    if (disposed) return;
    disposed = true;
    removeTreeSync(path);
  };
  const disposeAsync = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    await removeTree(path);
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
