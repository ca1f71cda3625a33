import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { entryAt, isTmpfs, NO_FOLLOW_DIRECTORY_FLAGS, removeTree, scratchDir } from "../src/core/index.js";
import { createKernel, describeSandboxLimits, DEFAULT_LIMITS } from "../src/kernel/index.js";
import { createSandboxBudget, type BudgetViolation } from "../src/kernel/sandbox-limits.js";
import { measureInMeter, stopWorkspaceMeters } from "../src/kernel/workspace-meter.js";
import { walkWorkspace } from "../src/kernel/workspace-usage.js";
import { buildDirectoryChain } from "./helpers/deep-tree.js";

// B7, B8, B9, B10 (attacks.md, second review): the disk budget cannot be walked around. The workspaces are made
// where kernels make theirs (a tmpfs where there is one).

const MiB = 1024 ** 2;
const PYTHON = "/usr/bin/python3";
const LIMITS = { memoryBytes: 2048 * MiB, processes: 64, diskBytes: 64 * MiB, tmpBytes: 64 * MiB };
const scratch = mkdtempSync(join(scratchDir().dir, "progagent-attacks-budgets-"));
afterAll(async () => {
  stopWorkspaceMeters();
  await removeTree(scratch);
});

let serial = 0;
function workspace(): string {
  serial += 1;
  const dir = join(scratch, `workspace-${serial}`);
  mkdirSync(dir);
  return dir;
}

function emptyFiles(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  const fd = openSync(dir, NO_FOLLOW_DIRECTORY_FLAGS);
  try {
    for (let index = 0; index < count; index += 1) closeSync(openSync(entryAt(fd, `e${index}`), "w"));
  } finally {
    closeSync(fd);
  }
}

/** `depth` nested directories under `root`, with 1 MiB and `files` small files at the bottom. */
function chain(root: string, depth: number, files = 0): void {
  const bottom: Record<string, string | Buffer> = { "bottom.bin": Buffer.alloc(MiB, 1) };
  for (let index = 0; index < files; index += 1) bottom[`f${index}`] = "x";
  buildDirectoryChain(root, depth, bottom);
}

describe("B7 an incomplete or failed measurement is never under budget", () => {
  // The attack: 200,001 empty files, then 240 MiB against a 64 MiB budget; here a bound of 200 entries.
  it("more entries than the bound is over budget, while the program runs and after it", async () => {
    const dir = workspace();
    emptyFiles(dir, 300);
    const budget = createSandboxBudget({ ...LIMITS, workspaceEntries: 200 }, dir);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const seen: BudgetViolation[] = [];
      const stop = budget.watch((violation) => seen.push(violation));
      vi.advanceTimersByTime(1_000);
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 30_000 });
      stop();
      expect(seen[0]?.message).toContain("more than 200 entries");
      // After the program: still over, still flagged (every program, until the workspace shrinks).
      expect((await budget.checkDisk())?.message).toContain("could not be measured");
      expect((await budget.checkDisk())?.message).toContain("could not be measured");
    } finally {
      vi.useRealTimers();
      await budget.dispose();
    }
  });
});

describe("B8 a measurement that finishes after the program ended still counts", () => {
  it("flags the program even when the check that was running when it ended saw the excess first", async () => {
    const dir = workspace();
    emptyFiles(join(dir, "files"), 3_000);
    writeFileSync(join(dir, "big.bin"), Buffer.alloc(80 * MiB, 1));
    const budget = createSandboxBudget(LIMITS, dir);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const seen: BudgetViolation[] = [];
      const stop = budget.watch((violation) => seen.push(violation));
      vi.advanceTimersByTime(1_000); // the check while the program runs starts its walk...
      stop(); // ...and the program ends before the walk does
      const after = await budget.checkDisk();
      expect(seen).toEqual([]);
      expect(after?.kind).toBe("disk");
      expect(after?.message).toContain("over its disk budget of 64 MiB");
    } finally {
      vi.useRealTimers();
      await budget.dispose();
    }
  });
});

describe("B10 one workspace's shape cannot change another's measurement", () => {
  it("bounds the depth of a walk and says the measurement is incomplete", async () => {
    const dir = workspace();
    chain(dir, 300);
    for (const usage of [await measureInMeter(PYTHON, dir, 200_000), await walkWorkspace(dir)]) {
      expect(usage.incomplete).toBe(true);
      expect(usage.reason).toContain("nested deeper than 128");
    }
  });

  it("a deep workspace does not take the meter's descriptors from a concurrent walk of another", async () => {
    const deep = workspace();
    // 120 levels (under the depth bound) ending in 1,000 files: the walk pauses down there, holding its levels.
    chain(deep, 120, 1_000);
    const small = workspace();
    for (let index = 0; index < 10; index += 1) chain(join(small, `s${index}`), 12);
    const expected = await walkWorkspace(small);
    expect(expected.incomplete).toBe(false);
    // A meter with few descriptors: 250, more than the two walks need at one descriptor a level.
    await measureInMeter(PYTHON, small, 200_000);
    const meter = execFileSync("pgrep", ["-P", String(process.pid), "-f", "workspace_meter.py"], {
      encoding: "utf8",
    }).trim();
    execFileSync("prlimit", ["--pid", meter, "--nofile=250:250"]);
    const [deepUsage, smallUsage] = await Promise.all([
      measureInMeter(PYTHON, deep, 200_000),
      measureInMeter(PYTHON, small, 200_000),
    ]);
    expect(deepUsage).toMatchObject({ incomplete: false, entryCount: 120 + 1_001 });
    expect(smallUsage).toEqual(expected);
  });
});

/** Writes one file of the workspace until the memory budget kills the program (its pages are memory on a tmpfs). */
const FILL = (name: string): string =>
  [
    "chunk = b'x' * (1024 * 1024)",
    `with open(${JSON.stringify(name)}, 'wb') as handle:`,
    "    while True:",
    "        handle.write(chunk)",
    "        handle.flush()",
  ].join("\n");

const workspaceInMemory =
  process.getuid?.() === 0 &&
  describeSandboxLimits(DEFAULT_LIMITS).mechanism !== "rlimit" &&
  isTmpfs(scratch);

describe("B9 what a workspace on a tmpfs holds is bounded across kernel restarts", () => {
  // The attack: fill the workspace, force a memory-kill restart, repeat (1,014 MiB held over a 512 MiB disk budget).
  it.skipIf(!workspaceInMemory)(
    "fill, memory kill, restart, repeat: the files stay within the memory budget; the restart says why it cannot run",
    async () => {
      const dir = workspace();
      const memoryBytes = 128 * MiB;
      const kernel = createKernel({
        workspaceDir: dir,
        limits: { memoryBytes, diskBytes: 1024 * MiB, tmpBytes: 16 * MiB },
        timeoutMs: 60_000,
      });
      try {
        const rounds = [];
        for (let round = 0; round < 3; round += 1)
          rounds.push(await kernel.execute(FILL(`fill-${round}.bin`)));
        expect(rounds[0]?.budgetExceeded, rounds[0]?.text).toBe("memory");
        const held = await walkWorkspace(dir);
        expect(held.incomplete).toBe(false);
        expect(held.bytes).toBeGreaterThan(64 * MiB);
        expect(held.bytes).toBeLessThanOrEqual(memoryBytes);
        for (const refused of rounds.slice(1)) {
          expect(refused.status).toBe("crashed");
          expect(refused.budgetExceeded).toBe("memory");
          expect(refused.text).toMatch(
            /^\[The kernel cannot restart: the workspace's files hold [\d.]+ MiB of the sandbox memory budget of 128 MiB/,
          );
        }
        // Once the files are gone (removed from the host here), the kernel restarts.
        rmSync(join(dir, "fill-0.bin"));
        const after = await kernel.execute("print('restarted')");
        expect(after.status, after.text).toBe("ok");
        expect(after.kernelRestarted).toBe(true);
        expect(after.text).toContain("restarted");
      } finally {
        await kernel.dispose();
      }
    },
    120_000,
  );
});
