import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseTerminalCommand } from "../src/envs/index.js";

// B11 (attacks.md, second review): model code swaps a directory of its workspace with a link to /proc/self in a
// tight loop while the terminal tool checks its command on the host. A check that resolved names as the host
// followed the swapped link into the host's own /proc/self and quoted the host's link targets, or threw
// (readlink of an entry that was swapped back), which the servers answered with HTTP 500.

const scratch = mkdtempSync(join(tmpdir(), "progagent-attacks-terminal-"));
const swappers: ChildProcess[] = [];
afterAll(() => {
  for (const child of swappers) child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

/** Exchanges `a` and `b` (renameat2 RENAME_EXCHANGE) in a loop until killed. */
function startSwapper(directory: string, a: string, b: string): ChildProcess {
  const source = [
    "import ctypes, os, sys",
    "libc = ctypes.CDLL(None, use_errno=True)",
    "fd = os.open(sys.argv[1], os.O_RDONLY)",
    "a, b = sys.argv[2].encode(), sys.argv[3].encode()",
    "print('ready', flush=True)",
    "while True:",
    "    libc.renameat2(fd, a, fd, b, 2)",
  ].join("\n");
  const child = spawn("python3", ["-c", source, directory, a, b], { stdio: ["ignore", "pipe", "inherit"] });
  swappers.push(child);
  return child;
}

describe("B11 the terminal check resolves from descriptors", () => {
  it("never follows a swapped link into the host, never quotes a host link target and never throws", async () => {
    const workspace = join(scratch, "workspace");
    mkdirSync(join(workspace, "x", "fd"), { recursive: true });
    writeFileSync(join(workspace, "x", "fd", "0"), "a file of the workspace\n");
    writeFileSync(join(workspace, "x", "cwd"), "another\n");
    symlinkSync("/proc/self", join(workspace, "y"));
    const swapper = startSwapper(workspace, "x", "y");
    await new Promise<void>((resolve) => swapper.stdout!.once("data", () => resolve()));
    const reasons = new Map<string, number>();
    let thrown = 0;
    let allowed = 0;
    for (let round = 0; round < 3_000; round += 1) {
      for (const command of ["cat x/fd/0", "ls x/cwd", "find x/fd -name 0"]) {
        try {
          const parsed = parseTerminalCommand(command, workspace);
          if (parsed.ok) allowed += 1;
          else reasons.set(parsed.reason, (reasons.get(parsed.reason) ?? 0) + 1);
        } catch {
          thrown += 1;
        }
      }
      // Let the swapper run between rounds on a busy machine.
      if (round % 200 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    swapper.kill("SIGKILL");
    expect(thrown).toBe(0);
    expect(allowed).toBeGreaterThan(0);
    // The only targets quoted are the workspace's own link's; nothing of the host's /proc/self.
    for (const reason of reasons.keys()) {
      expect(reason).toMatch(/\(to \/proc\/self\)$|changed while it was checked|could not be checked/);
      expect(reason).not.toContain(scratch);
    }
    expect([...reasons.keys()].some((reason) => reason.endsWith("(to /proc/self)"))).toBe(true);
  });
});
