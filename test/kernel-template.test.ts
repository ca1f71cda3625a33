/**
 * The template launcher (PROGAGENT_KERNEL_LAUNCHER=template, python/template.py): a kernel it forks must be
 * indistinguishable to a program from one bwrap starts, must hold nothing of another episode, must not reach the
 * template, and the template's death or silence must fail its starts clearly and leave its running kernels
 * alone. Root only: the template launches kernels with their own uid (idmapped workspaces), elsewhere bwrap
 * starts them.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createKernel, type Kernel, type KernelOptions } from "../src/kernel/index.js";
import { spawnerPids } from "../src/kernel/spawner.js";
import { alive, childrenOf, isSupervisor, templatePids } from "./helpers/processes.js";

/** Everything a program can read about its own process and sandbox, as one JSON line. */
const VIEW = String.raw`
import json, os, sys
def read(path):
    try:
        with open(path, errors="replace") as handle:
            return handle.read()
    except OSError as error:
        return "error %d" % error.errno
status = {}
for line in read("/proc/self/status").splitlines():
    name, _, value = line.partition(":")
    if name.startswith(("Cap", "NoNewPrivs", "Seccomp", "Uid", "Gid", "Groups", "NSpid", "NStgid", "Sig", "Umask")):
        status[name] = value.strip()
print(json.dumps({
    "uid": os.getuid(),
    "status": status,
    "mountinfo": [line.split(" ", 3)[3] for line in read("/proc/self/mountinfo").splitlines()],
    "uid_map": read("/proc/self/uid_map"), "gid_map": read("/proc/self/gid_map"), "setgroups": read("/proc/self/setgroups"),
    "environ": dict(os.environ), "environ_block": read("/proc/self/environ"), "cmdline": read("/proc/self/cmdline"),
    "supervisor_cmdline": read("/proc/1/cmdline"),
    "fds": sorted(os.listdir("/proc/self/fd")), "supervisor_fds": read("/proc/1/status").count("\n"),
    "hostname": os.uname().nodename, "cwd": os.getcwd(), "argv": sys.argv, "orig_argv": sys.orig_argv,
    "executable": sys.executable, "path": sys.path, "flags": str(sys.flags), "modules": sorted(sys.modules),
    "net": read("/proc/net/dev").split("\n", 2)[2], "route": read("/proc/net/route"),
    "pids": sorted(name for name in os.listdir("/proc") if name.isdigit()),
    "ids": [os.getpid(), os.getppid(), os.getsid(0), os.getpgid(0)],
    "cgroup": read("/proc/self/cgroup"), "limits": read("/proc/self/limits"),
    "dev": sorted(os.listdir("/dev")), "root": sorted(os.listdir("/")),
    "modes": {path: oct(os.lstat(path).st_mode) for path in ("/", "/run", "/run/progagent", "/dev", "/tmp", "/workspace", "/bin")},
    "owners": {path: os.lstat(path).st_uid == os.getuid() for path in ("/", "/run", "/dev", "/tmp")},
    "namespaces": sorted(os.listdir("/proc/self/ns")),
    "stat": read("/proc/self/stat").rpartition(")")[2].split()[:5],
    "tmp": os.statvfs("/tmp").f_blocks * os.statvfs("/tmp").f_frsize,
}))
`;

function startKernel(options: KernelOptions): Kernel {
  return createKernel({ timeoutMs: 30_000, ...options });
}

/** Supervisors whose parent is the spawner: kernels the template started (bwrap's are bwrap's children). */
function templateKernelPids(): number[] {
  return spawnerPids().flatMap((spawner) =>
    childrenOf(spawner).filter((pid) => alive(pid) && isSupervisor(pid)),
  );
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The view with what differs between any two kernels replaced: the kernel's own directory and uid. */
function normalisedView(kernel: Kernel, text: string): unknown {
  const { uid, ...view } = JSON.parse(text) as { uid: number };
  const kernelDir = dirname(dirname(kernel.workspaceDir));
  return JSON.parse(
    JSON.stringify(view)
      .split(kernelDir)
      .join("<kernel>")
      // A mount's root is relative to its file system: on a tmpfs scratch directory, /progagent-...-kernel-*.
      .split(basename(kernelDir))
      .join("<kernel>")
      .replace(new RegExp(`(?<!\\d)${uid}(?!\\d)`, "g"), "<uid>")
      .replace(/k-\d+-\d+/g, "k-<n>"),
  );
}

describe.skipIf(process.getuid?.() !== 0)("the template launcher", () => {
  const scratch = mkdtempSync(join(tmpdir(), "kernel-template-test-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("starts kernels a program cannot tell from bwrap's: same ids, mounts, capabilities, filters, environment, descriptors", async () => {
    const bwrap = startKernel({ launcher: "bwrap" });
    const template = startKernel({ launcher: "template" });
    try {
      const [fromBwrap, fromTemplate] = await Promise.all([bwrap.execute(VIEW), template.execute(VIEW)]);
      expect(fromBwrap.status, fromBwrap.text).toBe("ok");
      expect(fromTemplate.status, fromTemplate.text).toBe("ok");
      // The second really came from a template: its supervisor is the spawner's child, and a template runs.
      expect(templateKernelPids()).toHaveLength(1);
      expect(templatePids()).toHaveLength(1);
      const expected = normalisedView(bwrap, fromBwrap.text) as Record<string, unknown>;
      const actual = normalisedView(template, fromTemplate.text) as Record<string, unknown>;
      // What makes the comparison worth something: a sandboxed view with every privilege gone.
      expect((expected.status as Record<string, string>).CapBnd).toBe("0000000000000000");
      expect((expected.status as Record<string, string>).NoNewPrivs).toBe("1");
      expect(expected.hostname).toBe("sandbox");
      expect(actual).toEqual(expected);
    } finally {
      await Promise.all([bwrap.dispose(), template.dispose()]);
    }
  });

  it("gives a kernel nothing of another episode's request: no trace of its workspace in objects or memory", async () => {
    const marker = `episode-marker-${process.pid}-${Date.now().toString(36)}`;
    const workspace = join(scratch, marker);
    mkdirSync(workspace);
    // The program holds the marker only shifted by one byte value, and shifts what it reads the same way.
    const shifted = [...Buffer.from(marker)].map((byte) => (byte + 1) % 256);
    const scan = String.raw`
import gc
shift = bytes((value + 1) % 256 for value in range(256))
needle = bytes(${JSON.stringify(shifted)})
def holds(data):
    return needle in bytes(data).translate(shift)
found = set()
for obj in gc.get_objects():
    for item in [obj] + gc.get_referents(obj):
        if isinstance(item, str):
            item = item.encode("utf-8", "surrogateescape")
        if isinstance(item, (bytes, bytearray)) and holds(item):
            found.add("object")
regions = 0
with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as memory:
    for line in maps:
        fields = line.split()
        name = fields[5] if len(fields) > 5 else "anonymous"
        if fields[1][0] != "r" or name in ("[vvar]", "[vsyscall]"):
            continue
        start, end = (int(address, 16) for address in fields[0].split("-"))
        try:
            memory.seek(start)
            data = memory.read(end - start)
        except OSError:
            continue
        regions += 1
        if holds(data):
            found.add(name)
print(regions > 10, sorted(found))
`;
    const first = startKernel({ launcher: "template", workspaceDir: workspace });
    const second = startKernel({ launcher: "template" });
    try {
      // The scan finds the marker where it is: planted in the first kernel (its own request, which named its
      // workspace, is gone from its objects since attacks.md H6, and from its memory as the freed bytes are reused).
      const own = await first.execute(
        `planted = [bytes(${JSON.stringify(shifted)}).translate(bytes((value - 1) % 256 for value in range(256)))]\n${scan}`,
      );
      expect(own.text).toMatch(/^True \[.*object.*\]$/);
      const other = await second.execute(scan);
      expect(other.status, other.text).toBe("ok");
      expect(other.text).toBe("True []");
    } finally {
      await Promise.all([first.dispose(), second.dispose()]);
    }
  });

  it("keeps the template out of the kernel's PID namespace: the kernel can neither see nor signal it", async () => {
    const kernel = startKernel({ launcher: "template" });
    try {
      await kernel.start();
      const [template] = templatePids();
      expect(template).toBeDefined();
      const result = await kernel.execute(
        [
          "import os, signal",
          "for signo in (0, signal.SIGKILL, signal.SIGSTOP):",
          "    try:",
          `        os.kill(${template}, signo)`,
          "        print('signalled')",
          "    except ProcessLookupError:",
          "        print('no such process')",
          "print(sorted(int(name) for name in os.listdir('/proc') if name.isdigit()))",
        ].join("\n"),
      );
      expect(result.text).toBe("no such process\nno such process\nno such process\n[1, 2]");
      expect(alive(template!)).toBe(true);
      expect(/^State:\s+[SR]/m.test(readFileSync(`/proc/${template}/status`, "utf8"))).toBe(true);
    } finally {
      await kernel.dispose();
    }
  });

  it("keeps the template's running kernels when it dies, fails a start in flight naming it, and starts a new one next", async () => {
    const kernel = startKernel({ launcher: "template" });
    const waiting = startKernel({ launcher: "template" });
    try {
      expect((await kernel.execute("x = 41\nx")).value).toBe("41");
      const [template] = templatePids();
      const supervisors = templateKernelPids();
      expect(supervisors).toHaveLength(1);
      process.kill(template!, "SIGSTOP");
      const started = waiting.start().then(
        () => "started",
        (error: Error) => error.message,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(template!, "SIGKILL");
      expect(await started).toMatch(/the kernel template \(pid \d+\) exited \(signal 9\)/);
      await waitFor(() => !alive(template!), "the template to be reaped");
      // The running kernel needs nothing of its template: it keeps its state.
      expect(alive(supervisors[0]!)).toBe(true);
      expect((await kernel.execute("x + 1")).value).toBe("42");
      expect((await waiting.execute("print('from a new template')")).text).toContain("from a new template");
      expect(templatePids()).toHaveLength(1);
      expect(templatePids()).not.toContain(template);
    } finally {
      await Promise.all([kernel.dispose(), waiting.dispose()]);
    }
  });

  it("fails a start the template does not answer within its deadline, naming why, and replaces the template", async () => {
    const warm = startKernel({ launcher: "template" });
    const kernel = startKernel({ launcher: "template" });
    try {
      await warm.execute("x = 1");
      const [template] = templatePids();
      process.kill(template!, "SIGSTOP");
      const outcome = await kernel.start().then(
        () => "started",
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/the kernel template \(pid \d+\) did not fork the kernel within 5000 ms/);
      await waitFor(() => !alive(template!), "the unresponsive template to be killed");
      expect((await kernel.execute("print('answered')")).text).toContain("answered");
      // The kernel the slow template had started before keeps its state (review finding M1).
      expect((await warm.execute("print('warm', 'x' in globals())")).text).toContain("warm True");
      expect(templatePids()).toHaveLength(1);
    } finally {
      await Promise.all([warm.dispose(), kernel.dispose()]);
    }
  });

  it("leaves no template kernel running once its kernels are disposed", () => {
    expect(templateKernelPids()).toEqual([]);
    expect(readdirSync(scratch).length).toBeGreaterThan(0);
  });
});
