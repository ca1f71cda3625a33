import {
  closeSync,
  constants,
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
import {
  CREATE_FLAGS,
  DIRECTORY_FLAGS,
  DIRECTORY_OPEN_ATTEMPTS,
  MAX_DIRECTORY_BYTES,
  MAX_READ_FILE_BYTES,
  MAX_WALK_DEPTH,
  MAX_WALK_ENTRIES,
  READ_FLAGS,
  WRITE_EXISTING_FLAGS,
  WorkspaceFsError,
  assertPlainFile,
  assertProcFd,
  at,
  byPath,
  changingError,
  directoryOpenRefusal,
  errnoCode,
  parseWorkspacePath,
  refusalForOpenError,
  walkLimitError,
  type WalkBudget,
  type WorkspaceFileEntry,
} from "./workspace-path.js";

/*
 * The same operations as workspace-fs.ts, synchronous, for the state views and generators: the instance
 * cache, an instance under construction, or a final workspace after the kernel is gone. Same walk, same
 * refusals and size limits; no deadline, since no program can change these directories any more.
 */

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
  return readWorkspaceBytesSync(root, path, maxBytes).toString("utf8");
}

/** A workspace file's bytes (binary files such as .xlsx), with the same path checks as the text reader. */
export function readWorkspaceBytesSync(root: string, path: string, maxBytes = MAX_READ_FILE_BYTES): Buffer {
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
    return buffer.subarray(0, length);
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
    walkDirectorySync(directory, components, { entries: 0, openDirectories: 0 }, found);
  } finally {
    closeSync(directory);
  }
  return found.sort(byPath);
}

/** Sync form of writeWorkspaceText (generators writing an instance under construction). */
export function writeWorkspaceTextSync(root: string, path: string, content: string | Uint8Array): void {
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
      const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content);
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
