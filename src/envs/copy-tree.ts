import { readdirSync, readlinkSync, statSync } from "node:fs";
import { chmod, copyFile, mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";

interface TreeEntry {
  /** Relative to the tree's root. */
  path: string;
  kind: "directory" | "file" | "symlink";
  mode: number;
  target?: string;
}

/** Listings of trees that never change once built (instance caches are content-addressed), by root. */
const listings = new Map<string, TreeEntry[]>();
const MAX_LISTINGS = 256;

function listTree(root: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : join(relative, entry.name);
      const absolute = join(root, path);
      if (entry.isDirectory()) {
        entries.push({ path, kind: "directory", mode: statSync(absolute).mode & 0o7777 });
        walk(path);
      } else if (entry.isSymbolicLink()) {
        entries.push({ path, kind: "symlink", mode: 0, target: readlinkSync(absolute) });
      } else if (entry.isFile()) {
        entries.push({ path, kind: "file", mode: statSync(absolute).mode & 0o7777 });
      }
    }
  };
  walk("");
  return entries;
}

/**
 * Copies an immutable tree (an instance's workspace) into an existing directory, off the event loop: the listing
 * is read once per tree and kept, each episode then only creates its directories and copies the files in
 * parallel. Files keep their modes; links are recreated as links.
 */
export async function copyImmutableTree(root: string, destination: string): Promise<void> {
  let entries = listings.get(root);
  if (!entries) {
    entries = listTree(root);
    if (listings.size >= MAX_LISTINGS) listings.delete(listings.keys().next().value!);
    listings.set(root, entries);
  }
  // Parents come before their children in the listing.
  for (const entry of entries) {
    if (entry.kind !== "directory") continue;
    await mkdir(join(destination, entry.path), { recursive: true });
    await chmod(join(destination, entry.path), entry.mode);
  }
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.kind === "file") await copyFile(join(root, entry.path), join(destination, entry.path));
      else if (entry.kind === "symlink") await symlink(entry.target!, join(destination, entry.path));
    }),
  );
}
