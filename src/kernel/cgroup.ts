/**
 * One cgroup per kernel: a memory budget for all its processes and its tmpfs /tmp (tmpfs pages are charged
 * to the writer's cgroup) and a process budget. Detected once per host process, in this order:
 * 1. cgroup v2, our own cgroup's subtree when it is delegated to us (writable, memory and pids available);
 * 2. cgroup v2, `/sys/fs/cgroup/progagent` created at the root of the hierarchy when running as root;
 * 3. cgroup v1 memory and pids hierarchies, below our own cgroup in each, when writable (root);
 * otherwise none (the caller falls back to rlimits and host-side checks).
 */
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import { rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sweepStale } from "../core/index.js";

export type CgroupVersion = 1 | 2;

export interface CgroupSupport {
  version: CgroupVersion;
  /** Directories that hold the kernels' cgroups: one for v2, the memory and pids ones for v1. */
  parents: { memory: string; pids: string };
  /** How it was found, for `describeSandboxLimits`. */
  detail: string;
}

export type CgroupDetection = { ok: true; support: CgroupSupport } | { ok: false; reason: string };

export interface CgroupEnvironment {
  /** Contents of /proc/self/mounts. */
  mounts: string;
  /** Contents of /proc/self/cgroup. */
  selfCgroup: string;
  isRoot: boolean;
  pid: number;
}

const KERNEL_PREFIX = "k-";

function readText(path: string): string {
  return readFileSync(path, "utf8");
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function hostEnvironment(): CgroupEnvironment {
  return {
    mounts: readText("/proc/self/mounts"),
    selfCgroup: readText("/proc/self/cgroup"),
    isRoot: process.getuid?.() === 0,
    pid: process.pid,
  };
}

interface Mount {
  target: string;
  type: string;
  options: string[];
}

function parseMounts(text: string): Mount[] {
  return text
    .split("\n")
    .map((line) => line.split(" "))
    .filter((fields) => fields.length >= 4)
    .map((fields) => ({
      // /proc/self/mounts escapes spaces and friends as octal.
      target: fields[1]!.replace(/\\([0-7]{3})/g, (_, code: string) =>
        String.fromCharCode(parseInt(code, 8)),
      ),
      type: fields[2]!,
      options: fields[3]!.split(","),
    }));
}

/** `hierarchy-id:controllers:path` lines; v2 is the line with id 0 and no controllers. */
function ownCgroupPath(selfCgroup: string, controller: string | null): string | undefined {
  for (const line of selfCgroup.split("\n")) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const controllers = match[2]!.split(",");
    if (controller === null ? match[1] === "0" && match[2] === "" : controllers.includes(controller))
      return match[3]!;
  }
  return undefined;
}

function controllersOf(directory: string): string[] {
  try {
    return readText(join(directory, "cgroup.controllers")).trim().split(/\s+/);
  } catch {
    return [];
  }
}

function enableControllers(directory: string): void {
  const enabled = readText(join(directory, "cgroup.subtree_control")).trim().split(/\s+/);
  const missing = ["memory", "pids"].filter((name) => !enabled.includes(name));
  if (missing.length > 0)
    writeFileSync(join(directory, "cgroup.subtree_control"), missing.map((name) => `+${name}`).join(" "));
}

function hasBudgetControllers(directory: string): boolean {
  const controllers = controllersOf(directory);
  return controllers.includes("memory") && controllers.includes("pids");
}

/**
 * Our own v2 cgroup, when it is delegated to us: v2 forbids processes in a cgroup whose children use
 * controllers, so this process moves into a leaf (`server-<pid>`) and the kernels become its siblings.
 * Only when this process is the cgroup's only member (never moves someone else's processes).
 */
function delegatedSubtree(own: string, environment: CgroupEnvironment): string | undefined {
  if (!hasBudgetControllers(own) || !isWritable(join(own, "cgroup.subtree_control"))) return undefined;
  if (!isWritable(join(own, "cgroup.procs"))) return undefined;
  const members = readText(join(own, "cgroup.procs")).trim().split(/\s+/).filter(Boolean);
  if (members.some((member) => Number(member) !== environment.pid)) return undefined;
  const leaf = join(own, `server-${environment.pid}`);
  mkdirSync(leaf, { recursive: true });
  writeFileSync(join(leaf, "cgroup.procs"), String(environment.pid));
  enableControllers(own);
  return own;
}

function detectVersion2(environment: CgroupEnvironment): CgroupDetection {
  const mount = parseMounts(environment.mounts).find((entry) => entry.type === "cgroup2");
  if (!mount) return { ok: false, reason: "no cgroup2 file system is mounted" };
  const ownPath = ownCgroupPath(environment.selfCgroup, null);
  const own = ownPath === undefined ? undefined : join(mount.target, ownPath);
  const reasons: string[] = [];
  if (own && existsSync(own)) {
    try {
      const parent = delegatedSubtree(own, environment);
      if (parent)
        return {
          ok: true,
          support: {
            version: 2,
            parents: { memory: parent, pids: parent },
            detail: `delegated subtree ${parent}`,
          },
        };
      reasons.push(`own cgroup ${own} is not delegated (writable, with memory and pids, this process alone)`);
    } catch (error) {
      reasons.push(`own cgroup ${own}: ${(error as Error).message}`);
    }
  }
  if (environment.isRoot) {
    if (!hasBudgetControllers(mount.target)) {
      reasons.push(`${mount.target} offers no memory and pids controllers (bound to cgroup v1?)`);
    } else {
      try {
        enableControllers(mount.target);
        const parent = join(mount.target, "progagent");
        mkdirSync(parent, { recursive: true });
        enableControllers(parent);
        return {
          ok: true,
          support: { version: 2, parents: { memory: parent, pids: parent }, detail: `root-owned ${parent}` },
        };
      } catch (error) {
        reasons.push(`cannot create ${join(mount.target, "progagent")}: ${(error as Error).message}`);
      }
    }
  } else {
    reasons.push("not root, so no cgroup can be created at the root of the hierarchy");
  }
  return { ok: false, reason: `cgroup v2: ${reasons.join("; ")}` };
}

function detectVersion1(environment: CgroupEnvironment): CgroupDetection {
  const mounts = parseMounts(environment.mounts).filter((entry) => entry.type === "cgroup");
  const parents: Record<"memory" | "pids", string> = { memory: "", pids: "" };
  for (const controller of ["memory", "pids"] as const) {
    const mount = mounts.find((entry) => entry.options.includes(controller));
    if (!mount) return { ok: false, reason: `cgroup v1: no ${controller} hierarchy is mounted` };
    if (mount.options.includes("ro")) return { ok: false, reason: `cgroup v1: ${mount.target} is read-only` };
    const own = join(mount.target, ownCgroupPath(environment.selfCgroup, controller) ?? "/");
    if (!isWritable(own)) return { ok: false, reason: `cgroup v1: ${own} is not writable` };
    const parent = join(own, "progagent");
    try {
      mkdirSync(parent, { recursive: true });
    } catch (error) {
      return { ok: false, reason: `cgroup v1: cannot create ${parent}: ${(error as Error).message}` };
    }
    parents[controller] = parent;
  }
  return {
    ok: true,
    support: { version: 1, parents, detail: `memory ${parents.memory}, pids ${parents.pids}` },
  };
}

/** Finds the best cgroup mechanism this process may use (see the module comment for the order). */
export function detectCgroup(environment: CgroupEnvironment = hostEnvironment()): CgroupDetection {
  const version2 = detectVersion2(environment);
  if (version2.ok) return version2;
  const version1 = detectVersion1(environment);
  if (version1.ok) return version1;
  return { ok: false, reason: `${version2.reason}; ${version1.reason}` };
}

export interface KernelCgroupBudget {
  memoryBytes: number;
  processes: number;
}

/** The cgroup of one kernel. Owned by the kernel: `remove()` at dispose. */
export interface KernelCgroup {
  readonly name: string;
  /** Its directories (one per hierarchy on cgroup v1): a process joins by writing its pid to `cgroup.procs`. */
  readonly directories: readonly string[];
  /**
   * Moves processes (all their threads) into the cgroup. Async: a cgroup migration waits for an RCU grace
   * period (milliseconds on a busy host), which must not stall the event loop.
   */
  join(pids: number[]): Promise<void>;
  /** Whether `pid` is a member in every hierarchy (read back from /proc/<pid>/cgroup). */
  contains(pid: number): boolean;
  /** How many processes the OOM killer has killed in this cgroup so far. */
  oomKillCount(): number;
  /**
   * What tmpfs files written by its processes hold of its memory (`shmem` in memory.stat): a workspace on a tmpfs
   * keeps this charge after the processes are gone. 0 when it cannot be read.
   */
  shmemBytes(): number;
  /**
   * Removes the directories, killing what is left in them; false when something is still busy. Off the event
   * loop: removing a cgroup is two system calls per hierarchy that were a tenth of a burst's dispose time.
   */
  remove(): Promise<boolean>;
}

let kernelCounter = 0;

function writeValue(directory: string, file: string, value: string): void {
  writeFileSync(join(directory, file), value);
}

/** Creates the cgroup of one kernel with its memory and process budgets. */
export function createKernelCgroup(support: CgroupSupport, budget: KernelCgroupBudget): KernelCgroup {
  kernelCounter += 1;
  const name = `${KERNEL_PREFIX}${process.pid}-${kernelCounter}`;
  const memory = join(support.parents.memory, name);
  const pids = join(support.parents.pids, name);
  const directories = [...new Set([memory, pids])];
  for (const directory of directories) mkdirSync(directory);
  try {
    if (support.version === 2) {
      writeValue(memory, "memory.max", String(budget.memoryBytes));
      if (existsSync(join(memory, "memory.swap.max"))) writeValue(memory, "memory.swap.max", "0");
      // One OOM kill ends the whole sandbox, like a crash, rather than one of its processes at random.
      if (existsSync(join(memory, "memory.oom.group"))) writeValue(memory, "memory.oom.group", "1");
      writeValue(pids, "pids.max", String(budget.processes));
    } else {
      writeValue(memory, "memory.limit_in_bytes", String(budget.memoryBytes));
      if (existsSync(join(memory, "memory.memsw.limit_in_bytes")))
        writeValue(memory, "memory.memsw.limit_in_bytes", String(budget.memoryBytes));
      writeValue(pids, "pids.max", String(budget.processes));
    }
  } catch (error) {
    for (const directory of directories) removeDirectory(directory);
    throw error;
  }
  return {
    name,
    directories,
    async join(pids) {
      for (const pid of pids) {
        for (const directory of directories) {
          try {
            await writeFile(join(directory, "cgroup.procs"), String(pid));
          } catch (error) {
            // A process that exited (a start-up helper of bwrap) runs nothing more: there is nothing to move.
            if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
          }
        }
      }
    },
    contains(pid) {
      try {
        // A member of every hierarchy the kernel's cgroup is in (memory and pids on cgroup v1): a process moved
        // into one of them only is outside the other's budget.
        const lines = readText(`/proc/${pid}/cgroup`).split("\n");
        return lines.filter((line) => line.endsWith(`/${name}`)).length >= directories.length;
      } catch {
        return false;
      }
    },
    oomKillCount() {
      try {
        const file = support.version === 2 ? "memory.events" : "memory.oom_control";
        const match = /^oom_kill (\d+)$/m.exec(readText(join(memory, file)));
        return match ? Number(match[1]) : 0;
      } catch {
        return 0;
      }
    },
    shmemBytes() {
      try {
        const match = /^(?:total_)?shmem (\d+)$/m.exec(readText(join(memory, "memory.stat")));
        return match ? Number(match[1]) : 0;
      } catch {
        return 0;
      }
    },
    async remove() {
      let removed = true;
      for (const directory of directories) removed = (await removeDirectoryAsync(directory)) && removed;
      return removed;
    },
  };
}

function killMembers(directory: string): void {
  if (existsSync(join(directory, "cgroup.kill"))) {
    try {
      writeValue(directory, "cgroup.kill", "1");
      return;
    } catch {
      // fall through to killing one by one
    }
  }
  let members: string[] = [];
  try {
    members = readText(join(directory, "cgroup.procs")).trim().split(/\s+/).filter(Boolean);
  } catch {
    return;
  }
  for (const member of members) {
    try {
      process.kill(Number(member), "SIGKILL");
    } catch {
      // already gone
    }
  }
}

function removeDirectory(directory: string): boolean {
  if (!existsSync(directory)) return true;
  killMembers(directory);
  try {
    rmdirSync(directory);
    return true;
  } catch {
    return false;
  }
}

/** removeDirectory without blocking: an empty cgroup goes at the first try, one with members after the kill. */
async function removeDirectoryAsync(directory: string): Promise<boolean> {
  try {
    await rmdir(directory);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return true;
    if (code !== "EBUSY") return false;
  }
  killMembers(directory);
  try {
    await rmdir(directory);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * Removes the cgroups of kernels whose server died (kill -9): `k-<pid>-<n>` with a dead pid, and empty
 * `server-<pid>` leaves. Returns how many were removed.
 */
export function sweepStaleCgroups(support: CgroupSupport): number {
  let removed = 0;
  for (const parent of new Set([support.parents.memory, support.parents.pids]))
    removed += sweepStale(parent, {
      ownerOf: (name) => {
        const match = /^(?:k-(\d+)-\d+|server-(\d+))$/.exec(name);
        return match ? Number(match[1] ?? match[2]) : undefined;
      },
      remove: (path, name) => {
        if (!name.startsWith("server-")) return removeDirectory(path);
        // A leaf a dead server lived in: remove it only when empty.
        try {
          rmdirSync(path);
          return true;
        } catch {
          return false; // still has members
        }
      },
    });
  return removed;
}
