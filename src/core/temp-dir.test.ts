import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createTempDir,
  resetScratchDirForTests,
  scratchDir,
  tempDirRoots,
  SCRATCH_DIR_VARIABLE,
} from "./index.js";

const saved = { scratch: process.env[SCRATCH_DIR_VARIABLE], tmp: process.env.TMPDIR };
const roots: string[] = [];
afterEach(() => {
  for (const [name, value] of [
    [SCRATCH_DIR_VARIABLE, saved.scratch],
    ["TMPDIR", saved.tmp],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetScratchDirForTests();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function directory(): string {
  const root = mkdtempSync(join(tmpdir(), "scratch-test-"));
  roots.push(root);
  return root;
}

describe("scratchDir", () => {
  it("uses the directory PROGAGENT_SCRATCH_DIR names, and makes episode directories there", () => {
    const root = directory();
    process.env[SCRATCH_DIR_VARIABLE] = root;
    resetScratchDirForTests();
    expect(scratchDir()).toMatchObject({ dir: root, automatic: false });
    expect(tempDirRoots()).toContain(root);
    const made = createTempDir("workspace", scratchDir().dir);
    expect(made.path.startsWith(join(root, `progagent-${process.pid}-workspace-`))).toBe(true);
    made.dispose();
  });

  it.each([
    ["a relative path", () => "relative/dir", /not an absolute path/],
    ["a missing directory", () => join(directory(), "missing"), /does not exist/],
    [
      "a file",
      () => {
        const file = join(directory(), "file");
        writeFileSync(file, "");
        return file;
      },
      /not a directory/,
    ],
  ])("refuses %s, naming the variable", (_, value, reason) => {
    const named = value();
    process.env[SCRATCH_DIR_VARIABLE] = named;
    resetScratchDirForTests();
    expect(() => scratchDir()).toThrow(reason);
    expect(() => scratchDir()).toThrow(`${SCRATCH_DIR_VARIABLE}=${named} cannot be used`);
    // Temp directories that are not scratch (an episode's database file) are still made.
    expect(tempDirRoots()).not.toContain(named);
    const made = createTempDir("episode");
    made.dispose();
  });

  it("keeps the temp directory when TMPDIR names it", () => {
    const root = directory();
    process.env.TMPDIR = root;
    delete process.env[SCRATCH_DIR_VARIABLE];
    resetScratchDirForTests();
    expect(scratchDir()).toMatchObject({ dir: root, automatic: false, reason: "TMPDIR names it" });
  });

  it("prefers /dev/shm to a temp directory on disk only when it is a tmpfs with room", () => {
    delete process.env.TMPDIR;
    delete process.env[SCRATCH_DIR_VARIABLE];
    resetScratchDirForTests();
    const tmpfs = (path: string): boolean => {
      try {
        return statfsSync(path).type === 0x01021994;
      } catch {
        return false;
      }
    };
    const chosen = scratchDir();
    if (tmpfs(tmpdir())) {
      expect(chosen).toMatchObject({ dir: tmpdir(), automatic: false });
    } else {
      const shm = statfsSync("/dev/shm", { bigint: false });
      const roomy = tmpfs("/dev/shm") && shm.bavail * shm.bsize >= 2 * 1024 ** 3;
      expect(chosen.dir).toBe(roomy ? "/dev/shm" : tmpdir());
      expect(chosen.automatic).toBe(roomy);
    }
    expect(tmpfs(chosen.dir) || chosen.dir === tmpdir()).toBe(true);
  });
});
