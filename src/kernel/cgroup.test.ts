import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createKernelCgroup, detectCgroup, sweepStaleCgroups } from "./cgroup.js";

/** A directory tree shaped like a cgroup file system (plain files: what we write is what we read back). */
function fakeCgroup(root: string, path: string, files: Record<string, string>): string {
  const directory = join(root, path);
  mkdirSync(directory, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(directory, name), content);
  return directory;
}

const DEAD_PID = 2 ** 22 + 17; // above pid_max's default: never alive

describe("cgroup detection", () => {
  const roots: string[] = [];
  const scratch = (): string => {
    const root = mkdtempSync(join(tmpdir(), "cgroup-test-"));
    roots.push(root);
    return root;
  };
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it("cgroup v2, delegated: moves this process into a leaf and puts kernels beside it with their budgets", () => {
    const root = scratch();
    fakeCgroup(root, "", { "cgroup.controllers": "cpu memory pids", "cgroup.subtree_control": "" });
    const own = fakeCgroup(root, "user.slice/app.scope", {
      "cgroup.controllers": "cpu io memory pids",
      "cgroup.subtree_control": "",
      "cgroup.procs": `${process.pid}\n`,
    });
    const detection = detectCgroup({
      mounts: `cgroup2 ${root} cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n`,
      selfCgroup: "0::/user.slice/app.scope\n",
      isRoot: false,
      pid: process.pid,
    });
    expect(detection).toMatchObject({
      ok: true,
      support: { version: 2, parents: { memory: own, pids: own } },
    });
    expect(readFileSync(join(own, `server-${process.pid}`, "cgroup.procs"), "utf8")).toBe(
      String(process.pid),
    );
    expect(readFileSync(join(own, "cgroup.subtree_control"), "utf8")).toBe("+memory +pids");
    if (!detection.ok) return;
    const kernel = createKernelCgroup(detection.support, { memoryBytes: 256 * 1024 ** 2, processes: 64 });
    const directory = join(own, kernel.name);
    expect(readFileSync(join(directory, "memory.max"), "utf8")).toBe(String(256 * 1024 ** 2));
    expect(readFileSync(join(directory, "pids.max"), "utf8")).toBe("64");
    writeFileSync(join(directory, "memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\n");
    expect(kernel.oomKillCount()).toBe(2);
  });

  it("sweeps a dead server's leaf only when empty, and never this server's", () => {
    const parent = scratch();
    const support = { version: 2 as const, parents: { memory: parent, pids: parent }, detail: "test" };
    mkdirSync(join(parent, `server-${DEAD_PID}`));
    mkdirSync(join(parent, `server-${DEAD_PID + 1}`));
    writeFileSync(join(parent, `server-${DEAD_PID + 1}`, "cgroup.procs"), "");
    mkdirSync(join(parent, `server-${process.pid}`));
    mkdirSync(join(parent, `k-${DEAD_PID}-1`));
    mkdirSync(join(parent, "unrelated-1"));
    expect(sweepStaleCgroups(support)).toBe(2);
    expect(existsSync(join(parent, `server-${DEAD_PID}`))).toBe(false);
    expect(existsSync(join(parent, `k-${DEAD_PID}-1`))).toBe(false);
    expect(existsSync(join(parent, `server-${DEAD_PID + 1}`))).toBe(true);
    expect(existsSync(join(parent, `server-${process.pid}`))).toBe(true);
    expect(existsSync(join(parent, "unrelated-1"))).toBe(true);
  });

  it("cgroup v2, not delegated and not root: falls back and says why", () => {
    const root = scratch();
    fakeCgroup(root, "user.slice/shell.scope", {
      "cgroup.controllers": "memory pids",
      "cgroup.subtree_control": "",
      "cgroup.procs": `1\n${process.pid}\n`, // shared with another process: never move someone else's
    });
    const detection = detectCgroup({
      mounts: `cgroup2 ${root} cgroup2 rw 0 0\n`,
      selfCgroup: "0::/user.slice/shell.scope\n",
      isRoot: false,
      pid: process.pid,
    });
    expect(detection.ok).toBe(false);
    if (detection.ok) return;
    expect(detection.reason).toMatch(/not delegated/);
    expect(detection.reason).toMatch(/not root/);
    expect(detection.reason).toMatch(/no memory hierarchy/);
  });

  it("cgroup v2 as root: creates /sys/fs/cgroup/progagent with memory and pids enabled", () => {
    const root = scratch();
    fakeCgroup(root, "", { "cgroup.controllers": "cpu memory pids", "cgroup.subtree_control": "cpu" });
    fakeCgroup(root, "progagent", { "cgroup.subtree_control": "" });
    const detection = detectCgroup({
      mounts: `cgroup2 ${root} cgroup2 rw 0 0\n`,
      selfCgroup: "0::/\n",
      isRoot: true,
      pid: 1,
    });
    // The root cgroup is never delegated to us (its cgroup.procs is not ours to write): as root, create progagent.
    expect(detection).toMatchObject({
      ok: true,
      support: { version: 2, parents: { memory: join(root, "progagent") } },
    });
    expect(readFileSync(join(root, "cgroup.subtree_control"), "utf8")).toBe("+memory +pids");
    expect(readFileSync(join(root, "progagent", "cgroup.subtree_control"), "utf8")).toBe("+memory +pids");
  });

  it("cgroup v1: memory and pids hierarchies below our own cgroup; stale kernels of dead servers are swept", () => {
    const root = scratch();
    fakeCgroup(root, "memory/container", {});
    fakeCgroup(root, "pids", {});
    const detection = detectCgroup({
      mounts: [
        `cgroup ${root}/memory cgroup rw,relatime,memory 0 0`,
        `cgroup ${root}/pids cgroup rw,relatime,pids 0 0`,
        `cgroup2 ${root}/unified cgroup2 rw 0 0`,
      ].join("\n"),
      selfCgroup: "4:memory:/container\n8:pids:/\n0::/\n",
      isRoot: true,
      pid: process.pid,
    });
    expect(detection).toMatchObject({
      ok: true,
      support: {
        version: 1,
        parents: { memory: join(root, "memory/container/progagent"), pids: join(root, "pids/progagent") },
      },
    });
    if (!detection.ok) return;
    const kernel = createKernelCgroup(detection.support, { memoryBytes: 1024 ** 3, processes: 128 });
    expect(
      readFileSync(join(root, "memory/container/progagent", kernel.name, "memory.limit_in_bytes"), "utf8"),
    ).toBe(String(1024 ** 3));
    expect(readFileSync(join(root, "pids/progagent", kernel.name, "pids.max"), "utf8")).toBe("128");
    const stale = join(root, "memory/container/progagent", `k-${DEAD_PID}-3`);
    mkdirSync(stale);
    const mine = join(root, "memory/container/progagent", `k-${process.pid}-999`);
    mkdirSync(mine);
    expect(sweepStaleCgroups(detection.support)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });
});

const realCgroup = process.getuid?.() === 0 ? detectCgroup() : undefined;
const realV1 = realCgroup?.ok && realCgroup.support.version === 1 ? realCgroup.support : undefined;

describe("a kernel's cgroup on this host", () => {
  it.skipIf(realV1 === undefined || realV1.parents.memory === realV1.parents.pids)(
    "counts a process as a member only when it is in every hierarchy (memory and pids on cgroup v1)",
    async () => {
      const cgroup = createKernelCgroup(realV1!, { memoryBytes: 256 * 1024 ** 2, processes: 64 });
      const { spawn } = await import("node:child_process");
      const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
      try {
        const pid = sleeper.pid!;
        const [memory, pids] = cgroup.directories;
        writeFileSync(join(memory!, "cgroup.procs"), String(pid));
        expect(cgroup.contains(pid)).toBe(false); // in memory's only: outside the process budget
        writeFileSync(join(pids!, "cgroup.procs"), String(pid));
        expect(cgroup.contains(pid)).toBe(true);
      } finally {
        sleeper.kill("SIGKILL");
        await new Promise((resolve) => sleeper.once("exit", resolve));
        expect(await cgroup.remove()).toBe(true);
      }
    },
  );
});
