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
