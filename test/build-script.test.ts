import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const tsx = join(root, "node_modules", "tsx", "dist", "cli.mjs");

describe("scripts/build.ts", () => {
  it("refuses --out-dir without a directory before it removes or compiles anything", async () => {
    const distBefore = existsSync(join(root, "dist"));
    for (const args of [["--out-dir"], ["--out-dir", "--force"]]) {
      const failure = await run(process.execPath, [tsx, join(root, "scripts", "build.ts"), ...args], {
        cwd: root,
        timeout: 60_000,
      }).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code).not.toBe(0);
      expect(failure?.stderr).toContain("build: --out-dir expects a directory");
    }
    expect(existsSync(join(root, "dist"))).toBe(distBefore);
  });
});
