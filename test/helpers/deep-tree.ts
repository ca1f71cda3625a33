import { closeSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { entryAt, NO_FOLLOW_DIRECTORY_FLAGS } from "../../src/core/index.js";

/**
 * A chain of `depth` directories named `d` under `root`, built through descriptors (no path is that long), with
 * the given files written at the bottom: what hostile model code leaves in a workspace for the host's walks.
 */
export function buildDirectoryChain(
  root: string,
  depth: number,
  bottom: Record<string, string | Buffer>,
): void {
  mkdirSync(root, { recursive: true });
  let fd = openSync(root, NO_FOLLOW_DIRECTORY_FLAGS);
  try {
    for (let level = 0; level < depth; level += 1) {
      mkdirSync(entryAt(fd, "d"));
      const next = openSync(entryAt(fd, "d"), NO_FOLLOW_DIRECTORY_FLAGS);
      closeSync(fd);
      fd = next;
    }
    for (const [name, content] of Object.entries(bottom)) writeFileSync(entryAt(fd, name), content);
  } finally {
    closeSync(fd);
  }
}
