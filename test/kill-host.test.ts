import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sweepStaleTempDirs } from "../src/core/index.js";
import { waitForKernelRootCount, waitForProcessCount } from "./helpers/processes.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("when the host process is killed", () => {
  it("its kernels die with it and the next process sweeps its temp directories", async () => {
    const root = mkdtempSync(join(tmpdir(), "progagent-kill-test-"));
    chmodSync(root, 0o711);
    const script = [
      `import { createKernel } from ${JSON.stringify(join(projectRoot, "src/kernel/index.ts"))};`,
      "const kernel = createKernel();",
      "await kernel.execute(\"import subprocess\\nsubprocess.Popen(['sleep', '317.5'])\");",
      "process.stdout.write(kernel.workspaceDir + '\\n');",
      "setInterval(() => undefined, 1000);",
    ].join("\n");
    const host = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: projectRoot,
      env: { ...process.env, TMPDIR: root },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const workspace = await new Promise<string>((done) =>
      host.stdout.once("data", (chunk: Buffer) => done(chunk.toString().trim())),
    );
    // The kernel's own directory (parent of its workspace and of the mount stage) is in bwrap's arguments (in a
    // template-launched kernel's mounts).
    const kernelDir = dirname(dirname(workspace));
    expect(await waitForKernelRootCount(kernelDir, 1)).toBe(1);
    expect(await waitForProcessCount("sleep 317.5", 1)).toBe(1);
    host.kill("SIGKILL");
    await new Promise((done) => host.once("exit", done));
    await new Promise((done) => setTimeout(done, 500));
    expect(await waitForKernelRootCount(kernelDir, 0)).toBe(0);
    expect(await waitForProcessCount("sleep 317.5", 0)).toBe(0);
    expect(existsSync(workspace)).toBe(true);
    expect(sweepStaleTempDirs(root)).toBeGreaterThan(0);
    expect(readdirSync(root).filter((entry) => entry.startsWith("progagent-"))).toEqual([]);
    rmSync(root, { recursive: true, force: true });
  });
});
