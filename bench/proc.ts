/** The process table from /proc, for the benchmarks that count a process tree's CPU, memory and members. */
import { readFileSync, readdirSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  parent: number;
  rssBytes: number;
  /** User and system CPU time so far, in milliseconds. */
  cpuMs: number;
}

const TICK_MS = 10;

export function processTable(): Map<number, ProcessInfo> {
  const table = new Map<number, ProcessInfo>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(entry), {
        pid: Number(entry),
        parent: Number(fields[1]),
        rssBytes: Number(fields[21]) * 4096,
        cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      });
    } catch {
      // ended while we looked
    }
  }
  return table;
}

export function descendants(root: number, table = processTable()): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const info of table.values()) children.set(info.parent, [...(children.get(info.parent) ?? []), info]);
  const found: ProcessInfo[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const info = stack.pop()!;
    found.push(info);
    stack.push(...(children.get(info.pid) ?? []));
  }
  return found;
}

/**
 * CPU time of the whole machine so far (the first line of /proc/stat), in ms: busy (all but idle, iowait and
 * steal), total, and steal (time the hypervisor gave this VM's CPUs to others while they had work: on a shared
 * VM it is what makes one run of a benchmark slower than the next).
 */
export function machineCpuMs(): { busyMs: number; totalMs: number; stealMs: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (USER_HZ is 100 on Linux)
  const busy = fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]!;
  const steal = fields[7] ?? 0;
  return {
    busyMs: busy * TICK_MS,
    totalMs: (busy + fields[3]! + fields[4]! + steal) * TICK_MS,
    stealMs: steal * TICK_MS,
  };
}

/** Measures the share of the machine's CPU time stolen by the hypervisor from now until the returned function is called. */
export function startStealMeter(): () => number {
  const before = machineCpuMs();
  return () => {
    const after = machineCpuMs();
    return (after.stealMs - before.stealMs) / Math.max(1, after.totalMs - before.totalMs);
  };
}

/**
 * Waits until the machine is quiet: the share of busy CPU over `windowMs` at most `busyShare` (kernels and
 * namespaces of an earlier burst are torn down for seconds after their episodes were disposed), or until
 * `deadlineMs` has passed. Returns how long it waited and the last window's busy share, for the table's footer.
 */
export async function settleMachine(
  options: { busyShare?: number; windowMs?: number; deadlineMs?: number } = {},
): Promise<{ waitedMs: number; busyShare: number; settled: boolean }> {
  const { busyShare = 0.15, windowMs = 1_000, deadlineMs = 60_000 } = options;
  const started = performance.now();
  for (;;) {
    const before = machineCpuMs();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = machineCpuMs();
    const share = (after.busyMs - before.busyMs) / Math.max(1, after.totalMs - before.totalMs);
    const waitedMs = performance.now() - started;
    if (share <= busyShare) return { waitedMs, busyShare: share, settled: true };
    if (waitedMs >= deadlineMs) return { waitedMs, busyShare: share, settled: false };
  }
}
