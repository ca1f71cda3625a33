/** The process table from /proc, for the benchmarks that count a process tree's CPU, memory and members. */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { formatNumber } from "./stats.js";

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

const MACHINE_PROBE = `
import mmap, os, time
size = 64 << 20
region = mmap.mmap(-1, size)
started = time.perf_counter()
for offset in range(0, size, 4096):
    region[offset] = 1
fault = (time.perf_counter() - started) / (size // 4096) * 1e6
started = time.perf_counter()
for _ in range(200):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
fork = (time.perf_counter() - started) / 200 * 1e6
print(f"{fault:.2f} {fork:.0f}")
`;

/**
 * What memory and processes cost on this machine, measured now by a small Python: touching a fresh 4 KiB page
 * (a page fault, allocation and zeroing) and fork + exit + wait. VMs differ by several times in both (3.4 us per
 * page on one of this project's VMs, where bare metal takes about a tenth), and a kernel start is mostly both.
 */
export function machineCosts(python = "/usr/bin/python3"): string {
  const probe = spawnSync(python, ["-I", "-S", "-c", MACHINE_PROBE], { encoding: "utf8", timeout: 60_000 });
  const [fault, fork] = (probe.stdout ?? "").trim().split(/\s+/).map(Number);
  if (probe.status !== 0 || !Number.isFinite(fault) || !Number.isFinite(fork))
    return `machine costs: not measured (${python}: ${(probe.stderr || probe.error?.message || "no output").trim().slice(0, 200)})`;
  return `machine costs (measured now by ${python}): a fresh 4 KiB page ${formatNumber(fault!, 2)} us to touch, fork + exit + wait of a small process ${formatNumber(fork!, 0)} us`;
}
