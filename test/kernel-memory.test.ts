import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, type Kernel } from "../src/kernel/index.js";
import { descendantPids, isSupervisor } from "./helpers/processes.js";

/**
 * Memory of an idle kernel (issue 8: at most 4 MB PSS per episode). The worker is forked from the supervisor,
 * so the two share every page the interpreter dirtied before the fork; each page either of them writes after
 * it is copied and counted in both. The supervisor's private dirty memory is therefore the part of the pair
 * that the fork did not save. Measured with /usr/bin/python3.11: about 1.1 MB once ready and 1.3 MB after a
 * program when the supervisor imported _ctypes after the fork, 0.5 MB and 0.85 MB now.
 */
const READY_LIMIT_KB = 800;
const AFTER_PROGRAM_LIMIT_KB = 1_100;

function privateDirtyKb(pid: number): number {
  const match = /^Private_Dirty:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
  if (!match) throw new Error(`no Private_Dirty in /proc/${pid}/smaps_rollup`);
  return Number(match[1]);
}

/** The supervisor of the one kernel started since `before`: PID 1 of its sandbox (bwrap's child under bwrap). */
function supervisorPid(before: Set<number>): number {
  const found = descendantPids().filter((pid) => !before.has(pid) && isSupervisor(pid));
  if (found.length !== 1) throw new Error(`expected one kernel supervisor, found ${found.length}`);
  return found[0]!;
}

// The supervisor is not dumpable: only root reads its /proc files from outside the sandbox.
describe.skipIf(process.getuid?.() !== 0)("kernel memory", () => {
  let kernel: Kernel;
  beforeAll(() => {
    kernel = createKernel({
      tools: [
        { name: "lookup", attr: "lookup", params: ["key"], signature: "lookup(key)", doc: "Looks a key up." },
      ],
      onToolCall: (call) => ({ ok: true, value: { key: call.args.key, found: true } }),
    });
  });
  afterAll(async () => {
    await kernel.dispose();
  });

  it("the supervisor copies little of what it shares with the worker, once ready and after a program", async () => {
    const before = new Set(descendantPids());
    await kernel.start();
    const supervisor = supervisorPid(before);
    expect(privateDirtyKb(supervisor)).toBeLessThan(READY_LIMIT_KB);

    const result = await kernel.execute("record = tools.lookup(key=10001)\nrecord['key']");
    expect(result.value).toBe("10001");
    expect(privateDirtyKb(supervisor)).toBeLessThan(AFTER_PROGRAM_LIMIT_KB);
  });
});
