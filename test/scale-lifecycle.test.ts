import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempDirRoots } from "../src/core/index.js";
import { createEpisode, type Episode } from "../src/envs/index.js";
import { createKernel } from "../src/kernel/index.js";
import { spawnerPids } from "../src/kernel/spawner.js";
import { loadSuite } from "../src/suite/index.js";
import { descendantPids, isSandboxRoot } from "./helpers/processes.js";

const PROGRAM = "customer = tools.get_customer(customer_id=10001)\ncustomer['id']";
const [task] = await loadSuite("retail.net-revenue-by-category");

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

function ownTempDirs(): string[] {
  return tempDirRoots().flatMap((parent) =>
    readdirSync(parent).filter((name) => name.startsWith(`progagent-${process.pid}-`)),
  );
}

const hostFds = (): number => readdirSync("/proc/self/fd").length;

async function runEpisode(seed: number): Promise<void> {
  const episode = await createEpisode(task!, "v0", seed, { withKernel: true });
  try {
    const result = await episode.execute(PROGRAM);
    expect(result.text).toBe("10001");
  } finally {
    await episode.dispose();
  }
}

describe("kernels at scale", () => {
  afterAll(async () => {
    // Nothing of this file may outlive it (a failed assertion must not leave kernels running).
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it("opens a burst of 64 episodes with zero failures, every kernel forked by the spawner, not by this process", async () => {
    await runEpisode(0); // the instance and the one-time sandbox probes
    const episodes: Episode[] = await Promise.all(
      Array.from({ length: 64 }, (_, index) => createEpisode(task!, "v0", index % 2, { withKernel: true })),
    );
    try {
      const results = await Promise.all(episodes.map((episode) => episode.execute(PROGRAM)));
      expect(results.filter((result) => result.text !== "10001")).toEqual([]);
      const [spawner] = spawnerPids();
      expect(spawner).toBeDefined();
      // The host's only children are the spawner and tooling (esbuild): no sandbox hangs off this process.
      const direct = descendantPids().filter((pid) => parentOf(pid) === process.pid);
      // Each sandbox's first process (bwrap, or the supervisor of a template-launched kernel) is the spawner's.
      const roots = descendantPids().filter(isSandboxRoot);
      expect(roots).toHaveLength(64);
      expect(roots.filter((pid) => parentOf(pid) !== spawner)).toEqual([]);
      expect(direct.filter((pid) => roots.includes(pid))).toEqual([]);
    } finally {
      await Promise.all(episodes.map((episode) => episode.dispose()));
    }
  });

  it("returns host fds, child processes and temp dirs to their starting level after 30 sequential episodes", async () => {
    await runEpisode(1);
    const before = { fds: hostFds(), children: descendantPids().length, temp: ownTempDirs().sort() };
    for (let index = 0; index < 30; index += 1) await runEpisode(index % 2);
    // A killed sandbox leaves the process table (and its pipes close) a moment after its exit was reported.
    let after = { fds: hostFds(), children: descendantPids().length, temp: ownTempDirs().sort() };
    const settled = (): boolean => after.children === before.children && after.fds === before.fds;
    for (let attempt = 0; attempt < 100 && !settled(); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = { fds: hostFds(), children: descendantPids().length, temp: ownTempDirs().sort() };
    }
    expect(after).toEqual(before);
  });

  it("fails a start that misses its deadline with an error saying so", async () => {
    const kernel = createKernel({ startTimeoutMs: 1 });
    try {
      await expect(kernel.execute("1")).rejects.toMatchObject({
        code: "KERNEL_START_FAILED",
        message: expect.stringContaining("no ready signal within 1 ms"),
      });
    } finally {
      await kernel.dispose();
    }
    // The deadline ended that start only: the next kernel starts normally.
    await using next = createKernel();
    expect((await next.execute("2")).text).toBe("2");
  });

  it("fails clearly when the spawner cannot run", async () => {
    const kernel = createKernel({ interpreter: "/bin/false", onWarning: () => undefined });
    try {
      await expect(kernel.execute("1")).rejects.toMatchObject({
        code: "KERNEL_START_FAILED",
        message: expect.stringContaining("the kernel spawner exited (code 1"),
      });
    } finally {
      await kernel.dispose();
    }
  });

  it("reports kernels lost when the spawner dies, and the next execution starts a fresh kernel", async () => {
    await using kernel = createKernel();
    expect((await kernel.execute("x = 41\nx + 1")).text).toBe("42");
    const [spawner] = spawnerPids();
    const sandbox = descendantPids(spawner);
    expect(sandbox.length).toBeGreaterThan(0);
    process.kill(spawner!, "SIGKILL");
    // Its kernels die with it.
    for (let attempt = 0; attempt < 100 && sandbox.some(isAlive); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sandbox.filter(isAlive)).toEqual([]);
    // An execution sent before the host heard of the death is reported as a crash; the next one restarts.
    let after = await kernel.execute("x");
    if (after.status === "crashed") after = await kernel.execute("x");
    expect(after.kernelRestarted).toBe(true);
    expect(after.error?.type).toBe("NameError");
    expect(spawnerPids()).not.toContain(spawner);
    expect((await kernel.execute("y = 5\ny")).text).toBe("5");
  });
});

function isAlive(pid: number): boolean {
  try {
    // A zombie has no memory left: count it as gone.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}
