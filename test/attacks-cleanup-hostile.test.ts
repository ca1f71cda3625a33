import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTree, removeTreeSync, sweepStale, sweepStaleTempDirs, scratchDir } from "../src/core/index.js";
import { copyImmutableTree } from "../src/envs/copy-tree.js";
import { createKernel } from "../src/kernel/index.js";
import { buildDirectoryChain } from "./helpers/deep-tree.js";

// B14 (attacks.md, second review): model code builds a directory chain about 5,000 deep in its workspace; every
// walk of a workspace the host makes afterwards (removal, copy, sweep) must survive it.

const DEAD_PID = 2 ** 22 + 17; // above the largest pid_max: never alive
const DEPTH = 5_000;
// In the scratch directory (a tmpfs where there is one, as for kernels): removing thousands of directories on a
// journaled disk waits on its journal.
const scratch = mkdtempSync(join(scratchDir().dir, "progagent-attacks-cleanup-"));
afterAll(() => removeTreeSync(scratch));

describe("B14 cleanup survives what model code leaves", () => {
  it("disposes a kernel whose program built a chain 5,000 directories deep, and removes its workspace", async () => {
    const kernel = createKernel({ timeoutMs: 60_000 });
    try {
      const result = await kernel.execute(
        [
          "import os",
          "fd = os.open('.', os.O_RDONLY)",
          `for _ in range(${DEPTH}):`,
          "    os.mkdir('d', dir_fd=fd)",
          "    child = os.open('d', os.O_RDONLY, dir_fd=fd)",
          "    os.close(fd)",
          "    fd = child",
          "os.close(fd)",
          "print('built')",
        ].join("\n"),
      );
      expect(result.text).toContain("built");
    } finally {
      await kernel.dispose();
    }
    expect(existsSync(kernel.workspaceDir)).toBe(false);
  });

  it("removes deep and wide trees iteratively, sync and async, never following a link out", async () => {
    const outside = join(scratch, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "keep.txt"), "keep");
    for (const [name, remove] of [
      ["sync", (path: string) => Promise.resolve(removeTreeSync(path))],
      ["async", removeTree],
    ] as const) {
      const tree = join(scratch, `tree-${name}`);
      buildDirectoryChain(join(tree, "chain"), DEPTH, { "bottom.txt": "deep" });
      mkdirSync(join(tree, "wide"));
      for (let index = 0; index < 2_000; index += 1) writeFileSync(join(tree, "wide", `f${index}`), "x");
      // A link to a directory outside: the link goes, what it points to stays.
      symlinkSync(outside, join(tree, "wide", "out"));
      await remove(tree);
      expect(existsSync(tree)).toBe(false);
    }
    expect(readdirSync(outside)).toEqual(["keep.txt"]);
  });

  it("a stale folder never stops a start: the sweep removes a deep one and skips what it cannot remove", () => {
    const root = join(scratch, "sweep");
    const stale = join(root, `progagent-${DEAD_PID}-kernel-abc123`);
    buildDirectoryChain(join(stale, "private", "workspace"), DEPTH, { "bottom.txt": "deep" });
    expect(sweepStaleTempDirs(root)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    // A remover that fails on one entry: the others are still removed and the sweep does not throw.
    mkdirSync(join(root, `job-${DEAD_PID}`));
    mkdirSync(join(root, `job-${DEAD_PID + 1}`));
    const removed = sweepStale(root, {
      ownerOf: (name) => (name.startsWith("job-") ? Number(name.slice(4)) : undefined),
      remove: (path, name) => {
        if (name === `job-${DEAD_PID}`) throw new RangeError("Maximum call stack size exceeded");
        removeTreeSync(path);
        return true;
      },
    });
    expect(removed).toBe(1);
    expect(readdirSync(root)).toEqual([`job-${DEAD_PID}`]);
  });

  it("refuses to copy a tree deeper than a workspace can be, with a clear error", async () => {
    const tree = join(scratch, "copy-source");
    buildDirectoryChain(tree, DEPTH, { "bottom.txt": "deep" });
    const destination = join(scratch, "copy-destination");
    mkdirSync(destination);
    await expect(copyImmutableTree(tree, destination)).rejects.toThrow(/nested deeper than 64/);
  });
});
