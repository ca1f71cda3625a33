import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createKernelCgroup, detectCgroup } from "./cgroup.js";
import { spawnThroughSpawner, type SpawnedProcess } from "./spawner.js";

const scratch = mkdtempSync(join(tmpdir(), "progagent-spawner-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const detection = process.getuid?.() === 0 ? detectCgroup() : undefined;
const support = detection?.ok ? detection.support : undefined;

function exited(handle: SpawnedProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => handle.onExit((code, signal) => resolve({ code, signal })));
}

async function run(name: string, argv: string[], cgroups: string[]) {
  const stdoutPath = join(scratch, `${name}.out`);
  const stderrPath = join(scratch, `${name}.err`);
  const handle = await spawnThroughSpawner("/usr/bin/python3", { argv, stdoutPath, stderrPath, cgroups });
  const exit = await exited(handle);
  return { exit, stdout: readFileSync(stdoutPath, "utf8"), stderr: readFileSync(stderrPath, "utf8") };
}

describe("the kernel spawner", () => {
  it.skipIf(support === undefined)(
    "starts the process inside the cgroups it is given, before the process runs anything",
    async () => {
      const cgroup = createKernelCgroup(support!, { memoryBytes: 256 * 1024 ** 2, processes: 64 });
      try {
        const { exit, stdout } = await run(
          "inside",
          ["/bin/cat", "/proc/self/cgroup"],
          [...cgroup.directories],
        );
        expect(exit.code).toBe(0);
        const lines = stdout.split("\n").filter((line) => /:(memory|pids):/.test(line));
        expect(lines.length).toBeGreaterThanOrEqual(1);
        for (const line of lines) expect(line.endsWith(`/${cgroup.name}`)).toBe(true);
      } finally {
        expect(await cgroup.remove()).toBe(true);
      }
    },
  );

  it("fails the start and says why when a cgroup cannot be joined (nothing runs outside its budgets)", async () => {
    const marker = join(scratch, "ran");
    const { exit, stderr } = await run(
      "refused",
      ["/bin/sh", "-c", `touch ${marker}`],
      [join(scratch, "no-such-cgroup")],
    );
    expect(exit.code).toBe(125);
    expect(stderr).toContain("cannot join the kernel's cgroup");
    expect(stderr).toContain("cgroup.procs");
    expect(() => readFileSync(marker)).toThrow();
  });
});
