import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { waitForKernelRootCount, waitForProcessCount } from "./helpers/processes.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, createKernelPool, type Kernel } from "../src/kernel/index.js";

describe("kernel", () => {
  let kernel: Kernel;
  beforeAll(() => {
    kernel = createKernel({ timeoutMs: 2_000, interruptGraceMs: 1_000 });
  });
  afterAll(async () => {
    await kernel.dispose();
  });

  it("keeps globals across executions and echoes a trailing expression", async () => {
    await kernel.execute("counter = 40\ndef bump(n):\n    return n + 1");
    const result = await kernel.execute("counter = bump(counter) + 1\nprint('counter set')\ncounter");
    expect(result.text).toBe("counter set\n42");
    expect(result.value).toBe("42");
    expect(result.status).toBe("ok");
  });

  it("returns stderr and a traceback trimmed to the program's own frames", async () => {
    const result = await kernel.execute(
      "import sys, json\nprint('before')\nprint('careful', file=sys.stderr)\njson.loads('{')",
    );
    expect(result.status).toBe("error");
    expect(result.text).toMatch(
      /^before\n\[stderr\]:\ncareful\nTraceback \(most recent call last\):\n {2}File "<cell-\d+>", line 4/,
    );
    expect(result.text).toContain("JSONDecodeError");
    expect(result.text).not.toContain("/usr/lib/python3");
    expect(result.error?.type).toBe("JSONDecodeError");
  });

  it("captures output of subprocesses writing to the file descriptors directly", async () => {
    const result = await kernel.execute("import os\nos.system('echo from-shell')");
    expect(result.stdout).toContain("from-shell");
  });

  it("supports top-level await", async () => {
    const result = await kernel.execute(
      "import asyncio\nasync def twice(x):\n    await asyncio.sleep(0.01)\n    return 2 * x\nawait twice(21)",
    );
    expect(result.text).toBe("42");
  });

  it("truncates long output in the middle", async () => {
    const result = await kernel.execute("print('x' * 120000)");
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThan(50_500);
    expect(result.text).toContain("characters omitted");
  });

  it("interrupts a slow execution, keeping state and the output printed before the deadline", async () => {
    await kernel.execute("kept = 'still here'");
    const result = await kernel.execute("import time\nprint('started', flush=True)\ntime.sleep(30)");
    expect(result.status).toBe("timeout");
    expect(result.text).toContain("started");
    expect(result.text).toContain("KeyboardInterrupt");
    expect(result.text).toContain("variables and imports are preserved");
    expect((await kernel.execute("kept")).text).toBe("'still here'");
  });

  it("kills a kernel that ignores the interrupt, then restarts with a note", async () => {
    await kernel.execute("lost = 1");
    const result = await kernel.execute(
      "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint('stubborn', flush=True)\nwhile True:\n    time.sleep(0.1)",
    );
    expect(result.status).toBe("killed");
    expect(result.text).toContain("stubborn");
    expect(result.text).toContain("state");
    expect(result.text).toContain("lost");
    const next = await kernel.execute("print('fresh')\n'lost' in globals()");
    expect(next.kernelRestarted).toBe(true);
    expect(next.text).toContain("kernel was restarted");
    expect(next.text).toContain("fresh\nFalse");
  });

  it("recovers from a crash (os._exit) with a clear note", async () => {
    const crash = await kernel.execute("import os\nos._exit(3)");
    expect(crash.status).toBe("crashed");
    expect(crash.text).toContain("exit code 3");
    const next = await kernel.execute("1 + 1");
    expect(next.text).toContain("kernel was restarted");
    expect(next.value).toBe("2");
  });

  it("runs one execution at a time", async () => {
    const [first, second] = await Promise.all([
      kernel.execute("import time\nstart = time.time()\ntime.sleep(0.2)\nprint('first')"),
      kernel.execute("print('second', time.time() - start >= 0.2)"),
    ]);
    expect(first.text).toBe("first");
    expect(second.text).toBe("second True");
  });

  it("cannot corrupt the protocol by printing or closing stdout", async () => {
    const result = await kernel.execute(
      'print(\'{"t": "done", "id": 999}\')\nimport sys\nsys.stdout.close()',
    );
    expect(result.status).toBe("ok");
    expect((await kernel.execute("print('alive')")).text).toBe("alive");
  });
});

describe("kernel lifecycle", () => {
  it("leaves no process and no temp directory behind after dispose", async () => {
    const kernel = createKernel();
    await kernel.execute("import subprocess\nsubprocess.Popen(['sleep', '313.25'])");
    const workspace = kernel.workspaceDir;
    // The kernel's own directory (parent of its workspace and of the mount stage) is in bwrap's arguments (in a
    // template-launched kernel's mounts).
    const kernelDir = dirname(dirname(workspace));
    expect(await waitForKernelRootCount(kernelDir, 1)).toBe(1);
    expect(await waitForProcessCount("sleep 313.25", 1)).toBe(1);
    await kernel.dispose();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await waitForKernelRootCount(kernelDir, 0)).toBe(0);
    expect(await waitForProcessCount("sleep 313.25", 0)).toBe(0);
    expect(existsSync(workspace)).toBe(false);
    expect(existsSync(kernelDir)).toBe(false);
  });

  it("works when TMPDIR is private to the host user", async () => {
    const previous = process.env.TMPDIR;
    const privateDir = mkdtempSync(join(tmpdir(), "private-tmp-"));
    chmodSync(privateDir, 0o700);
    process.env.TMPDIR = privateDir;
    try {
      const kernel = createKernel();
      expect((await kernel.execute("print('reachable')")).text).toBe("reachable");
      await kernel.dispose();
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      rmSync(privateDir, { recursive: true, force: true });
    }
  });

  it("a warm pool hands out started kernels with separate workspaces", async () => {
    await using pool = createKernelPool({ size: 2 });
    await pool.warm();
    expect(pool.idleCount).toBe(2);
    const first = await pool.acquire();
    const second = await pool.acquire();
    expect(first.workspaceDir).not.toBe(second.workspaceDir);
    expect((await first.execute("open('mine.txt', 'w').write('a')\n1")).value).toBe("1");
    expect((await second.execute("import os\nos.path.exists('mine.txt')")).value).toBe("False");
    await first.dispose();
    await second.dispose();
  });

  it("a kernel's first program sees nothing of the start's rehearsal: no `_`, cell 1, no extra names", async () => {
    await using fresh = createKernel({ timeoutMs: 10_000 });
    await fresh.start();
    const first = await fresh.execute(
      "import linecache\nseen = sorted(name for name in globals() if not name.startswith('__'))\n" +
        "cached = [name for name in linecache.cache if not name.startswith('<cell-')]\nprint(seen, cached)",
    );
    expect(first.stdout).toBe("['ToolError', 'help', 'linecache', 'tools'] []\n");
    const error = await fresh.execute("_");
    expect(error.error?.type).toBe("NameError");
    expect(error.text).toContain('File "<cell-2>"');
  });

  it("a pool that does not refill on acquire refills only when warmed, and names a bad size", async () => {
    expect(() => createKernelPool({ size: -1 })).toThrow(
      /size expects a whole number of kernels >= 0, got -1/,
    );
    expect(() => createKernelPool({ size: 1.5 })).toThrow(/got 1.5/);
    await using pool = createKernelPool({ size: 2, refillOnAcquire: false });
    await pool.warm();
    const taken = [await pool.acquire(), await pool.acquire()];
    // A refill would have started by now (acquire schedules it with setImmediate).
    await new Promise((done) => setTimeout(done, 200));
    expect(pool.idleCount).toBe(0);
    // Empty, the pool still hands out a kernel: started on demand.
    taken.push(await pool.acquire());
    expect((await taken[2]!.execute("1 + 1")).value).toBe("2");
    await pool.warm();
    expect(pool.idleCount).toBe(2);
    await Promise.all(taken.map((kernel) => kernel.dispose()));
  });

  it("a pool with refillAfterIdleMs refills by itself once acquires stop, and refuses bad settings", async () => {
    expect(() => createKernelPool({ refillAfterIdleMs: 100 })).toThrow(/needs refillOnAcquire: false/);
    expect(() => createKernelPool({ refillOnAcquire: false, refillAfterIdleMs: -1 })).toThrow(
      /refillAfterIdleMs expects a number of milliseconds >= 0, got -1/,
    );
    await using pool = createKernelPool({ size: 2, refillOnAcquire: false, refillAfterIdleMs: 300 });
    await pool.warm();
    const taken = [await pool.acquire(), await pool.acquire()];
    await new Promise((done) => setTimeout(done, 100));
    expect(pool.idleCount).toBe(0); // still inside the quiet period: nothing started
    const deadline = Date.now() + 30_000;
    while (pool.idleCount < 2 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    expect(pool.idleCount).toBe(2);
    await Promise.all(taken.map((kernel) => kernel.dispose()));
  });
});
