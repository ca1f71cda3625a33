import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { copyImmutableTree } from "./copy-tree.js";

describe("copyImmutableTree", () => {
  const made: string[] = [];
  const scratch = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "copy-tree-"));
    made.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });

  it("copies nested directories, file contents and modes, and recreates links as links", async () => {
    const source = scratch();
    mkdirSync(join(source, "docs", "deep"), { recursive: true });
    writeFileSync(join(source, "top.txt"), "top");
    writeFileSync(join(source, "docs", "deep", "note.md"), "# note");
    writeFileSync(join(source, "run.sh"), "#!/bin/sh\n", { mode: 0o750 });
    symlinkSync("docs/deep/note.md", join(source, "link"));
    const target = scratch();
    await copyImmutableTree(source, target);
    expect(readFileSync(join(target, "top.txt"), "utf8")).toBe("top");
    expect(readFileSync(join(target, "docs", "deep", "note.md"), "utf8")).toBe("# note");
    expect(statSync(join(target, "run.sh")).mode & 0o777).toBe(0o750);
    expect(readlinkSync(join(target, "link"))).toBe("docs/deep/note.md");
    // A second copy (from the kept listing) is as complete, and the copies are independent.
    const second = scratch();
    await copyImmutableTree(source, second);
    writeFileSync(join(target, "top.txt"), "changed");
    expect(readFileSync(join(second, "top.txt"), "utf8")).toBe("top");
    expect(readFileSync(join(source, "top.txt"), "utf8")).toBe("top");
  });

  it("keeps modes the umask would take away, and copies a file too large to keep", async () => {
    const source = scratch();
    writeFileSync(join(source, "shared.txt"), "open to all");
    chmodSync(join(source, "shared.txt"), 0o666);
    const large = Buffer.alloc(3 * 1024 * 1024, 7);
    writeFileSync(join(source, "large.bin"), large);
    const previous = process.umask(0o077);
    try {
      const target = scratch();
      await copyImmutableTree(source, target);
      expect(statSync(join(target, "shared.txt")).mode & 0o777).toBe(0o666);
      expect(readFileSync(join(target, "large.bin")).equals(large)).toBe(true);
    } finally {
      process.umask(previous);
    }
  });

  it.each([[[]], [["--expose-gc"]]])(
    "copies from a host started as `node --input-type=module -e` (a flag no worker thread takes), with %j",
    (extra: string[]) => {
      const source = scratch();
      writeFileSync(join(source, "a.txt"), "instance");
      const target = scratch();
      const module = fileURLToPath(new URL("./copy-tree.ts", import.meta.url));
      const script = `import { copyImmutableTree } from ${JSON.stringify(module)};\nawait copyImmutableTree(${JSON.stringify(source)}, ${JSON.stringify(target)});`;
      const result = spawnSync(
        process.execPath,
        [...extra, "--import", "tsx", "--input-type=module", "-e", script],
        { encoding: "utf8", timeout: 60_000 },
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(readFileSync(join(target, "a.txt"), "utf8")).toBe("instance");
    },
  );

  it("fails a copy that outlasts its deadline, naming it, and copies again with a new thread", async () => {
    const source = scratch();
    // Thousands of files cannot be created within 1 ms, whatever the file system.
    for (let index = 0; index < 3000; index += 1) writeFileSync(join(source, `f${index}.txt`), "x");
    const slow = scratch();
    await expect(copyImmutableTree(source, slow, { deadlineMs: 1 })).rejects.toMatchObject({
      code: "TIMEOUT",
      message: expect.stringMatching(/took longer than 1 ms/),
    });
    const next = scratch();
    await copyImmutableTree(source, next);
    expect(readFileSync(join(next, "f2999.txt"), "utf8")).toBe("x");
    await expect(copyImmutableTree(source, scratch(), { deadlineMs: 0 })).rejects.toThrow(
      /deadlineMs expects milliseconds > 0, got 0/,
    );
  });

  it("fails a copy queued past its deadline alone, leaving the copy before it to finish", async () => {
    const source = scratch();
    for (let index = 0; index < 3000; index += 1) writeFileSync(join(source, `f${index}.txt`), "x");
    const tiny = scratch();
    writeFileSync(join(tiny, "a.txt"), "instance");
    const big = copyImmutableTree(source, scratch());
    await expect(copyImmutableTree(tiny, scratch(), { deadlineMs: 1 })).rejects.toMatchObject({
      code: "TIMEOUT",
    });
    await expect(big).resolves.toBeUndefined();
    // The same thread goes on.
    const next = scratch();
    await copyImmutableTree(tiny, next);
    expect(readFileSync(join(next, "a.txt"), "utf8")).toBe("instance");
  });

  it("never creates a destination that is not there", async () => {
    const source = scratch();
    mkdirSync(join(source, "docs"));
    writeFileSync(join(source, "docs", "a.txt"), "instance");
    const gone = join(scratch(), "removed", "workspace");
    await expect(copyImmutableTree(source, gone)).rejects.toThrow(/ENOENT/);
    expect(existsSync(join(gone, ".."))).toBe(false);
  });

  it("refuses to overwrite a file already in the destination", async () => {
    const source = scratch();
    writeFileSync(join(source, "a.txt"), "instance");
    const target = scratch();
    writeFileSync(join(target, "a.txt"), "already here");
    await expect(copyImmutableTree(source, target)).rejects.toThrow(/EEXIST/);
    expect(readFileSync(join(target, "a.txt"), "utf8")).toBe("already here");
    // The copier goes on after a failed copy.
    const next = scratch();
    await copyImmutableTree(source, next);
    expect(readFileSync(join(next, "a.txt"), "utf8")).toBe("instance");
  });
});
