import { readFileSync, readdirSync } from "node:fs";

/** Processes whose command line contains the pattern (read from /proc, so the probe never counts itself). */
export function processCount(pattern: string): number {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").includes(pattern)) count += 1;
    } catch {
      // the process ended while we looked
    }
  }
  return count;
}

/** Polls until `processCount(pattern)` equals `expected` (a fork's exec is not instantaneous); returns the last count. */
export async function waitForProcessCount(
  pattern: string,
  expected: number,
  timeoutMs = 5_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let count = processCount(pattern);
  while (count !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    count = processCount(pattern);
  }
  return count;
}

/** Pids of the living descendants of a process (children, their children, ...), read from /proc. */
export function descendantPids(root: number = process.pid): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    found.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** How many living descendants a process has. */
export function descendantCount(root: number = process.pid): number {
  return descendantPids(root).length;
}
