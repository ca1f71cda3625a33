import { chownSync, existsSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDraftFolder } from "../src/synth/draft-folder.js";
import { runDraftSandbox } from "../src/synth/draft-sandbox.js";

// B12, B13 (attacks.md, second review): a hostile task.ts in synth's draft sandbox.

const root = mkdtempSync(join(tmpdir(), "progagent-attacks-draft-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const validate = {
  kind: "validate" as const,
  module: "task.ts",
  scales: ["v0" as const],
  seeds: [0],
  cellTimeoutMs: 60_000,
  domain: "retail",
  minNearMisses: 2,
  minOracleCallsV0: 10,
};

describe("B13 the host restores the draft folder and accepts only what it wrote", () => {
  it("gives the folder its mode back after a draft that chmod 777s /draft", async () => {
    const folder = openDraftFolder(join(root, "chmod"));
    folder.write(
      "task.ts",
      'import { chmodSync, writeFileSync } from "node:fs";\nchmodSync("/draft", 0o777);\nwriteFileSync("/draft/left.txt", "x");\nthrow new Error("done");\n',
    );
    const result = await runDraftSandbox({ draftDir: folder.dir, request: validate, timeoutMs: 120_000 });
    expect(result.log).not.toContain("EPERM");
    expect(statSync(folder.dir).mode & 0o7777).toBe(0o755);
    folder.sweep();
    expect(existsSync(join(folder.dir, "left.txt"))).toBe(false);
  }, 180_000);

  it("reads back task.ts only when it is the file the host wrote: inode and owner", () => {
    const folder = openDraftFolder(join(root, "foreign"));
    folder.write("task.ts", "export default 1;\n");
    expect(folder.readModule()).toBe("export default 1;\n");
    // Another file in its place, of the same owner: a new inode.
    writeFileSync(join(folder.dir, "other.ts"), "export default 2;\n");
    renameSync(join(folder.dir, "other.ts"), join(folder.dir, "task.ts"));
    expect(folder.readModule()).toBeNull();
    folder.sweep();
    expect(existsSync(join(folder.dir, "task.ts"))).toBe(false);
    // The host's own file, then given to another uid (as a sandbox's files are when it runs as that uid).
    folder.write("task.ts", "export default 3;\n");
    if (process.getuid?.() === 0) {
      chownSync(join(folder.dir, "task.ts"), 12345, 12345);
      expect(folder.readModule()).toBeNull();
      folder.sweep();
      expect(existsSync(join(folder.dir, "task.ts"))).toBe(false);
    }
    expect(existsSync(join(folder.dir, "package.json"))).toBe(true);
  });
});
