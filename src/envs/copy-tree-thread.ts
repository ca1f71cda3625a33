/**
 * The workspace copier's thread (started by `copyImmutableTree`): it keeps each immutable tree's listing and
 * small files' bytes, and makes each copy with synchronous calls, one file after another. One thread and
 * no hand-offs per file: parallel creation only contends in the file system (measured on ext4: more system
 * time for the same copies), and a hand-off per call costs more than the call on tmpfs.
 */
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { parentPort } from "node:worker_threads";
import type { CopyReply, CopyRequest } from "./copy-tree.js";

interface TreeEntry {
  /** Relative to the tree's root. */
  path: string;
  kind: "directory" | "file" | "symlink";
  mode: number;
  target?: string;
  /** A file's bytes, kept when the file is small; larger files are copied from the tree. */
  content?: Buffer;
}

interface Listing {
  entries: TreeEntry[];
  keptBytes: number;
}

/** Listings of trees that never change once built (instance caches are content-addressed), by root. */
const listings = new Map<string, Listing>();
const MAX_LISTINGS = 256;
/** Files up to this size are kept in memory and written from there; larger ones are copied from the tree. */
const MAX_KEPT_FILE_BYTES = 1024 * 1024;
/** All kept file bytes together: the oldest listings go first beyond it. */
const MAX_KEPT_BYTES = 64 * 1024 * 1024;
let keptBytes = 0;

/** A tree deeper or larger than this is refused (instance workspaces hold tens of files a few levels deep). */
const MAX_TREE_DEPTH = 64;
const MAX_TREE_ENTRIES = 100_000;

/** Lists a tree iteratively (a stack of relative paths, parents before children), within the limits above. */
function listTree(root: string): Listing {
  const entries: TreeEntry[] = [];
  let kept = 0;
  const stack: Array<{ relative: string; depth: number }> = [{ relative: "", depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { relative, depth } = next;
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      if (entries.length >= MAX_TREE_ENTRIES || depth >= MAX_TREE_DEPTH)
        throw new Error(
          `${root} holds more than ${MAX_TREE_ENTRIES} entries or directories nested deeper than ${MAX_TREE_DEPTH}; a workspace copy is refused`,
        );
      const path = relative === "" ? entry.name : join(relative, entry.name);
      const absolute = join(root, path);
      if (entry.isDirectory()) {
        entries.push({ path, kind: "directory", mode: statSync(absolute).mode & 0o7777 });
        stack.push({ relative: path, depth: depth + 1 });
      } else if (entry.isSymbolicLink()) {
        entries.push({ path, kind: "symlink", mode: 0, target: readlinkSync(absolute) });
      } else if (entry.isFile()) {
        const stat = statSync(absolute);
        const file: TreeEntry = { path, kind: "file", mode: stat.mode & 0o7777 };
        if (stat.size <= MAX_KEPT_FILE_BYTES) {
          file.content = readFileSync(absolute);
          kept += file.content.length;
        }
        entries.push(file);
      }
    }
  }
  return { entries, keptBytes: kept };
}

function listing(root: string): Listing {
  let found = listings.get(root);
  if (found) return found;
  found = listTree(root);
  listings.set(root, found);
  keptBytes += found.keptBytes;
  for (const [oldest, old] of listings) {
    if (listings.size <= 1 || (listings.size <= MAX_LISTINGS && keptBytes <= MAX_KEPT_BYTES)) break;
    listings.delete(oldest);
    keptBytes -= old.keptBytes;
  }
  return found;
}

/**
 * A new file with these bytes and exactly this mode. Written rather than copied: on ext4 a copy also
 * truncates and re-modes the new file, and copied files were measured three times as slow to delete.
 */
function writeNewFile(path: string, content: Buffer, mode: number): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    for (let written = 0; written < content.length;)
      written += writeSync(fd, content, written, content.length - written);
    // The umask may have taken bits away at creation.
    if ((fstatSync(fd).mode & 0o7777) !== mode) fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

function copyTree(root: string, destination: string): void {
  // Parents come before their children in the listing.
  for (const entry of listing(root).entries) {
    const target = join(destination, entry.path);
    if (entry.kind === "directory") {
      // Never recursive: a copy that comes late must not recreate a destination its owner removed.
      mkdirSync(target);
      chmodSync(target, entry.mode);
    } else if (entry.kind === "symlink") symlinkSync(entry.target!, target);
    else if (entry.content) writeNewFile(target, entry.content, entry.mode);
    else copyFileSync(join(root, entry.path), target, constants.COPYFILE_EXCL);
  }
}

const port = parentPort;
if (!port) throw new Error("copy-tree-thread runs in a worker thread started by copyImmutableTree");
port.on("message", (request: CopyRequest) => {
  let reply: CopyReply;
  try {
    copyTree(request.root, request.destination);
    reply = { id: request.id };
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    reply = {
      id: request.id,
      error: { message: failure.message ?? String(error), ...(failure.code ? { code: failure.code } : {}) },
    };
  }
  port.postMessage(reply);
});
