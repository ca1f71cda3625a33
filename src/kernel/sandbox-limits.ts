/**
 * Whole-sandbox budgets: one memory budget for all of a kernel's processes and its tmpfs /tmp, one process
 * budget, a disk budget for the workspace and a size for /tmp. The mechanism is detected once per host
 * process (see cgroup.ts); without a usable cgroup the host enforces the memory budget itself by watching the
 * resident memory of the sandbox's process tree while a program runs.
 */
import { existsSync, readFileSync, readdirSync, statfsSync } from "node:fs";
import { errorMessage, isTmpfs, scratchDir, sleep } from "../core/index.js";
import {
  detectCgroup,
  createKernelCgroup,
  sweepStaleCgroups,
  type CgroupSupport,
  type KernelCgroup,
} from "./cgroup.js";
import { sandboxFeatures } from "./sandbox.js";
import { DENIED_SYSCALLS, seccompSupported } from "./seccomp.js";
import { measureWorkspace, type WorkspaceUsage } from "./workspace-usage.js";

export type SandboxLimitMechanism = "cgroup-v2" | "cgroup-v1" | "rlimit";

/** The budgets a sandbox gets. All sizes in bytes. */
export interface SandboxBudgetLimits {
  /** All processes of the sandbox together, including what its /tmp holds. */
  memoryBytes: number;
  /** Processes and threads of the sandbox together. */
  processes: number;
  /** What the workspace may hold. */
  diskBytes: number;
  /** Size of the sandbox's private /tmp (a tmpfs: it also counts against `memoryBytes`). */
  tmpBytes: number;
  /** How many entries the workspace may hold (default 200,000): a walk that finds more is over budget. */
  workspaceEntries?: number;
}

const DEFAULT_WORKSPACE_ENTRIES = 200_000;

/** What `describeSandboxLimits` and `Kernel.sandboxLimits` report. */
export interface SandboxLimitsReport extends SandboxBudgetLimits {
  mechanism: SandboxLimitMechanism;
  /** Where the cgroups live, or why no cgroup is used. */
  detail: string;
  /** The directories that hold the kernels' cgroups (`k-<host pid>-<n>`); empty without a cgroup. */
  cgroupParents: string[];
  /** How each budget is enforced under this mechanism, in words. */
  enforcement: { memory: string; processes: string; tmp: string; disk: string };
  /** The system-call filter bwrap loads (see seccomp.ts), or why there is none. */
  seccomp: string;
}

/** `PROGAGENT_SANDBOX_LIMITS=rlimit` forces the fallback (e.g. when the host's cgroups misbehave). */
export const SANDBOX_LIMITS_VARIABLE = "PROGAGENT_SANDBOX_LIMITS";

interface Detection {
  mechanism: SandboxLimitMechanism;
  support?: CgroupSupport;
  detail: string;
}

const detections = new Map<string, Detection>();

function detect(): Detection {
  const requested = process.env[SANDBOX_LIMITS_VARIABLE] ?? "auto";
  let detection = detections.get(requested);
  if (detection) return detection;
  if (requested === "rlimit") {
    detection = { mechanism: "rlimit", detail: `${SANDBOX_LIMITS_VARIABLE}=rlimit` };
  } else {
    let result: ReturnType<typeof detectCgroup>;
    try {
      result = detectCgroup();
    } catch (error) {
      result = { ok: false, reason: `cgroup detection failed: ${(error as Error).message}` };
    }
    if (result.ok) {
      sweepStaleCgroups(result.support);
      detection = {
        mechanism: result.support.version === 2 ? "cgroup-v2" : "cgroup-v1",
        support: result.support,
        detail: result.support.detail,
      };
    } else {
      detection = { mechanism: "rlimit", detail: `no usable cgroup: ${result.reason}` };
    }
  }
  detections.set(requested, detection);
  return detection;
}

export function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit += 1;
  }
  return `${value} ${units[unit]}`;
}

function report(
  detection: Detection,
  limits: SandboxBudgetLimits,
  bwrapPath: string,
  workspaceDir: string | undefined,
): SandboxLimitsReport {
  const cgroup = detection.mechanism !== "rlimit";
  const sizedTmp = sandboxFeatures(bwrapPath).tmpfsSize;
  const workspaceInMemory = chargesWorkspace(detection, workspaceDir);
  return {
    mechanism: detection.mechanism,
    detail: detection.detail,
    cgroupParents: detection.support
      ? [...new Set([detection.support.parents.memory, detection.support.parents.pids])]
      : [],
    ...limits,
    enforcement: {
      memory: cgroup
        ? `the kernel's cgroup (${detection.mechanism}) caps all its processes and /tmp${workspaceInMemory ? " and the workspace's files" : ""} at ${formatBytes(limits.memoryBytes)}; an OOM kill ends the program`
        : `each process is limited to ${formatBytes(limits.memoryBytes)} of address space (RLIMIT_AS) and the host kills the kernel when the resident memory of all its processes plus what /tmp holds exceeds ${formatBytes(limits.memoryBytes)} (checked every 250 ms while a program runs)`,
      processes: cgroup
        ? `pids.max ${limits.processes} in the kernel's cgroup`
        : `RLIMIT_NPROC ${limits.processes} when the kernel runs as its own uid, otherwise none`,
      tmp: sizedTmp
        ? `a tmpfs of ${formatBytes(limits.tmpBytes)} (writes beyond fail with ENOSPC)`
        : `an unsized tmpfs (this bwrap has no --size, which came with 0.6), bounded only by the memory budget${cgroup ? "" : " per writing process"}`,
      disk:
        `the host measures the workspace every second while a program runs and after it; beyond ${formatBytes(limits.diskBytes)} the program fails; no single file may exceed it (RLIMIT_FSIZE)` +
        (workspaceInMemory
          ? `; the workspace is on a tmpfs (${workspaceDir}), so what a program writes there also counts against the memory budget, across kernel restarts too (a kernel restarts only while the files leave it ${formatBytes(RESTART_ROOM_BYTES)})`
          : ""),
    },
    seccomp: seccompSupported()
      ? `a filter for ${process.arch}: nested user namespaces, clone3 (ENOSYS) and ${DENIED_SYSCALLS.length} other system calls refused`
      : `none: no filter for the architecture ${process.arch}`,
  };
}

/** Whether the memory budget covers the workspace's files: a cgroup, and the workspace on a tmpfs. */
function chargesWorkspace(detection: Detection, workspaceDir: string | undefined): boolean {
  return detection.mechanism !== "rlimit" && workspaceDir !== undefined && isTmpfs(workspaceDir);
}

/** Which mechanism enforces the sandbox budgets on this host, and how. Detects (and caches) on first call. */
export function describeSandboxLimits(limits: SandboxBudgetLimits, bwrapPath = "bwrap"): SandboxLimitsReport {
  return report(detect(), limits, bwrapPath, scratchDir().dir);
}

export type BudgetViolation =
  | { kind: "memory"; limitBytes: number; message: string }
  | {
      kind: "disk";
      limitBytes: number;
      /** What the walk counted: a lower bound when `unmeasured` says why the walk did not see everything. */
      usedBytes: number;
      unmeasured?: string;
      message: string;
    };

export interface SandboxBudget {
  readonly report: SandboxLimitsReport;
  /**
   * Starts moving the sandbox's first processes into the kernel's cgroup as soon as they exist, so that the
   * migration overlaps the interpreter's start-up.
   */
  join(pids: number[]): Promise<void>;
  /**
   * Puts every process of the tree under `rootPid` under the budgets (joining any that `join` missed). Called
   * after the interpreter reported ready and before the first program is sent, so no model code runs outside.
   */
  attach(rootPid: number): Promise<void>;
  /** Watches one execution; `onViolation` is called at most once. Returns the function that stops watching. */
  watch(onViolation: (violation: BudgetViolation) => void): () => void;
  /** Whether the memory budget killed something since `watch` started (a process exit may be an OOM kill). */
  memoryExceeded(): BudgetViolation | undefined;
  /** The workspace check after an execution: a violation when it grew beyond the disk budget. */
  checkDisk(): Promise<BudgetViolation | undefined>;
  /**
   * Before a restart: a violation when the workspace is on a tmpfs and its files leave the kernel's memory budget
   * too little room for a kernel to start. The restarted kernel keeps its cgroup, and the files keep their charge
   * there, so what a workspace holds stays within the memory budget however often a program fills it and forces
   * a restart (attacks.md B9: a fresh cgroup per restart let a workspace grow by a budget each time).
   */
  restartRefusal(): BudgetViolation | undefined;
  /** Removes the kernel's cgroup (after its processes are gone). */
  dispose(): Promise<void>;
}

const MEMORY_POLL_MS = 250;
/** A kernel restarts only while its workspace's files on a tmpfs leave this much of the memory budget. */
export const RESTART_ROOM_BYTES = 32 * 1024 ** 2;
const DISK_POLL_MS = 1_000;
const MAX_TREE_PROCESSES = 4096;
/** Passes of `attach` over a tree that is still forking (each joins what the last one missed). */
const ATTACH_PASSES = 20;
const ATTACH_RETRY_MS = 5;

function isAlive(pid: number): boolean {
  return existsSync(`/proc/${pid}`);
}

function memoryViolation(limitBytes: number, how: string, workspaceInMemory = false): BudgetViolation {
  const counted = workspaceInMemory
    ? "all its processes, /tmp and the workspace's files together"
    : "all its processes and /tmp together";
  return {
    kind: "memory",
    limitBytes,
    message: `The program exceeded the sandbox memory budget of ${formatBytes(limitBytes)} (${counted}; ${how}), so the kernel was stopped. All kernel state is lost; the next execution starts a fresh kernel. Use less memory: process data in chunks, or free large objects.`,
  };
}

function restartViolation(limitBytes: number, heldBytes: number): BudgetViolation {
  return {
    kind: "memory",
    limitBytes,
    message: `The kernel cannot restart: the workspace's files hold ${formatMiB(heldBytes)} of the sandbox memory budget of ${formatBytes(limitBytes)} (the workspace is on a tmpfs, so its files are memory), which leaves less than the ${formatBytes(RESTART_ROOM_BYTES)} a kernel needs. Nothing more can run in this kernel until its workspace holds less.`,
  };
}

function formatMiB(bytes: number): string {
  return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB`;
}

function diskViolation(limitBytes: number, usedBytes: number): BudgetViolation {
  return {
    kind: "disk",
    limitBytes,
    usedBytes,
    message: `The workspace holds ${formatBytes(usedBytes)}, over its disk budget of ${formatBytes(limitBytes)}. Delete files you do not need.`,
  };
}

/** A measurement that did not see everything is never under budget. */
function unmeasuredViolation(limitBytes: number, usage: { bytes: number; reason: string }): BudgetViolation {
  return {
    kind: "disk",
    limitBytes,
    usedBytes: usage.bytes,
    unmeasured: usage.reason,
    message: `The workspace could not be measured against its disk budget of ${formatBytes(limitBytes)}: ${usage.reason} (at least ${formatBytes(usage.bytes)} counted). A workspace that cannot be measured counts as over budget: delete files or directories you do not need.`,
  };
}

/** Resident memory of a process tree, from /proc (the fallback when there is no cgroup). */
export function processTreeResidentBytes(rootPid: number): number {
  let total = 0;
  const queue = [rootPid];
  const seen = new Set<number>();
  while (queue.length > 0 && seen.size < MAX_TREE_PROCESSES) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
      if (match) total += Number(match[1]) * 1024;
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
        if (children) for (const child of children.split(/\s+/)) queue.push(Number(child));
      }
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** What the sandbox's private /tmp holds, seen through its first process's root (bwrap's child). */
function sandboxTmpBytes(bwrapPid: number): number {
  try {
    const child = readFileSync(`/proc/${bwrapPid}/task/${bwrapPid}/children`, "utf8").trim().split(/\s+/)[0];
    if (!child) return 0;
    const stats = statfsSync(`/proc/${child}/root/tmp`);
    return (stats.blocks - stats.bfree) * stats.bsize;
  } catch {
    return 0;
  }
}

function processTree(rootPid: number): number[] {
  const pids: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0 && pids.length < MAX_TREE_PROCESSES) {
    const pid = queue.shift()!;
    if (pids.includes(pid)) continue;
    pids.push(pid);
    try {
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
        if (children) for (const child of children.split(/\s+/)) queue.push(Number(child));
      }
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/**
 * The budgets of one kernel. `sandboxed: false` (unsafe mode) still watches memory and disk from the host.
 * `interpreter` runs the workspace meter that measures the workspace for the disk budget (workspace-meter.ts).
 * Without a `workspaceDir` (a sandbox whose writable places are all sized tmpfs, e.g. synth's draft sandbox)
 * there is no disk check: only the memory and process budgets.
 */
export function createSandboxBudget(
  limits: SandboxBudgetLimits,
  workspaceDir: string | undefined,
  bwrapPath = "bwrap",
  sandboxed = true,
  interpreter = "/usr/bin/python3",
): SandboxBudget {
  const detection = detect();
  let cgroup: KernelCgroup | undefined;
  let mechanism = detection;
  if (detection.support) {
    try {
      cgroup = createKernelCgroup(detection.support, limits);
    } catch (error) {
      mechanism = { mechanism: "rlimit", detail: `cannot create a cgroup: ${(error as Error).message}` };
    }
  }
  const sandboxReport = report(mechanism, limits, bwrapPath, workspaceDir);
  const workspaceInMemory = chargesWorkspace(mechanism, workspaceDir);
  let rootPid: number | undefined;
  let oomMark = 0;
  let diskBaseline = 0;

  const maxEntries = limits.workspaceEntries ?? DEFAULT_WORKSPACE_ENTRIES;
  /** What the workspace holds; a walk that failed outright is an incomplete measurement of nothing. */
  const measure = async (directory: string): Promise<WorkspaceUsage> => {
    try {
      return await measureWorkspace(directory, maxEntries, interpreter);
    } catch (error) {
      return {
        bytes: 0,
        entryCount: 0,
        incomplete: true,
        reason: `the walk failed (${errorMessage(error)})`,
      };
    }
  };
  /**
   * Judges a measurement; only a violation that reaches a program moves the baseline (`deliver`), so a walk that
   * finishes after its program ended changes nothing and the check after the program judges afresh.
   */
  const judge = (usage: WorkspaceUsage, afterProgram: boolean): BudgetViolation | undefined => {
    if (usage.incomplete) {
      const reason = usage.reason ?? "the walk was incomplete";
      const tooMany = usage.entryCount >= maxEntries;
      // While a program runs, only a walk cut short by the entry bound stops it (the workspace is over budget for
      // sure); after it, any incomplete walk fails the program, and every later one until the workspace shrinks.
      if (afterProgram || (tooMany && diskBaseline !== Infinity))
        return unmeasuredViolation(limits.diskBytes, { bytes: usage.bytes, reason });
      return undefined;
    }
    if (usage.bytes > limits.diskBytes && usage.bytes > diskBaseline)
      return diskViolation(limits.diskBytes, usage.bytes);
    return undefined;
  };
  const deliver = (usage: WorkspaceUsage, violation: BudgetViolation | undefined): void => {
    // Over budget by an unknown amount: later walks cut short stop no program while it runs (it may be cleaning up).
    if (usage.incomplete) {
      if (violation) diskBaseline = Infinity;
      return;
    }
    // Cleaning up below the budget re-arms the check; staying above it after a violation does not fire again.
    diskBaseline = usage.bytes > limits.diskBytes ? usage.bytes : 0;
  };
  const diskCheck = async (): Promise<BudgetViolation | undefined> => {
    if (workspaceDir === undefined) return undefined;
    const usage = await measure(workspaceDir);
    const violation = judge(usage, true);
    deliver(usage, violation);
    return violation;
  };

  const memoryExceeded = (): BudgetViolation | undefined => {
    if (cgroup) {
      return cgroup.oomKillCount() > oomMark
        ? memoryViolation(limits.memoryBytes, "the kernel's cgroup hit its limit", workspaceInMemory)
        : undefined;
    }
    if (rootPid === undefined) return undefined;
    const used = processTreeResidentBytes(rootPid) + (sandboxed ? sandboxTmpBytes(rootPid) : 0);
    return used > limits.memoryBytes
      ? memoryViolation(limits.memoryBytes, "measured by the host")
      : undefined;
  };

  return {
    report: sandboxReport,
    async join(pids) {
      await cgroup?.join(pids);
    },
    async attach(pid) {
      rootPid = pid;
      if (!cgroup) return;
      const owned = cgroup;
      // A child forked after its parent joined is inside; one forked just before is found by the next pass (the
      // draft sandbox attaches while bwrap still forks). Done when a pass finds every live member inside.
      let missing: number[] = [];
      for (let pass = 0; pass < ATTACH_PASSES; pass += 1) {
        missing = processTree(pid).filter((member) => !owned.contains(member) && isAlive(member));
        if (missing.length === 0) return;
        await owned.join(missing);
        if (pass > 0) await sleep(ATTACH_RETRY_MS);
      }
      throw new Error(
        `processes ${missing.join(", ")} did not join ${owned.name} after ${ATTACH_PASSES} passes`,
      );
    },
    watch(onViolation) {
      oomMark = cgroup?.oomKillCount() ?? 0;
      let stopped = false;
      let diskBusy = false;
      const report = (violation: BudgetViolation): void => {
        if (stopped) return;
        stop();
        onViolation(violation);
      };
      const memoryTimer = setInterval(() => {
        const violation = memoryExceeded();
        if (violation) report(violation);
      }, MEMORY_POLL_MS);
      const diskTimer = setInterval(() => {
        if (diskBusy || workspaceDir === undefined) return;
        diskBusy = true;
        void measure(workspaceDir)
          .then((usage) => {
            // A walk that ends after its program is over judges nothing: the check after the program does.
            if (stopped) return;
            const violation = judge(usage, false);
            deliver(usage, violation);
            if (violation) report(violation);
          })
          .finally(() => {
            diskBusy = false;
          });
      }, DISK_POLL_MS);
      memoryTimer.unref();
      diskTimer.unref();
      const stop = (): void => {
        stopped = true;
        clearInterval(memoryTimer);
        clearInterval(diskTimer);
      };
      return stop;
    },
    memoryExceeded: () =>
      cgroup && cgroup.oomKillCount() > oomMark
        ? memoryViolation(limits.memoryBytes, "the kernel's cgroup hit its limit", workspaceInMemory)
        : undefined,
    checkDisk: diskCheck,
    restartRefusal() {
      if (!cgroup || !workspaceInMemory) return undefined;
      const heldBytes = cgroup.shmemBytes();
      if (limits.memoryBytes - heldBytes >= RESTART_ROOM_BYTES) return undefined;
      return restartViolation(limits.memoryBytes, heldBytes);
    },
    async dispose() {
      if (!cgroup) return;
      const owned = cgroup;
      cgroup = undefined;
      await removeCgroup(owned);
    },
  };
}

/** Removes a kernel's cgroup; killed processes leave it a moment after the signal, so retry for about two seconds. */
async function removeCgroup(owned: KernelCgroup): Promise<void> {
  for (const delayMs of [2, 5, 10, 20, 40, ...Array<number>(19).fill(100)]) {
    if (await owned.remove()) return;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  await owned.remove();
}
