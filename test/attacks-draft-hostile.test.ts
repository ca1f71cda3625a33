import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
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
    // Since B12 /draft is a tmpfs, so the draft's chmod reaches only that: the host folder left 777 (as a writable
    // /draft once could) is what the host must restore after the run.
    chmodSync(folder.dir, 0o777);
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

const MiB = 1024 * 1024;

/** Runs a draft whose module throws at load; returns the "loads" gate's detail (what the draft reported) or the run's error. */
async function runHostile(
  name: string,
  source: string,
  options: Partial<Parameters<typeof runDraftSandbox>[0]> = {},
): Promise<{ detail: string | undefined; error: string | undefined; folder: string }> {
  const folder = openDraftFolder(join(root, name));
  folder.write("task.ts", source);
  const result = await runDraftSandbox({
    draftDir: folder.dir,
    request: validate,
    timeoutMs: 120_000,
    ...options,
  });
  const report = result.report as { gates?: Array<{ id: string; detail?: string }> } | null;
  return { detail: report?.gates?.[0]?.detail, error: result.error, folder: folder.dir };
}

describe("B12 the draft sandbox has whole-sandbox budgets and no unsized place to write", () => {
  // The attack: 606 processes, 3 GiB touched, 2 GiB written to the host disk through /draft, 1.5 GiB in /dev/shm.
  it("bounds its processes, /draft, /dev and /dev/shm, and writes nothing to the host folder", async () => {
    const probe = `import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";
const children: ChildProcess[] = [];
for (let index = 0; index < 400; index += 1) {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  child.on("error", () => undefined);
  if (child.pid !== undefined) children.push(child);
}
const processes = children.length;
for (const child of children) child.kill("SIGKILL");
function fill(path: string, mebibytes: number): string {
  let written = 0;
  try {
    const fd = openSync(path, "w");
    const chunk = Buffer.alloc(1024 * 1024, 1);
    try {
      for (; written < mebibytes; written += 1) writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    return String(written);
  } catch (error) {
    return written + " " + (error as NodeJS.ErrnoException).code;
  }
}
const probe = { processes, draft: fill("/draft/fill.bin", 128), shm: fill("/dev/shm/fill.bin", 128), dev: fill("/dev/fill.bin", 16) };
throw new Error("probe " + JSON.stringify(probe));
`;
    const { detail, error, folder } = await runHostile("limits", probe);
    expect(error, detail).toBeUndefined();
    const match = /probe (\{.*?\})/.exec(detail ?? "");
    expect(match, detail).not.toBeNull();
    const seen = JSON.parse(match![1]!) as { processes: number; draft: string; shm: string; dev: string };
    // Each thread counts too (the worker's own), so fewer children than the 256 processes of the budget.
    expect(seen.processes).toBeGreaterThan(0);
    expect(seen.processes).toBeLessThan(256);
    expect(seen.draft).toMatch(/^\d+ ENOSPC$/);
    expect(Number.parseInt(seen.draft, 10)).toBeLessThanOrEqual(16);
    expect(seen.shm).toMatch(/^\d+ ENOSPC$/);
    expect(Number.parseInt(seen.shm, 10)).toBeLessThanOrEqual(64);
    expect(seen.dev).toBe("0 EROFS");
    expect(existsSync(join(folder, "fill.bin"))).toBe(false);
  }, 180_000);

  it("stops a draft that touches more memory than its budget, saying so", async () => {
    const source = `const blocks: Buffer[] = [];
for (let index = 0; index < 16; index += 1) blocks.push(Buffer.alloc(64 * 1024 * 1024, 1));
throw new Error("touched " + blocks.length * 64 + " MiB");
`;
    const { detail, error } = await runHostile("memory", source, { limits: { memoryBytes: 512 * MiB } });
    expect(detail).toBeUndefined();
    expect(error).toContain("the draft sandbox exceeded its memory budget of 512 MiB");
  }, 180_000);

  it("stops a draft that spins past its CPU time, before the deadline", async () => {
    const { detail, error } = await runHostile("cpu", "for (;;) {}\nexport default {};\n", {
      timeoutMs: 60_000,
      limits: { cpuSeconds: 2 },
    });
    expect(detail).toBeUndefined();
    expect(error).toBe("the draft exceeded its CPU time budget of 2 s per process (SIGXCPU)");
  }, 180_000);
});
