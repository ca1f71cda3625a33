import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
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
});
