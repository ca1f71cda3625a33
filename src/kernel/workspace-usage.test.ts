import { execFileSync } from "node:child_process";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { measureInMeter, stopWorkspaceMeters } from "./workspace-meter.js";
import { measureWorkspace, walkWorkspace, type WorkspaceUsage } from "./workspace-usage.js";

const PYTHON = "/usr/bin/python3";
/** The meter itself (no fallback: a meter that cannot answer fails the test), and the host's own walk. */
const walks: Array<[string, (root: string, maxEntries?: number) => Promise<WorkspaceUsage>]> = [
  ["the workspace meter", (root, maxEntries = 200_000) => measureInMeter(PYTHON, root, maxEntries)],
  ["the in-process walk", walkWorkspace],
];

afterAll(() => stopWorkspaceMeters());

describe.each(walks)("measuring a workspace with %s", (_, measure) => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  const scratch = (): string => {
    const root = mkdtempSync(join(tmpdir(), "workspace-usage-"));
    roots.push(root);
    return root;
  };

  it("counts allocated bytes once per inode and never follows links or opens FIFOs", async () => {
    const outside = scratch();
    writeFileSync(join(outside, "big"), Buffer.alloc(8 * 1024 * 1024, 1));
    const workspace = scratch();
    mkdirSync(join(workspace, "nested/deeper"), { recursive: true });
    writeFileSync(join(workspace, "nested/deeper/data"), Buffer.alloc(1024 * 1024, 1));
    linkSync(join(workspace, "nested/deeper/data"), join(workspace, "hardlink"));
    symlinkSync(outside, join(workspace, "to-outside"));
    symlinkSync(join(outside, "big"), join(workspace, "to-big"));
    execFileSync("mkfifo", [join(workspace, "pipe")]);
    writeFileSync(join(workspace, "sparse"), "");
    truncateSync(join(workspace, "sparse"), 1024 ** 3);
    const usage = await measure(workspace);
    expect(usage.incomplete).toBe(false);
    expect(usage.entryCount).toBe(8);
    // 1 MiB of data (linked twice) plus directory blocks; not the 8 MiB outside, not the sparse 1 GiB.
    expect(usage.bytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(usage.bytes).toBeLessThan(2 * 1024 * 1024);
  });

  it("stops at the entry bound and says the result is a lower bound", async () => {
    const workspace = scratch();
    for (let index = 0; index < 50; index += 1) writeFileSync(join(workspace, `file-${index}`), "x");
    const usage = await measure(workspace, 10);
    expect(usage).toMatchObject({ entryCount: 10, incomplete: true });
  });

  it("measures a root that is not a directory, or is gone, as empty", async () => {
    const workspace = scratch();
    writeFileSync(join(workspace, "file"), "x");
    expect(await measure(join(workspace, "file"))).toEqual({ bytes: 0, entryCount: 0, incomplete: false });
    expect(await measure(join(workspace, "missing"))).toEqual({ bytes: 0, entryCount: 0, incomplete: false });
    symlinkSync(workspace, join(workspace, "link"));
    expect(await measure(join(workspace, "link"))).toEqual({ bytes: 0, entryCount: 0, incomplete: false });
  });
});

/** The pids of this process's workspace meters. */
function meterPids(): number[] {
  return readdirSync("/proc")
    .filter((name) => {
      if (!/^\d+$/.test(name)) return false;
      try {
        const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]!.split(" ");
        return (
          Number(fields[1]) === process.pid &&
          readFileSync(`/proc/${name}/cmdline`, "utf8").includes("workspace_meter.py")
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("the workspace meter", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  const tree = (files: number): string => {
    const root = mkdtempSync(join(tmpdir(), "workspace-meter-"));
    roots.push(root);
    for (let index = 0; index < files; index += 1) {
      mkdirSync(join(root, `d${index % 7}`), { recursive: true });
      writeFileSync(join(root, `d${index % 7}`, `f${index}`), Buffer.alloc(index * 37));
    }
    return root;
  };

  it("gives what the in-process walk gives", async () => {
    const root = tree(300);
    const inMeter = await measureInMeter(PYTHON, root, 200_000);
    expect(inMeter).toEqual(await walkWorkspace(root));
    expect(inMeter.entryCount).toBe(307);
  });

  it("lets a small walk finish while a large one takes turns", async () => {
    const large = tree(3_000);
    const small = tree(5);
    await measureInMeter(PYTHON, small, 200_000); // started
    const [meter] = meterPids();
    // Both requests wait in the meter's input before it walks, however loaded the machine is.
    process.kill(meter!, "SIGSTOP");
    const finished: string[] = [];
    const walks = Promise.all([
      measureInMeter(PYTHON, large, 200_000).then(() => finished.push("large")),
      measureInMeter(PYTHON, small, 200_000).then(() => finished.push("small")),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(meter!, "SIGCONT");
    await walks;
    expect(finished).toEqual(["small", "large"]);
  });

  it("fails the walks in flight when it dies, and measureWorkspace then walks in-process", async () => {
    const root = tree(3_000);
    await measureInMeter(PYTHON, root, 200_000); // started
    const meters = meterPids();
    expect(meters).toHaveLength(1);
    // Stopped first, so that the walks are still in flight when it dies however loaded the machine is.
    process.kill(meters[0]!, "SIGSTOP");
    const inFlight = measureInMeter(PYTHON, root, 200_000);
    const measured = measureWorkspace(root);
    process.kill(meters[0]!, "SIGKILL");
    await expect(inFlight).rejects.toThrow(/workspace meter exited/);
    expect(await measured).toEqual(await walkWorkspace(root));
    // No new meter for a while: the next measurement walks in-process at once.
    await expect(measureInMeter(PYTHON, root, 10)).rejects.toThrow(/failed recently/);
    stopWorkspaceMeters();
  });

  it("is dropped when it writes a line that is not JSON, and measureWorkspace then walks in-process", async () => {
    const root = tree(3);
    const fake = join(root, "fake-python");
    writeFileSync(fake, "#!/bin/sh\necho 'not json'\nsleep 5\n", { mode: 0o755 });
    await expect(measureInMeter(fake, root, 10)).rejects.toThrow(/not JSON: not json/);
    stopWorkspaceMeters();
    const measured = await measureWorkspace(root, 200_000, fake);
    expect(measured).toEqual(await walkWorkspace(root));
    stopWorkspaceMeters();
  });

  it("answers a bad request with an error, and measureWorkspace then walks in-process", async () => {
    await expect(measureInMeter(PYTHON, "relative/path", 10)).rejects.toThrow(/absolute 'path'/);
    const root = tree(3);
    expect(await measureWorkspace(root, 200_000, "/nonexistent/python3")).toEqual(await walkWorkspace(root));
  });
});
