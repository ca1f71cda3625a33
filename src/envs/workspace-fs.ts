import { lstat, mkdir, open, readdir, type FileHandle } from "node:fs/promises";
import { constants, type Stats } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { ERROR_CODES, ProgAgentError, withDeadline } from "../core/index.js";
import { LineMatcher, type SearchMatch } from "./line-matcher.js";
import {
  CHUNK_BYTES,
  CREATE_FLAGS,
  DIRECTORY_FLAGS,
  DIRECTORY_OPEN_ATTEMPTS,
  LSTAT_BATCH,
  MAX_DIRECTORY_BYTES,
  MAX_READ_FILE_BYTES,
  MAX_SEARCH_BYTES,
  MAX_SEARCH_MATCHES,
  MAX_WALK_DEPTH,
  MAX_WALK_ENTRIES,
  READ_FLAGS,
  WORKSPACE_FS_TIMEOUT_MS,
  WRITE_EXISTING_FLAGS,
  WorkspaceFsError,
  assertPlainFile,
  assertProcFd,
  at,
  byPath,
  changingError,
  directoryOpenRefusal,
  displayName,
  errnoCode,
  parseWorkspacePath,
  refusalForOpenError,
  walkLimitError,
  type WalkBudget,
  type WorkspaceFileEntry,
} from "./workspace-path.js";

/*
 * The workspace file operations of the tools, asynchronous: how they stay inside the workspace is described
 * in workspace-path.ts. They use only libuv's thread pool, check a deadline between steps and are raced
 * against it, and close every descriptor they opened whatever happens.
 */

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
  // Intermediate directories stay open until the operation ends (closed together, in parallel).
  let current = start;
  for (const name of components) current = await openChildDirectory(operation, current, name);
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
  return await openPlainFileIn(operation, parent, components[components.length - 1]!);
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
  const subdirectories: string[] = [];
  for (const [index, name] of names.entries()) {
    const stats = allStats[index];
    if (stats?.isDirectory()) subdirectories.push(name);
    else if (stats?.isFile() && stats.nlink === 1)
      found.push({ path: [...prefix, name].join("/"), sizeBytes: stats.size });
  }
  const walkChild = async (name: string): Promise<void> => {
    let child: FileHandle;
    try {
      child = await openChildDirectory(operation, directory, name);
    } catch (error) {
      if (error instanceof WorkspaceFsError && error.reason !== "timeout") return; // swapped meanwhile
      throw error;
    }
    budget.openDirectories += 1;
    try {
      await walkDirectory(operation, child, [...prefix, name], budget, found);
    } finally {
      budget.openDirectories -= 1;
      await operation.close(child);
    }
  };
  // A few subdirectories side by side, as long as few directories are open; one at a time beyond that.
  for (let start = 0; start < subdirectories.length;) {
    const width = budget.openDirectories < MAX_OPEN_DIRECTORIES ? WALK_WIDTH : 1;
    const batch = subdirectories.slice(start, start + width);
    await settleAll(batch.map(walkChild));
    start += batch.length;
  }
}

/** Awaits every promise (so none is left running), then rethrows the first failure. */
async function settleAll(promises: Array<Promise<unknown>>): Promise<void> {
  const outcomes = await Promise.allSettled(promises);
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
}

const WALK_WIDTH = 4;
const MAX_OPEN_DIRECTORIES = 16;

/**
 * The directories a search reads files from, opened once each (walking from the root, one no-follow open per
 * component) and kept for the rest of the operation. Beyond DIRECTORY_CACHE_SIZE directories, a file's
 * directories are opened for it alone and closed by `release`.
 */
class DirectoryCache {
  readonly #open = new Map<string, Promise<FileHandle>>();

  constructor(
    private readonly operation: Operation,
    private readonly root: FileHandle,
  ) {}

  async get(components: readonly string[]): Promise<{ directory: FileHandle; release: () => Promise<void> }> {
    const uncached: FileHandle[] = [];
    let current = this.root;
    for (const [index, name] of components.entries()) {
      const key = components.slice(0, index + 1).join("/");
      const known = this.#open.get(key);
      if (known) {
        current = await known;
      } else if (this.#open.size < DIRECTORY_CACHE_SIZE) {
        const opening = openChildDirectory(this.operation, current, name);
        // A failed open is not cached: the next file under it tries again (and is refused again).
        this.#open.set(key, opening);
        opening.catch(() => this.#open.delete(key));
        current = await opening;
      } else {
        current = await openChildDirectory(this.operation, current, name);
        uncached.push(current);
      }
    }
    return {
      directory: current,
      release: async () => {
        for (const handle of uncached) await this.operation.close(handle);
      },
    };
  }
}

const DIRECTORY_CACHE_SIZE = 32;
/** A search opens and reads this many small files ahead of the one it is matching. */
const SEARCH_WINDOW = 8;
/** Files up to this size are read whole ahead of their turn; larger ones are streamed in their turn. */
const PREFETCH_FILE_BYTES = 256 * 1024;

interface LoadedFile {
  path: string;
  handle: FileHandle;
  stats: Stats;
  /** The whole content of a small file (its handle already closed); undefined for a file to stream. */
  content: Buffer | undefined;
}

async function listUnder(
  operation: Operation,
  root: FileHandle,
  components: readonly string[],
): Promise<WorkspaceFileEntry[]> {
  const directory = await openDirectoryFrom(operation, root, components);
  const found: WorkspaceFileEntry[] = [];
  try {
    await walkDirectory(operation, directory, components, { entries: 0, openDirectories: 0 }, found);
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

/** The result of a search: the matches in path and line order, and why it stopped early, if it did. */
export interface SearchResult {
  matches: SearchMatch[];
  truncated?: string;
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
    const directories = new DirectoryCache(operation, rootHandle);
    const load = async (file: WorkspaceFileEntry): Promise<LoadedFile | undefined> => {
      const fileComponents = file.path.split("/");
      try {
        const { directory, release } = await directories.get(fileComponents.slice(0, -1));
        let opened: { handle: FileHandle; stats: Stats };
        try {
          opened = await openPlainFileIn(operation, directory, fileComponents[fileComponents.length - 1]!);
        } finally {
          await release();
        }
        if (opened.stats.size > PREFETCH_FILE_BYTES)
          return { path: file.path, ...opened, content: undefined };
        const content = await readWhole(operation, opened.handle, opened.stats, PREFETCH_FILE_BYTES);
        await operation.close(opened.handle);
        return { path: file.path, ...opened, content };
      } catch (error) {
        if (error instanceof WorkspaceFsError && error.reason !== "timeout") return undefined; // changed since listed
        throw error;
      }
    };
    // Files are loaded a few at a time ahead of the one being matched (the thread pool runs them side by side)
    // and matched strictly in path order.
    const pending: Array<Promise<LoadedFile | undefined>> = [];
    let nextToLoad = 0;
    const fill = (): void => {
      while (nextToLoad < files.length && pending.length < SEARCH_WINDOW)
        pending.push(load(files[nextToLoad++]!));
    };
    const budget = { scanned: 0, maxBytes, maxMatches };
    try {
      fill();
      while (pending.length > 0) {
        const loaded = await pending.shift()!;
        fill();
        if (!loaded) continue;
        const stopped = await matchFile(
          operation,
          loaded,
          new LineMatcher(needle, loaded.path, matches, maxMatches),
          budget,
        );
        if (stopped) return { matches, truncated: stopped };
      }
      return { matches };
    } finally {
      await Promise.allSettled(pending);
    }
  });
}

/** Feeds one file to the matcher; returns why the search must stop, if it must. */
async function matchFile(
  operation: Operation,
  file: LoadedFile,
  matcher: LineMatcher,
  budget: { scanned: number; maxBytes: number; maxMatches: number },
): Promise<string | undefined> {
  const decoder = new StringDecoder("utf8");
  const bytesStop = `search stopped after scanning ${budget.maxBytes} bytes (in '${file.path}'); search a smaller directory or use code`;
  const matchStop = `search stopped after ${budget.maxMatches} matching lines; narrow the query or the path`;
  if (file.content) {
    const room = budget.maxBytes - budget.scanned;
    const part = file.content.length > room ? file.content.subarray(0, room) : file.content;
    budget.scanned += part.length;
    matcher.push(decoder.write(part));
    if (matcher.full) return matchStop;
    if (part.length < file.content.length) return bytesStop;
  } else {
    let buffer: Buffer | undefined;
    for (let position = 0; ;) {
      operation.check();
      if (budget.scanned >= budget.maxBytes) return bytesStop;
      buffer ??= Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await file.handle.read(
        buffer,
        0,
        Math.min(buffer.length, budget.maxBytes - budget.scanned),
        position,
      );
      if (bytesRead === 0) break;
      position += bytesRead;
      budget.scanned += bytesRead;
      matcher.push(decoder.write(buffer.subarray(0, bytesRead)));
      if (matcher.full) return matchStop;
    }
    await operation.close(file.handle);
  }
  matcher.push(decoder.end());
  matcher.end();
  return matcher.full ? matchStop : undefined;
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
