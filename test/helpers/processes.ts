import type { ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { spawnerPids } from "../../src/kernel/spawner.js";

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

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function parentPid(pid: number): number {
  const stat = read(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

function isBwrap(pid: number): boolean {
  return /(^|\/)bwrap$/.test(read(`/proc/${pid}/cmdline`).split("\0")[0]!);
}

/**
 * Whether the process is a sandbox's supervisor (PID 1 of its namespace, running the bootstrap): under bwrap
 * bwrap's child, under the template launcher (PROGAGENT_KERNEL_LAUNCHER=template) the kernel's first process.
 */
export function isSupervisor(pid: number): boolean {
  if (!read(`/proc/${pid}/cmdline`).includes("/run/progagent/bootstrap")) return false;
  return /^NSpid:.*\s1$/m.test(read(`/proc/${pid}/status`));
}

/**
 * A sandbox's first process as the host sees it: bwrap, or under the template launcher the supervisor itself
 * (there is no bwrap around it).
 */
export function isSandboxRoot(pid: number): boolean {
  return isBwrap(pid) || (isSupervisor(pid) && !isBwrap(parentPid(pid)));
}

/**
 * The first processes of the kernel whose own directory is `kernelDir`: bwrap names it in its arguments; a
 * kernel started by the template has no host path in any command line, and its mounts name the directory.
 */
export function kernelRootCount(kernelDir: string): number {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (!isSandboxRoot(pid)) continue;
    if (
      isBwrap(pid)
        ? read(`/proc/${pid}/cmdline`).includes(kernelDir)
        : read(`/proc/${pid}/mountinfo`).includes(kernelDir)
    )
      count += 1;
  }
  return count;
}

/** Polls until `kernelRootCount(kernelDir)` equals `expected`; returns the last count. */
export async function waitForKernelRootCount(
  kernelDir: string,
  expected: number,
  timeoutMs = 5_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let count = kernelRootCount(kernelDir);
  while (count !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    count = kernelRootCount(kernelDir);
  }
  return count;
}

/** The children of a process (from /proc; none when it is gone). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A process's command line with spaces between the arguments ("" when it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** Whether a process exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

/** The running kernel templates: children of this host's spawners that run template.py. */
export function templatePids(): number[] {
  return spawnerPids().flatMap((spawner) =>
    childrenOf(spawner).filter((pid) => commandLine(pid).includes("template.py") && alive(pid)),
  );
}

/**
 * The URL a `rollout serve` child prints on stderr ("rollout service at http://..."), once stderr also matches
 * `ready` when given; rejects with what it printed when that takes longer than `timeoutMs`.
 */
export function waitForRolloutUrl(child: ChildProcess, timeoutMs: number, ready?: RegExp): Promise<string> {
  return new Promise<string>((done, fail) => {
    let text = "";
    const timer = setTimeout(
      () => fail(new Error(`not ready within ${timeoutMs / 1000} s: ${text}`)),
      timeoutMs,
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /rollout service at (http:\/\/\S+)/.exec(text);
      if (match?.[1] && (ready === undefined || ready.test(text))) {
        clearTimeout(timer);
        done(match[1]);
      }
    });
  });
}
