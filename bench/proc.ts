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
