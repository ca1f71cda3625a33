import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  type Stats,
} from "node:fs";
import { join } from "node:path";
import { removeTreeSync } from "../core/index.js";
import { readWorkspaceTextSync, writeWorkspaceTextSync } from "../envs/index.js";

/** A draft is one task module; everything task-specific (data included) lives in it (`prepare`). */
export const DRAFT_MODULE = "task.ts";
export const MAX_DRAFT_BYTES = 256 * 1024;
const DRAFT_PACKAGE_JSON = `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`;
/** The draft folder's mode, restored after every run (the sandbox may chmod its /draft). */
export const DRAFT_FOLDER_MODE = 0o755;

/**
 * A candidate's draft folder: the only directory its sandbox can write. The host writes and reads it only
 * without following links (the sandboxed code may have planted any), and only the task module by name.
 */
export interface DraftFolder {
  readonly dir: string;
  write(path: string, content: string): string;
  read(path: string): string;
  /** The task module's text, or null when it is missing or not the very file the host wrote. */
  readModule(): string | null;
  /**
   * Restores the folder's mode and owner and removes whatever the sandboxed code left besides the files the host
   * wrote (the task module and package.json, checked by inode and owner).
   */
  sweep(): void;
  reset(): void;
}

function checkPath(path: string): void {
  if (path !== DRAFT_MODULE)
    throw new Error(
      `a draft is the single file '${DRAFT_MODULE}' (got '${path}'): put task-specific data in its prepare()`,
    );
}

/**
 * Gives the draft folder back its mode and owner after a run, through a descriptor opened without following a
 * link (the folder itself is the host's: only its contents were the sandbox's).
 */
export function restoreDraftFolder(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return; // gone: the next write makes it again
  }
  try {
    const stats = fstatSync(fd);
    const uid = process.getuid?.();
    const gid = process.getgid?.();
    if (uid !== undefined && gid !== undefined && (stats.uid !== uid || stats.gid !== gid))
      fchownSync(fd, uid, gid);
    if ((stats.mode & 0o7777) !== DRAFT_FOLDER_MODE) fchmodSync(fd, DRAFT_FOLDER_MODE);
  } finally {
    closeSync(fd);
  }
}

/** Identifies a file the host wrote: the same inode, still a plain file of this user with one link. */
interface Written {
  dev: number;
  ino: number;
}

function isPlainOwnFile(stats: Stats): boolean {
  const uid = process.getuid?.();
  return (
    stats.isFile() &&
    stats.nlink === 1 &&
    (stats.mode & 0o6000) === 0 &&
    (uid === undefined || stats.uid === uid)
  );
}

export function openDraftFolder(dir: string): DraftFolder {
  const written = new Map<string, Written>();
  const stat = (name: string): Stats | undefined => {
    try {
      return lstatSync(join(dir, name));
    } catch {
      return undefined;
    }
  };
  const isHostFile = (name: string): boolean => {
    const stats = stat(name);
    const record = written.get(name);
    return (
      stats !== undefined &&
      record !== undefined &&
      isPlainOwnFile(stats) &&
      stats.dev === record.dev &&
      stats.ino === record.ino
    );
  };
  const writeHostFile = (name: string, content: string): void => {
    writeWorkspaceTextSync(dir, name, content);
    const stats = stat(name)!;
    written.set(name, { dev: stats.dev, ino: stats.ino });
  };
  const ensure = (): void => {
    mkdirSync(dir, { recursive: true, mode: DRAFT_FOLDER_MODE });
    if (isHostFile("package.json")) return;
    if (stat("package.json") !== undefined) removeTreeSync(join(dir, "package.json"));
    writeHostFile("package.json", DRAFT_PACKAGE_JSON);
  };
  ensure();
  return {
    dir,
    write(path, content) {
      checkPath(path);
      const bytes = Buffer.byteLength(content, "utf8");
      if (bytes > MAX_DRAFT_BYTES)
        throw new Error(
          `${path} would be ${bytes} bytes; a draft module is at most ${MAX_DRAFT_BYTES} bytes`,
        );
      ensure();
      // Never into a file the host did not write (a sandbox could have left one with a second link).
      if (!isHostFile(path) && stat(path) !== undefined) removeTreeSync(join(dir, path));
      writeHostFile(path, content);
      return `wrote ${path} (${bytes} bytes)`;
    },
    read(path) {
      checkPath(path);
      const text = isHostFile(path) ? readModuleText(dir, path) : null;
      if (text === null) throw new Error(`${path} has not been written yet`);
      return text;
    },
    readModule: () => (isHostFile(DRAFT_MODULE) ? readModuleText(dir, DRAFT_MODULE) : null),
    sweep() {
      restoreDraftFolder(dir);
      for (const entry of readdirSync(dir)) {
        if (written.has(entry) && isHostFile(entry)) continue;
        written.delete(entry);
        removeTreeSync(join(dir, entry));
      }
      ensure();
    },
    reset() {
      removeTreeSync(dir);
      written.clear();
      ensure();
    },
  };
}

function readModuleText(dir: string, path: string): string | null {
  try {
    return readWorkspaceTextSync(dir, path);
  } catch {
    return null;
  }
}
