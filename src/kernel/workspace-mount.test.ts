import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertUsableWorkspace, directoryInode } from "./workspace-mount.js";

const scratch = mkdtempSync(join(tmpdir(), "progagent-workspace-mount-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("assertUsableWorkspace", () => {
  it("accepts a directory this user can read and write", () => {
    expect(() => assertUsableWorkspace(scratch)).not.toThrow();
  });

  it("names the path and the reason for a missing path or a file", () => {
    const missing = join(scratch, "missing");
    expect(() => assertUsableWorkspace(missing)).toThrow(
      `The workspace ${missing} cannot be used: it does not exist.`,
    );
    const file = join(scratch, "file");
    writeFileSync(file, "");
    expect(() => assertUsableWorkspace(file)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", category: "user" }),
    );
  });
});

describe("directoryInode", () => {
  it("tells two directories apart and is stable for one", () => {
    const other = mkdtempSync(join(scratch, "other-"));
    expect(directoryInode(scratch)).toBe(directoryInode(scratch));
    expect(directoryInode(scratch)).not.toBe(directoryInode(other));
  });
});
