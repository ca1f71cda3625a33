import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  writeSync,
  type Stats,
} from "node:fs";
import { lstat, mkdir, open, readdir, type FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { ERROR_CODES, ProgAgentError, withDeadline } from "../core/index.js";

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

const NAME_MAX_BYTES = 255;
const MAX_DIRECTORY_BYTES = 16 * 1024 * 1024;
const LSTAT_BATCH = 64;
const PATH_MAX_BYTES = 4095;
const CHUNK_BYTES = 1024 * 1024;
const SANDBOX_PREFIX = "/workspace";

const DIRECTORY_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const WRITE_EXISTING_FLAGS = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

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
function assertProcFd(): void {
  if (procChecked) return;
  if (!existsSync("/proc/self/fd"))
    throw new ProgAgentError(
      "the workspace file tools need /proc mounted: they open files relative to directory descriptors through /proc/self/fd",
      { code: ERROR_CODES.SANDBOX_UNAVAILABLE, category: "system" },
    );
  procChecked = true;
}

/** The path of `name` inside the directory that descriptor `fd` refers to (openat by another name). */
function at(fd: number, name: string): string {
  return `/proc/self/fd/${fd}/${name}`;
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

function classifyEntry(stats: Stats | undefined): WorkspaceRefusal {
  if (!stats) return "not-found";
  if (stats.isSymbolicLink()) return "outside";
  if (stats.isDirectory()) return "is-directory";
  if (!stats.isFile()) return "not-regular";
  return "not-directory";
}

/** Turns an open(2) failure of one component into a refusal (errors we do not expect are rethrown). */
function refusalForOpenError(error: unknown, name: string, entry: Stats | undefined): WorkspaceFsError {
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
function assertPlainFile(stats: Stats, name: string): void {
  if (stats.isDirectory()) throw new WorkspaceFsError("is-directory", `'${name}' is a directory`);
  if (!stats.isFile()) throw new WorkspaceFsError("not-regular", `'${name}' is not a regular file`);
  if (stats.nlink > 1)
    throw new WorkspaceFsError(
      "outside",
      `'${name}' has ${stats.nlink} hard links; linked files are not read`,
    );
}

function displayName(components: readonly string[]): string {
  return components.length === 0 ? "." : components.join("/");
}

// ---------------------------------------------------------------------------------------------------------
// Async operations (tools): thread pool only, a deadline, every descriptor closed whatever happens.

/** One bounded operation: the descriptors it opened and its deadline, checked between steps. */
class Operation {
  readonly #handles = new Set<FileHandle>();
  readonly #deadlineAt: number;
  readonly #signal: AbortSignal | undefined;

  constructor(timeoutMs: number, signal: AbortSignal | undefined) {
    this.#deadlineAt = Date.now() + timeoutMs;
    this.#signal = signal;
  }

  check(): void {
    if (Date.now() > this.#deadlineAt || this.#signal?.aborted)
      throw new WorkspaceFsError("timeout", "the operation ran out of time");
  }

  async open(path: string, flags: number, mode?: number): Promise<FileHandle> {
    this.check();
    const handle = await open(path, flags, mode);
    this.#handles.add(handle);
    this.check();
    return handle;
  }

  async close(handle: FileHandle): Promise<void> {
    this.#handles.delete(handle);
    await handle.close();
  }

  async closeAll(): Promise<void> {
    const handles = [...this.#handles];
    this.#handles.clear();
    await Promise.allSettled(handles.map((handle) => handle.close()));
  }
}

/** Options of every async workspace operation. */
export interface WorkspaceFsOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

async function runOperation<T>(
  what: string,
  options: WorkspaceFsOptions,
  body: (operation: Operation) => Promise<T>,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? WORKSPACE_FS_TIMEOUT_MS;
  const operation = new Operation(timeoutMs, options.signal);
  const work = (async () => {
    try {
      return await body(operation);
    } finally {
      await operation.closeAll();
    }
  })();
  try {
    return await withDeadline(work, { timeoutMs, signal: options.signal, what });
  } catch (error) {
    if (
      error instanceof ProgAgentError &&
      (error.code === ERROR_CODES.TIMEOUT || error.code === ERROR_CODES.ABORTED)
    )
      throw new WorkspaceFsError("timeout", `${what} did not finish within ${timeoutMs} ms`, {
        cause: error,
      });
    throw error;
  }
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

async function openRoot(operation: Operation, root: string): Promise<FileHandle> {
  // The root path is the host's own (a directory it created); only what lies below it is the sandbox's.
  assertProcFd();
  return await operation.open(root, constants.O_RDONLY | constants.O_DIRECTORY);
}

/**
 * What a failed no-follow directory open means. ENOTDIR is ambiguous (a link, a file, or an entry swapped
 * between the open and the lstat that explains it), so `undefined` says "try again".
 */
function directoryOpenRefusal(
  error: unknown,
  name: string,
  entry: Stats | undefined,
): WorkspaceFsError | undefined {
  if (errnoCode(error) === "ENOTDIR" && (entry === undefined || entry.isDirectory())) return undefined;
  return refusalForOpenError(error, name, entry);
}

const DIRECTORY_OPEN_ATTEMPTS = 4;

function changingError(name: string): WorkspaceFsError {
  return new WorkspaceFsError("outside", `'${name}' kept changing between a directory and something else`);
}

async function openChildDirectory(
  operation: Operation,
  parent: FileHandle,
  name: string,
): Promise<FileHandle> {
  for (let attempt = 0; attempt < DIRECTORY_OPEN_ATTEMPTS; attempt += 1) {
    try {
      return await operation.open(at(parent.fd, name), DIRECTORY_FLAGS);
    } catch (error) {
      if (error instanceof WorkspaceFsError) throw error;
      const refusal = directoryOpenRefusal(error, name, await lstatOrUndefined(at(parent.fd, name)));
      if (refusal) throw refusal;
    }
  }
  throw changingError(name);
}

/** Opens the directory at `components` below an open directory, one no-follow open per component. */
async function openDirectoryFrom(
  operation: Operation,
  start: FileHandle,
  components: readonly string[],
): Promise<FileHandle> {
  let current = start;
  for (const name of components) {
    const next = await openChildDirectory(operation, current, name);
    if (current !== start) await operation.close(current);
    current = next;
  }
  return current;
}

/** Opens the regular file `name` of an open directory for reading (no-follow, non-blocking) and fstat-checks it. */
async function openPlainFileIn(
  operation: Operation,
  parent: FileHandle,
  name: string,
): Promise<{ handle: FileHandle; stats: Stats }> {
  let handle: FileHandle;
  try {
    handle = await operation.open(at(parent.fd, name), READ_FLAGS);
  } catch (error) {
    if (error instanceof WorkspaceFsError) throw error;
    throw refusalForOpenError(error, name, await lstatOrUndefined(at(parent.fd, name)));
  }
  const stats = await handle.stat();
  assertPlainFile(stats, name);
  return { handle, stats };
}

/** Opens the regular file at `components` below the root (walk as above, then openPlainFileIn). */
async function openPlainFile(
  operation: Operation,
  root: FileHandle,
  components: readonly string[],
): Promise<{ handle: FileHandle; stats: Stats }> {
  if (components.length === 0)
    throw new WorkspaceFsError("is-directory", "the workspace root is a directory");
  const parent = await openDirectoryFrom(operation, root, components.slice(0, -1));
  try {
    return await openPlainFileIn(operation, parent, components[components.length - 1]!);
  } finally {
    if (parent !== root) await operation.close(parent);
  }
}

async function readWhole(
  operation: Operation,
  handle: FileHandle,
  stats: Stats,
  maxBytes: number,
): Promise<Buffer> {
  if (stats.size > maxBytes)
    throw new WorkspaceFsError("too-large", `the file is ${stats.size} bytes`, { sizeBytes: stats.size });
  // The size fstat gave is what is read: a file that grows meanwhile is not followed further.
  const buffer = Buffer.allocUnsafe(stats.size);
  let length = 0;
  while (length < buffer.length) {
    operation.check();
    const { bytesRead } = await handle.read(
      buffer,
      length,
      Math.min(CHUNK_BYTES, buffer.length - length),
      length,
    );
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}

/** Reads a workspace text file (UTF-8) of at most `maxBytes`, never following a link or reading a non-file. */
export async function readWorkspaceText(
  root: string,
  path: string,
  options: WorkspaceFsOptions & { maxBytes?: number } = {},
): Promise<string> {
  const components = parseWorkspacePath(path);
  return await runOperation(`reading '${displayName(components)}'`, options, async (operation) => {
    const { handle, stats } = await openPlainFile(operation, await openRoot(operation, root), components);
    const bytes = await readWhole(operation, handle, stats, options.maxBytes ?? MAX_READ_FILE_BYTES);
    return bytes.toString("utf8");
  });
}

/** One regular file found by a walk: its workspace-relative path and size. */
export interface WorkspaceFileEntry {
  path: string;
  sizeBytes: number;
}

interface WalkBudget {
  entries: number;
}

function walkLimitError(): WorkspaceFsError {
  return new WorkspaceFsError(
    "too-many",
    `more than ${MAX_WALK_ENTRIES} entries or directories nested deeper than ${MAX_WALK_DEPTH}`,
  );
}

async function walkDirectory(
  operation: Operation,
  directory: FileHandle,
  prefix: readonly string[],
  budget: WalkBudget,
  found: WorkspaceFileEntry[],
): Promise<void> {
  if (prefix.length > MAX_WALK_DEPTH) throw walkLimitError();
  operation.check();
  // The directory's own size bounds what readdir would load (a few dozen bytes per entry on every Linux fs).
  if ((await directory.stat()).size > MAX_DIRECTORY_BYTES) throw walkLimitError();
  const names = await readdir(`/proc/self/fd/${directory.fd}`);
  budget.entries += names.length;
  if (budget.entries > MAX_WALK_ENTRIES) throw walkLimitError();
  // lstat of `<dirfd>/<name>` never follows the name; the thread pool runs a batch of them side by side
  // (batches, so that a huge directory does not queue everyone else's file system calls behind it).
  const allStats: Array<Stats | undefined> = [];
  for (let start = 0; start < names.length; start += LSTAT_BATCH) {
    operation.check();
    const batch = names.slice(start, start + LSTAT_BATCH);
    allStats.push(...(await Promise.all(batch.map((name) => lstatOrUndefined(at(directory.fd, name))))));
  }
  for (const [index, name] of names.entries()) {
    const stats = allStats[index];
    if (!stats) continue;
    if (stats.isDirectory()) {
      let child: FileHandle;
      try {
        child = await openChildDirectory(operation, directory, name);
      } catch (error) {
        if (error instanceof WorkspaceFsError && error.reason !== "timeout") continue; // swapped meanwhile
        throw error;
      }
      try {
        await walkDirectory(operation, child, [...prefix, name], budget, found);
      } finally {
        await operation.close(child);
      }
    } else if (stats.isFile() && stats.nlink === 1) {
      found.push({ path: [...prefix, name].join("/"), sizeBytes: stats.size });
    }
  }
}

/**
 * The directories a search reads files from, opened once each (walking from the root, one no-follow open per
 * component) and kept for the rest of the operation. At most DIRECTORY_CACHE_SIZE stay open.
 */
class DirectoryCache {
  readonly #open = new Map<string, FileHandle>();

  constructor(
    private readonly operation: Operation,
    private readonly root: FileHandle,
  ) {}

  async get(components: readonly string[]): Promise<FileHandle> {
    const key = components.join("/");
    const cached = this.#open.get(key);
    if (cached) return cached;
    if (this.#open.size >= DIRECTORY_CACHE_SIZE) await this.clear();
    let current = this.root;
    const walked: string[] = [];
    for (const name of components) {
      walked.push(name);
      const known = this.#open.get(walked.join("/"));
      if (known) {
        current = known;
        continue;
      }
      current = await openChildDirectory(this.operation, current, name);
      this.#open.set(walked.join("/"), current);
    }
    return current;
  }

  async clear(): Promise<void> {
    const handles = [...this.#open.values()];
    this.#open.clear();
    for (const handle of handles) await this.operation.close(handle);
  }
}

const DIRECTORY_CACHE_SIZE = 32;

function byPath(a: WorkspaceFileEntry, b: WorkspaceFileEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

async function listUnder(
  operation: Operation,
  root: FileHandle,
  components: readonly string[],
): Promise<WorkspaceFileEntry[]> {
  const directory = await openDirectoryFrom(operation, root, components);
  const found: WorkspaceFileEntry[] = [];
  try {
    await walkDirectory(operation, directory, components, { entries: 0 }, found);
  } finally {
    if (directory !== root) await operation.close(directory);
  }
  return found.sort(byPath);
}

/**
 * Every singly linked regular file under a workspace directory (recursively), workspace-relative paths
 * sorted. Links, FIFOs, sockets and devices are left out; a directory swapped for a link is not entered.
 */
export async function listWorkspaceEntries(
  root: string,
  path = ".",
  options: WorkspaceFsOptions = {},
): Promise<WorkspaceFileEntry[]> {
  const components = parseWorkspacePath(path);
  return await runOperation(`listing '${displayName(components)}'`, options, async (operation) =>
    listUnder(operation, await openRoot(operation, root), components),
  );
}

/** A line that contains the query. */
export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

/** The result of a search: the matches in path and line order, and why it stopped early, if it did. */
export interface SearchResult {
  matches: SearchMatch[];
  truncated?: string;
}

const MATCH_TEXT_CHARS = 500;

/** Finds matching lines in a stream of text; matching is per line, case-insensitive, like `includes`. */
class LineMatcher {
  #line = 1;
  #carry = "";
  /** The first characters of a long line already searched in pieces, and whether it was reported. */
  #longLine: { prefix: string; reported: boolean } | undefined;

  constructor(
    private readonly needle: string,
    private readonly path: string,
    private readonly matches: SearchMatch[],
    private readonly maxMatches: number,
  ) {}

  get full(): boolean {
    return this.matches.length >= this.maxMatches;
  }

  push(text: string): void {
    let start = 0;
    const first = text.indexOf("\n");
    if (first === -1) {
      this.#append(text);
      return;
    }
    this.#endLine(this.#carry + text.slice(0, first));
    this.#carry = "";
    start = first + 1;
    const last = text.lastIndexOf("\n");
    if (last > first) {
      const middle = text.slice(start, last);
      // Whole lines without the query (most of a big file) are only counted, not split.
      if (middle.toLowerCase().includes(this.needle)) {
        for (const line of middle.split("\n")) {
          if (this.full) return;
          this.#endLine(line);
        }
      } else {
        this.#line += countNewlines(middle) + 1;
      }
      start = last + 1;
    }
    this.#append(text.slice(start));
  }

  end(): void {
    if (this.#carry !== "" || this.#longLine) this.#endLine(this.#carry);
    this.#carry = "";
  }

  #append(text: string): void {
    this.#carry += text;
    if (this.#carry.length > MAX_SEARCH_LINE_CHARS) {
      // A very long line: search what we have and keep only its beginning for the report.
      this.#longLine ??= { prefix: this.#carry.slice(0, MATCH_TEXT_CHARS), reported: false };
      if (!this.#longLine.reported && this.#carry.toLowerCase().includes(this.needle))
        this.#report(this.#longLine.prefix);
      // Keep the last characters a match could start in, so that no match across two pieces is missed.
      this.#carry = this.needle.length > 1 ? this.#carry.slice(-(this.needle.length - 1)) : "";
    }
  }

  #endLine(line: string): void {
    if (this.#longLine) {
      if (!this.#longLine.reported && line.toLowerCase().includes(this.needle))
        this.#report(this.#longLine.prefix);
      this.#longLine = undefined;
    } else if (line.toLowerCase().includes(this.needle)) {
      this.#report(line.slice(0, MATCH_TEXT_CHARS));
    }
    this.#line += 1;
  }

  #report(text: string): void {
    if (this.full) return;
    if (this.#longLine) this.#longLine.reported = true;
    this.matches.push({ path: this.path, line: this.#line, text });
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

/**
 * Searches the regular files under a workspace directory for lines containing `query` (case-insensitive),
 * in sorted path order, streaming each file. Stops with `truncated` set after `maxBytes` scanned or
 * `maxMatches` found. A missing directory yields no matches (as the tools always did).
 */
export async function searchWorkspaceFiles(
  root: string,
  path: string,
  query: string,
  options: WorkspaceFsOptions & { maxBytes?: number; maxMatches?: number } = {},
): Promise<SearchResult> {
  const components = parseWorkspacePath(path);
  const maxBytes = options.maxBytes ?? MAX_SEARCH_BYTES;
  const maxMatches = options.maxMatches ?? MAX_SEARCH_MATCHES;
  const needle = query.toLowerCase();
  return await runOperation(`searching '${displayName(components)}'`, options, async (operation) => {
    const rootHandle = await openRoot(operation, root);
    let files: WorkspaceFileEntry[];
    try {
      files = await listUnder(operation, rootHandle, components);
    } catch (error) {
      if (error instanceof WorkspaceFsError && error.reason === "not-found") return { matches: [] };
      throw error;
    }
    const matches: SearchMatch[] = [];
    let scanned = 0;
    const directories = new DirectoryCache(operation, rootHandle);
    let buffer = Buffer.alloc(0);
    for (const file of files) {
      const fileComponents = file.path.split("/");
      let opened: { handle: FileHandle; stats: Stats };
      try {
        const parent = await directories.get(fileComponents.slice(0, -1));
        opened = await openPlainFileIn(operation, parent, fileComponents[fileComponents.length - 1]!);
      } catch (error) {
        if (error instanceof WorkspaceFsError && error.reason !== "timeout") continue; // changed since listed
        throw error;
      }
      const wanted = Math.min(CHUNK_BYTES, Math.max(4096, opened.stats.size));
      if (buffer.length < wanted) buffer = Buffer.allocUnsafe(wanted);
      const matcher = new LineMatcher(needle, file.path, matches, maxMatches);
      const decoder = new StringDecoder("utf8");
      try {
        for (let position = 0; ;) {
          operation.check();
          if (scanned >= maxBytes) {
            return {
              matches,
              truncated: `search stopped after scanning ${maxBytes} bytes (in '${file.path}'); search a smaller directory or use code`,
            };
          }
          const { bytesRead } = await opened.handle.read(
            buffer,
            0,
            Math.min(buffer.length, maxBytes - scanned),
            position,
          );
          if (bytesRead === 0) break;
          position += bytesRead;
          scanned += bytesRead;
          matcher.push(decoder.write(buffer.subarray(0, bytesRead)));
          if (matcher.full) break;
        }
        if (!matcher.full) {
          matcher.push(decoder.end());
          matcher.end();
        }
      } finally {
        await operation.close(opened.handle);
      }
      if (matcher.full)
        return {
          matches,
          truncated: `search stopped after ${maxMatches} matching lines; narrow the query or the path`,
        };
    }
    return { matches };
  });
}

/**
 * Creates or overwrites a workspace text file. Missing parent directories are created; no link is ever
 * followed (a new file is created with O_CREAT|O_EXCL|O_NOFOLLOW in its parent's descriptor, an existing
 * one is opened with O_NOFOLLOW, fstat-checked and truncated through its descriptor). Returns the bytes
 * written.
 */
export async function writeWorkspaceText(
  root: string,
  path: string,
  content: string,
  options: WorkspaceFsOptions = {},
): Promise<number> {
  const components = parseWorkspacePath(path);
  if (components.length === 0)
    throw new WorkspaceFsError("is-directory", "the workspace root is a directory");
  const bytes = Buffer.from(content, "utf8");
  return await runOperation(`writing '${displayName(components)}'`, options, async (operation) => {
    let directory = await openRoot(operation, root);
    for (const name of components.slice(0, -1)) {
      let next: FileHandle;
      try {
        next = await openChildDirectory(operation, directory, name);
      } catch (error) {
        if (!(error instanceof WorkspaceFsError) || error.reason !== "not-found") throw error;
        try {
          await mkdir(at(directory.fd, name));
        } catch (mkdirError) {
          if (errnoCode(mkdirError) !== "EEXIST") throw mkdirError;
        }
        next = await openChildDirectory(operation, directory, name);
      }
      await operation.close(directory);
      directory = next;
    }
    const name = components[components.length - 1]!;
    const target = at(directory.fd, name);
    // A bounded number of attempts: the entry may appear or vanish between the two opens.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      let handle: FileHandle;
      let created = false;
      try {
        handle = await operation.open(target, CREATE_FLAGS, 0o666);
        created = true;
      } catch (error) {
        if (error instanceof WorkspaceFsError || errnoCode(error) !== "EEXIST") throw error;
        try {
          handle = await operation.open(target, WRITE_EXISTING_FLAGS);
        } catch (openError) {
          if (openError instanceof WorkspaceFsError) throw openError;
          if (errnoCode(openError) === "ENOENT") continue;
          throw refusalForOpenError(openError, name, await lstatOrUndefined(target));
        }
      }
      try {
        if (!created) {
          assertPlainFile(await handle.stat(), name);
          await handle.truncate(0);
        }
        let written = 0;
        while (written < bytes.length) {
          operation.check();
          const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
          written += bytesWritten;
        }
      } finally {
        await operation.close(handle);
      }
      return bytes.length;
    }
    throw new WorkspaceFsError("timeout", `'${name}' kept changing while it was written`);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Sync operations: for the state views and generators, whose workspaces no program can change any more.

function lstatSyncOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function openChildDirectorySync(parent: number, name: string): number {
  for (let attempt = 0; attempt < DIRECTORY_OPEN_ATTEMPTS; attempt += 1) {
    try {
      return openSync(at(parent, name), DIRECTORY_FLAGS);
    } catch (error) {
      const refusal = directoryOpenRefusal(error, name, lstatSyncOrUndefined(at(parent, name)));
      if (refusal) throw refusal;
    }
  }
  throw changingError(name);
}

function openDirectorySync(root: string, components: readonly string[]): number {
  assertProcFd();
  let current = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const name of components) {
      const next = openChildDirectorySync(current, name);
      closeSync(current);
      current = next;
    }
    return current;
  } catch (error) {
    closeSync(current);
    throw error;
  }
}

/** Sync form of readWorkspaceText, for states no program can change any more. */
export function readWorkspaceTextSync(root: string, path: string, maxBytes = MAX_READ_FILE_BYTES): string {
  const components = parseWorkspacePath(path);
  if (components.length === 0)
    throw new WorkspaceFsError("is-directory", "the workspace root is a directory");
  const name = components[components.length - 1]!;
  const parent = openDirectorySync(root, components.slice(0, -1));
  let fd: number;
  try {
    fd = openSync(at(parent, name), READ_FLAGS);
  } catch (error) {
    throw refusalForOpenError(error, name, lstatSyncOrUndefined(at(parent, name)));
  } finally {
    closeSync(parent);
  }
  try {
    const stats = fstatSync(fd);
    assertPlainFile(stats, name);
    if (stats.size > maxBytes)
      throw new WorkspaceFsError("too-large", `the file is ${stats.size} bytes`, { sizeBytes: stats.size });
    const buffer = Buffer.allocUnsafe(stats.size);
    let length = 0;
    while (length < buffer.length) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

function walkDirectorySync(
  directory: number,
  prefix: readonly string[],
  budget: WalkBudget,
  found: WorkspaceFileEntry[],
): void {
  if (prefix.length > MAX_WALK_DEPTH) throw walkLimitError();
  if (fstatSync(directory).size > MAX_DIRECTORY_BYTES) throw walkLimitError();
  const names = readdirSync(`/proc/self/fd/${directory}`);
  budget.entries += names.length;
  if (budget.entries > MAX_WALK_ENTRIES) throw walkLimitError();
  for (const name of names) {
    const stats = lstatSyncOrUndefined(at(directory, name));
    if (!stats) continue;
    if (stats.isDirectory()) {
      let child: number;
      try {
        child = openSync(at(directory, name), DIRECTORY_FLAGS);
      } catch {
        continue;
      }
      try {
        walkDirectorySync(child, [...prefix, name], budget, found);
      } finally {
        closeSync(child);
      }
    } else if (stats.isFile() && stats.nlink === 1) {
      found.push({ path: [...prefix, name].join("/"), sizeBytes: stats.size });
    }
  }
}

/** Sync form of listWorkspaceEntries; a missing directory yields no files. */
export function listWorkspaceEntriesSync(root: string, path = "."): WorkspaceFileEntry[] {
  const components = parseWorkspacePath(path);
  let directory: number;
  try {
    directory = openDirectorySync(root, components);
  } catch (error) {
    if (error instanceof WorkspaceFsError && error.reason === "not-found") return [];
    if (errnoCode(error) === "ENOENT") return [];
    throw error;
  }
  const found: WorkspaceFileEntry[] = [];
  try {
    walkDirectorySync(directory, components, { entries: 0 }, found);
  } finally {
    closeSync(directory);
  }
  return found.sort(byPath);
}

/** Sync form of writeWorkspaceText (generators writing an instance under construction). */
export function writeWorkspaceTextSync(root: string, path: string, content: string): void {
  const components = parseWorkspacePath(path);
  if (components.length === 0)
    throw new WorkspaceFsError("is-directory", "the workspace root is a directory");
  assertProcFd();
  let directory = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const name of components.slice(0, -1)) {
      try {
        mkdirSync(at(directory, name));
      } catch (error) {
        if (errnoCode(error) !== "EEXIST") throw error;
      }
      const next = openChildDirectorySync(directory, name);
      closeSync(directory);
      directory = next;
    }
    const name = components[components.length - 1]!;
    const target = at(directory, name);
    let fd: number;
    let created = true;
    try {
      fd = openSync(target, CREATE_FLAGS, 0o666);
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") throw error;
      created = false;
      try {
        fd = openSync(target, WRITE_EXISTING_FLAGS);
      } catch (openError) {
        throw refusalForOpenError(openError, name, lstatSyncOrUndefined(target));
      }
    }
    try {
      if (!created) {
        assertPlainFile(fstatSync(fd), name);
        ftruncateSync(fd, 0);
      }
      const bytes = Buffer.from(content, "utf8");
      let written = 0;
      while (written < bytes.length)
        written += writeSync(fd, bytes, written, bytes.length - written, written);
    } finally {
      closeSync(fd);
    }
  } finally {
    closeSync(directory);
  }
}
