import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { measureWorkspace } from "./workspace-usage.js";

describe("measureWorkspace", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  const scratch = (): string => {
    const root = mkdtempSync(join(tmpdir(), "workspace-usage-"));
    roots.push(root);
    return root;
  };

  it("counts allocated bytes once per inode and never follows links or opens FIFOs", async () => {
    const outside = scratch();
    writeFileSync(join(outside, "big"), Buffer.alloc(8 * 1024 * 1024, 1));
    const workspace = scratch();
    mkdirSync(join(workspace, "nested/deeper"), { recursive: true });
    writeFileSync(join(workspace, "nested/deeper/data"), Buffer.alloc(1024 * 1024, 1));
    linkSync(join(workspace, "nested/deeper/data"), join(workspace, "hardlink"));
    symlinkSync(outside, join(workspace, "to-outside"));
    symlinkSync(join(outside, "big"), join(workspace, "to-big"));
    execFileSync("mkfifo", [join(workspace, "pipe")]);
    writeFileSync(join(workspace, "sparse"), "");
    truncateSync(join(workspace, "sparse"), 1024 ** 3);
    const usage = await measureWorkspace(workspace);
    expect(usage.incomplete).toBe(false);
    expect(usage.entryCount).toBe(8);
    // 1 MiB of data (linked twice) plus directory blocks; not the 8 MiB outside, not the sparse 1 GiB.
    expect(usage.bytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(usage.bytes).toBeLessThan(2 * 1024 * 1024);
  });

  it("stops at the entry bound and says the result is a lower bound", async () => {
    const workspace = scratch();
    for (let index = 0; index < 50; index += 1) writeFileSync(join(workspace, `file-${index}`), "x");
    const usage = await measureWorkspace(workspace, 10);
    expect(usage).toMatchObject({ entryCount: 10, incomplete: true });
  });
});
