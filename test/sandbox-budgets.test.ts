import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  createKernel,
  describeSandboxLimits,
  DEFAULT_LIMITS,
  SANDBOX_LIMITS_VARIABLE,
  type Kernel,
} from "../src/kernel/index.js";
import { isTmpfs, sweepStaleTempDirs, tempDirRoots } from "../src/core/index.js";
import { detectCgroup, sweepStaleCgroups } from "../src/kernel/cgroup.js";
import { sandboxFeatures } from "../src/kernel/sandbox.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const MiB = 1024 ** 2;
const SMALL = { memoryBytes: 256 * MiB, diskBytes: 64 * MiB, tmpBytes: 64 * MiB };

/** Six forked children each touching 120 MB: 720 MB together, far beyond a 256 MiB budget. */
const SIX_CHILDREN = [
  "import os, time",
  "children = []",
  "for _ in range(6):",
  "    pid = os.fork()",
  "    if pid == 0:",
  "        block = bytearray(120 * 1024 * 1024)",
  "        for offset in range(0, len(block), 4096):",
  "            block[offset] = 1",
  "        time.sleep(60)",
  "        os._exit(0)",
  "    children.append(pid)",
  "for pid in children:",
  "    os.waitpid(pid, 0)",
  "print('all children finished')",
].join("\n");

function kernelCgroups(kernel: Kernel): string[] {
  return kernel.sandboxLimits.cgroupParents.flatMap((parent) =>
    existsSync(parent) ? readdirSync(parent).filter((name) => name.startsWith(`k-${process.pid}-`)) : [],
  );
}

function kernelTempDirs(): string[] {
  return tempDirRoots().flatMap((root) =>
    readdirSync(root).filter((name) => name.startsWith(`progagent-${process.pid}-kernel-`)),
  );
}

const isRoot = process.getuid?.() === 0;
const cgroupWritable =
  isRoot && existsSync("/sys/fs/cgroup") && describeSandboxLimits(DEFAULT_LIMITS).mechanism !== "rlimit";

describe("sandbox budgets", () => {
  const kernels: Kernel[] = [];
  const open = (options: Parameters<typeof createKernel>[0]): Kernel => {
    const kernel = createKernel(options);
    kernels.push(kernel);
    return kernel;
  };
  afterEach(async () => {
    await Promise.all(kernels.splice(0).map((kernel) => kernel.dispose()));
    delete process.env[SANDBOX_LIMITS_VARIABLE];
  });

  it("reports the budgets and the mechanism that enforces them", () => {
    const kernel = open({ limits: SMALL });
    const report = kernel.sandboxLimits;
    expect(report).toMatchObject({
      memoryBytes: 256 * MiB,
      diskBytes: 64 * MiB,
      tmpBytes: 64 * MiB,
      processes: 256,
    });
    expect(["cgroup-v2", "cgroup-v1", "rlimit"]).toContain(report.mechanism);
    expect(report.enforcement.memory).toContain("256 MiB");
    const defaults = describeSandboxLimits(DEFAULT_LIMITS);
    expect(defaults.memoryBytes).toBe(2 * 1024 ** 3);
    expect(defaults.enforcement.memory).toContain("2 GiB");
  });

  it.skipIf(!cgroupWritable)(
    cgroupWritable
      ? "uses a cgroup on a root host whose cgroup file system is writable"
      : "uses a cgroup (skipped: no writable cgroup on this host; the rlimit tests cover its fallback)",
    async () => {
      const kernel = open({ limits: SMALL });
      expect(kernel.sandboxLimits.mechanism).toMatch(/^cgroup-v[12]$/);
      await kernel.execute("pass");
      const names = kernelCgroups(kernel);
      expect(names).toHaveLength(kernel.sandboxLimits.cgroupParents.length);
      const result = await kernel.execute(
        ["import subprocess", "sleeper = subprocess.Popen(['sleep', '7.654321'])", "print('started')"].join(
          "\n",
        ),
      );
      expect(result.text).toBe("started");
      // Seen from the host, what the program started is a member of every one of the kernel's cgroups.
      const sleeper = readdirSync("/proc").find((entry) => {
        try {
          return readFileSync(`/proc/${entry}/cmdline`, "utf8") === "sleep\u00007.654321\u0000";
        } catch {
          return false;
        }
      });
      expect(sleeper).toBeDefined();
      for (const parent of kernel.sandboxLimits.cgroupParents) {
        const name = names.find((candidate) => existsSync(join(parent, candidate)))!;
        const members = readFileSync(join(parent, name, "cgroup.procs"), "utf8")
          .trim()
          .split("\n");
        expect(members).toContain(sleeper);
        expect(members.length).toBeGreaterThanOrEqual(3); // the supervisor, the worker, the sleeper (and bwrap)
      }
    },
  );

  for (const mechanism of ["auto", "rlimit"] as const) {
    it(`stops six children that together exceed the memory budget, and the host serves on (${mechanism})`, async () => {
      if (mechanism === "rlimit") process.env[SANDBOX_LIMITS_VARIABLE] = "rlimit";
      const hostRssBefore = process.memoryUsage().rss;
      const kernel = open({ limits: SMALL, timeoutMs: 30_000 });
      if (mechanism === "rlimit") expect(kernel.sandboxLimits.mechanism).toBe("rlimit");
      await kernel.execute("state = 'kept'");
      const result = await kernel.execute(SIX_CHILDREN);
      expect(result.status).toBe("crashed");
      expect(result.budgetExceeded).toBe("memory");
      expect(result.text).toContain("exceeded the sandbox memory budget of 256 MiB");
      expect(result.text).not.toContain("all children finished");
      // The memory was the sandbox's, never the host's.
      expect(process.memoryUsage().rss - hostRssBefore).toBeLessThan(200 * MiB);
      const next = await kernel.execute("print('serving', 'state' in globals())");
      expect(next.status).toBe("ok");
      expect(next.text).toContain("serving False");
      expect(next.kernelRestarted).toBe(true);
      const other = open({ limits: SMALL });
      expect((await other.execute("print('other kernel fine')")).text).toBe("other kernel fine");
    });
  }

  for (const mechanism of ["auto", "rlimit"] as const) {
    it(`counts what /tmp holds against the memory budget (${mechanism})`, async () => {
      if (mechanism === "rlimit") process.env[SANDBOX_LIMITS_VARIABLE] = "rlimit";
      const kernel = open({ limits: { ...SMALL, tmpBytes: 1024 * MiB }, timeoutMs: 30_000 });
      const result = await kernel.execute(
        [
          "import time",
          "chunk = b'x' * (32 * 1024 * 1024)",
          "for index in range(13):  # files under the per-file limit, 416 MiB together",
          "    with open(f'/tmp/fill-{index}', 'wb') as handle:",
          "        handle.write(chunk)",
          "print('wrote 416 MiB to /tmp')",
          "time.sleep(20)",
        ].join("\n"),
      );
      expect(result.status).toBe("crashed");
      expect(result.budgetExceeded).toBe("memory");
      expect(result.text).toContain("exceeded the sandbox memory budget of 256 MiB");
      expect((await kernel.execute("import os\nprint(os.listdir('/tmp'))")).stdout).toBe("[]\n");
    });
  }

  it("fails a program that writes beyond the /tmp budget with ENOSPC", async () => {
    const kernel = open({ limits: { ...SMALL, tmpBytes: 32 * MiB } });
    const result = await kernel.execute(
      [
        "chunk = b'x' * (4 * 1024 * 1024)",
        "written = 0",
        "with open('/tmp/big', 'wb') as handle:",
        "    for _ in range(40):",
        "        handle.write(chunk)",
        "        written += len(chunk)",
      ].join("\n"),
    );
    if (sandboxFeatures("bwrap").tmpfsSize) {
      expect(result.status).toBe("error");
      expect(result.text).toContain("No space left on device");
      const usage = await kernel.execute(
        "import os\nprint(os.path.getsize('/tmp/big') <= 32 * 1024 * 1024, written)",
      );
      expect(usage.text).toMatch(/^True \d+$/);
    } else {
      // bwrap < 0.6 cannot size a tmpfs: the memory budget is what bounds /tmp then.
      expect(kernel.sandboxLimits.enforcement.tmp).toContain("tmpfs");
    }
  });

  it.skipIf(!cgroupWritable || !isTmpfs("/dev/shm"))(
    "counts a workspace on a tmpfs against the memory budget, and says so",
    async () => {
      const workspaceDir = mkdtempSync(join("/dev/shm", "progagent-budget-test-"));
      try {
        const kernel = open({ limits: { ...SMALL, diskBytes: 1024 * MiB }, workspaceDir, timeoutMs: 30_000 });
        expect(kernel.sandboxLimits.enforcement.disk).toContain("counts against the memory budget");
        // 160 MiB of files on a tmpfs are memory: with 150 MiB more of the program's, over the 256 MiB budget.
        const written = await kernel.execute(
          [
            "chunk = b'x' * (1024 * 1024)",
            "with open('big.bin', 'wb') as handle:",
            "    for _ in range(160):",
            "        handle.write(chunk)",
          ].join("\n"),
        );
        expect(written.status, written.text).toBe("ok");
        const allocate = (mebibytes: number): string =>
          `block = bytearray(${mebibytes} * 1024 * 1024)\nlen(block)`;
        const result = await kernel.execute(allocate(150));
        expect(result.budgetExceeded).toBe("memory");
        expect(result.text).toContain("the workspace's files together");
        // The restarted kernel keeps the cgroup and the files their charge (attacks.md B9): 150 MiB still do not
        // fit beside them, 40 MiB do.
        const again = await kernel.execute(allocate(150));
        expect(again.kernelRestarted).toBe(true);
        expect(again.budgetExceeded).toBe("memory");
        const small = await kernel.execute(allocate(40));
        expect(small.value).toBe(String(40 * MiB));
        const left = await kernel.execute("import os\nos.path.getsize('big.bin') == 160 * 1024 * 1024");
        expect(left.value).toBe("True");
        // The cgroup goes at dispose.
        await kernel.dispose();
        expect(kernelCgroups(kernel)).toEqual([]);
      } finally {
        rmSync(workspaceDir, { recursive: true, force: true });
      }
    },
  );

  it("fails a program that fills the workspace beyond its disk budget; cleaning up makes it usable again", async () => {
    const kernel = open({ limits: SMALL, timeoutMs: 30_000 });
    // Written quickly, then the program ends: the check after the execution catches it.
    const burst = await kernel.execute(
      [
        "chunk = b'x' * (8 * 1024 * 1024)",
        "for index in range(12):",
        "    with open(f'part-{index}.bin', 'wb') as handle:",
        "        handle.write(chunk)",
        "print('wrote 96 MiB')",
      ].join("\n"),
    );
    // Caught by the check after the program, or by the one-second check while it runs on a slow machine.
    expect(["error", "crashed"]).toContain(burst.status);
    expect(burst.budgetExceeded).toBe("disk");
    expect(burst.text).toContain("over its disk budget of 64 MiB");
    // Over the budget already: a program that only cleans up runs.
    const cleanup = await kernel.execute(
      "import glob, os\nfor name in glob.glob('part-*.bin'):\n    os.remove(name)\nprint('clean')",
    );
    expect(cleanup.status).toBe("ok");
    // A program that keeps writing is stopped while it runs.
    const writer = await kernel.execute(
      [
        "import time",
        "chunk = b'x' * (4 * 1024 * 1024)",
        "for index in range(100):",
        "    with open(f'slow-{index}.bin', 'wb') as handle:",
        "        handle.write(chunk)",
        "    time.sleep(0.05)",
        "print('wrote 400 MiB')",
      ].join("\n"),
    );
    expect(writer.status).toBe("crashed");
    expect(writer.budgetExceeded).toBe("disk");
    expect(writer.text).not.toContain("wrote 400 MiB");
    const slowFiles = readdirSync(kernel.workspaceDir).filter((name) => name.startsWith("slow-"));
    expect(slowFiles.length).toBeLessThan(100);
    // One file alone cannot exceed the budget (RLIMIT_FSIZE).
    const single = await kernel.execute(
      "import os\nfor name in os.listdir('.'):\n    os.remove(name)\nopen('one.bin', 'wb').write(b'x' * (80 * 1024 * 1024))",
    );
    expect(single.status).toBe("error");
    expect(single.text).toContain("File too large");
  });

  it("leaves no cgroup and no temp directory behind after dispose", async () => {
    const kernel = open({ limits: SMALL });
    await kernel.execute("import subprocess\nsubprocess.Popen(['sleep', '60'])");
    if (kernel.sandboxLimits.mechanism !== "rlimit")
      expect(kernelCgroups(kernel)).toHaveLength(kernel.sandboxLimits.cgroupParents.length);
    const workspace = kernel.workspaceDir;
    await kernel.dispose();
    expect(kernelCgroups(kernel)).toEqual([]);
    expect(existsSync(workspace)).toBe(false);
    expect(kernelTempDirs()).toEqual([]);
  });

  it.skipIf(!cgroupWritable)(
    cgroupWritable
      ? "sweeps the cgroups of a server killed with -9 at the next start"
      : "sweeps stale cgroups (skipped: no writable cgroup on this host, so no cgroup is ever left behind)",
    async () => {
      const script = [
        `import { createKernel } from ${JSON.stringify(join(projectRoot, "src/kernel/index.ts"))};`,
        "const kernel = createKernel();",
        "await kernel.execute('pass');",
        "process.stdout.write(JSON.stringify(kernel.sandboxLimits.cgroupParents) + '\\n');",
        "setInterval(() => undefined, 1000);",
      ].join("\n");
      const root = mkdtempSync(join(tmpdir(), "progagent-kill-test-"));
      chmodSync(root, 0o711);
      const host = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        cwd: projectRoot,
        env: { ...process.env, TMPDIR: root },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const parents = await new Promise<string[]>((done) =>
        host.stdout.once("data", (chunk: Buffer) => done(JSON.parse(chunk.toString()) as string[])),
      );
      const left = (): string[] =>
        parents.flatMap((parent) => readdirSync(parent).filter((name) => name.startsWith(`k-${host.pid}-`)));
      expect(left()).toHaveLength(parents.length);
      host.kill("SIGKILL");
      await new Promise((done) => host.once("exit", done));
      const detection = detectCgroup();
      expect(detection.ok).toBe(true);
      if (!detection.ok) return;
      // Every process's first kernel start sweeps too, so a test file running beside this one
      // may sweep these cgroups before this loop does: what must hold is that they go.
      for (let attempt = 0; attempt < 50 && left().length > 0; attempt += 1) {
        sweepStaleCgroups(detection.support);
        if (left().length > 0) await new Promise((done) => setTimeout(done, 100));
      }
      expect(left()).toEqual([]);
      sweepStaleTempDirs(root);
      rmSync(root, { recursive: true, force: true });
    },
  );
});
