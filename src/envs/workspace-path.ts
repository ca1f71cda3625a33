import { constants, existsSync, type Stats } from "node:fs";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";

/*
 * Workspace file operations that stay inside the workspace whatever model code does to it meanwhile.
 *
 * The workspace is shared with sandboxed code that can rename, swap (renameat2 RENAME_EXCHANGE), link and
 * replace any entry at any moment, while the host runs as root. So no operation here ever resolves a path
 * string and reopens it: the workspace root is opened as a directory descriptor and every component is
 * opened relative to its parent's descriptor, one name at a time, with O_NOFOLLOW (and O_DIRECTORY for
 * directories). Node has no openat(2); `/proc/self/fd/<dirfd>/<name>` is the same thing: the kernel resolves
 * the magic link `/proc/self/fd/<dirfd>` to the very directory the descriptor refers to (not to a path, so
 * a directory renamed or swapped away meanwhile does not matter), and only `<name>`, the last component, is
 * looked up in it, subject to O_NOFOLLOW. A symlink anywhere fails with ELOOP/ENOTDIR instead of being
 * followed; `.`, `..` and names with `/` never reach the kernel (paths are normalised lexically first, which
 * is exact because no link is ever followed). lstat/mkdir/rename/opendir of `/proc/self/fd/<dirfd>/<name>`
 * likewise act on the entry in that directory and never follow its last component.
 *
 * Every opened descriptor is fstat-ed before anything is read: FIFOs, sockets and devices are refused
 * without reading (O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer), and so
 * are regular files with more than one hard link (a link could share an inode with a file the workspace
 * must not expose). Sizes are bounded. The async functions use only libuv's thread pool, check a deadline
 * between steps and are raced against it; the sync ones exist for states no program can change any more
 * (the instance being generated, the final state after the kernel is gone), with the same guarantees minus
 * the deadline. Node opens every descriptor with O_CLOEXEC.
 */

/** Why an operation was refused; the tools turn each into the message the model reads. */
export type WorkspaceRefusal =
  | "outside"
  | "not-found"
  | "not-directory"
  | "is-directory"
  | "not-regular"
  | "too-large"
  | "too-many"
  | "timeout";

/** A refused workspace file operation. `reason` says why; `detail` is a short human explanation. */
export class WorkspaceFsError extends Error {
  readonly reason: WorkspaceRefusal;
  readonly sizeBytes: number | undefined;

  constructor(
    reason: WorkspaceRefusal,
    detail: string,
    options: { sizeBytes?: number; cause?: unknown } = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "WorkspaceFsError";
    this.reason = reason;
    this.sizeBytes = options.sizeBytes;
  }
}

/** The largest file read_file and the state views read (larger files are refused, never read). */
export const MAX_READ_FILE_BYTES = 32 * 1024 * 1024;
/** search_files stops after scanning this many bytes in one call and says so. */
export const MAX_SEARCH_BYTES = 32 * 1024 * 1024;
/** search_files stops after this many matching lines in one call and says so. */
export const MAX_SEARCH_MATCHES = 10_000;
/** Lines longer than this are searched in pieces of about this size (memory stays bounded). */
export const MAX_SEARCH_LINE_CHARS = 1024 * 1024;
/** A walk refuses directories holding more entries than this in total, or nested deeper than MAX_WALK_DEPTH. */
export const MAX_WALK_ENTRIES = 100_000;
export const MAX_WALK_DEPTH = 64;
/** The deadline of one async workspace operation unless the caller gives one. */
export const WORKSPACE_FS_TIMEOUT_MS = 20_000;

export const NAME_MAX_BYTES = 255;
export const MAX_DIRECTORY_BYTES = 16 * 1024 * 1024;
export const LSTAT_BATCH = 64;
export const PATH_MAX_BYTES = 4095;
export const CHUNK_BYTES = 1024 * 1024;
export const SANDBOX_PREFIX = "/workspace";

export const DIRECTORY_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
export const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
export const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;
export const WRITE_EXISTING_FLAGS = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Splits a workspace path (relative, or under `/workspace`, the sandbox's name for it) into components,
 * normalised lexically. Refuses ("outside") absolute paths elsewhere, `..` above the root, NUL bytes and
 * names or paths longer than the kernel accepts. `[]` is the workspace root.
 */
export function parseWorkspacePath(path: string): string[] {
  if (path.includes("\0")) throw new WorkspaceFsError("outside", "the path contains a NUL byte");
  let rest = path;
  if (rest === SANDBOX_PREFIX || rest.startsWith(`${SANDBOX_PREFIX}/`))
    rest = rest.slice(SANDBOX_PREFIX.length);
  else if (rest.startsWith("/"))
    throw new WorkspaceFsError("outside", "absolute paths must start with /workspace");
  if (Buffer.byteLength(rest) > PATH_MAX_BYTES)
    throw new WorkspaceFsError("outside", `the path is longer than ${PATH_MAX_BYTES} bytes`);
  const components: string[] = [];
  for (const part of rest.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (components.length === 0)
        throw new WorkspaceFsError("outside", "the path leads above the workspace");
      components.pop();
      continue;
    }
    if (Buffer.byteLength(part) > NAME_MAX_BYTES)
      throw new WorkspaceFsError("outside", `a name is longer than ${NAME_MAX_BYTES} bytes`);
    components.push(part);
  }
  return components;
}

let procChecked = false;

/** Every operation depends on /proc/self/fd; without it every name would look missing, so say so instead. */
export function assertProcFd(): void {
  if (procChecked) return;
  if (!existsSync("/proc/self/fd"))
    throw new ProgAgentError(
      "the workspace file tools need /proc mounted: they open files relative to directory descriptors through /proc/self/fd",
      { code: ERROR_CODES.SANDBOX_UNAVAILABLE, category: "system" },
    );
  procChecked = true;
}

/** The path of `name` inside the directory that descriptor `fd` refers to (openat by another name). */
export function at(fd: number, name: string): string {
  return `/proc/self/fd/${fd}/${name}`;
}

export function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

export function classifyEntry(stats: Stats | undefined): WorkspaceRefusal {
  if (!stats) return "not-found";
  if (stats.isSymbolicLink()) return "outside";
  if (stats.isDirectory()) return "is-directory";
  if (!stats.isFile()) return "not-regular";
  return "not-directory";
}

/** Turns an open(2) failure of one component into a refusal (errors we do not expect are rethrown). */
export function refusalForOpenError(
  error: unknown,
  name: string,
  entry: Stats | undefined,
): WorkspaceFsError {
  const code = errnoCode(error);
  if (code === "ENOENT")
    return new WorkspaceFsError("not-found", `'${name}' does not exist`, { cause: error });
  if (code === "ELOOP")
    return new WorkspaceFsError("outside", `'${name}' is a symbolic link`, { cause: error });
  if (code === "ENOTDIR" || code === "EISDIR" || code === "ENXIO" || code === "EOPNOTSUPP") {
    const reason = classifyEntry(entry);
    const detail =
      reason === "outside"
        ? `'${name}' is a symbolic link`
        : reason === "is-directory"
          ? `'${name}' is a directory`
          : reason === "not-regular"
            ? `'${name}' is not a regular file`
            : reason === "not-found"
              ? `'${name}' does not exist`
              : `'${name}' is not a directory`;
    return new WorkspaceFsError(reason, detail, { cause: error });
  }
  if (code === "ENAMETOOLONG") return new WorkspaceFsError("outside", "a name is too long", { cause: error });
  throw error;
}

/** Refuses anything but a singly linked regular file (checked on the open descriptor, so it is what is read). */
export function assertPlainFile(stats: Stats, name: string): void {
  if (stats.isDirectory()) throw new WorkspaceFsError("is-directory", `'${name}' is a directory`);
  if (!stats.isFile()) throw new WorkspaceFsError("not-regular", `'${name}' is not a regular file`);
  if (stats.nlink > 1)
    throw new WorkspaceFsError(
      "outside",
      `'${name}' has ${stats.nlink} hard links; linked files are not read`,
    );
}

export function displayName(components: readonly string[]): string {
  return components.length === 0 ? "." : components.join("/");
}

/**
 * What a failed no-follow directory open means. ENOTDIR is ambiguous (a link, a file, or an entry swapped
 * between the open and the lstat that explains it), so `undefined` says "try again".
 */
export function directoryOpenRefusal(
  error: unknown,
  name: string,
  entry: Stats | undefined,
): WorkspaceFsError | undefined {
  if (errnoCode(error) === "ENOTDIR" && (entry === undefined || entry.isDirectory())) return undefined;
  return refusalForOpenError(error, name, entry);
}

export const DIRECTORY_OPEN_ATTEMPTS = 4;

export function changingError(name: string): WorkspaceFsError {
  return new WorkspaceFsError("outside", `'${name}' kept changing between a directory and something else`);
}

/** One regular file found by a walk: its workspace-relative path and size. */
export interface WorkspaceFileEntry {
  path: string;
  sizeBytes: number;
}

export interface WalkBudget {
  entries: number;
  /** Directories the walk holds open right now (the async walk reads a few side by side). */
  openDirectories: number;
}

export function walkLimitError(): WorkspaceFsError {
  return new WorkspaceFsError(
    "too-many",
    `more than ${MAX_WALK_ENTRIES} entries or directories nested deeper than ${MAX_WALK_DEPTH}`,
  );
}

export function byPath(a: WorkspaceFileEntry, b: WorkspaceFileEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
