import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSuite } from "../src/suite/index.js";
import { createRolloutService } from "../src/train/index.js";
import { descendantCount, waitForProcessCount, waitForRolloutUrl } from "./helpers/processes.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TASK_ID = "retail.apply-supplier-recall";

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** Starts `rollout serve` on a free port with TMPDIR=root; resolves with its URL once stderr also matches `ready`. */
async function startService(
  root: string,
  args: string[],
  ready?: RegExp,
): Promise<{ service: ChildProcess; url: string }> {
  const service = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli/main.ts", "rollout", "serve", "--port", "0", ...args],
    { cwd: projectRoot, env: { ...process.env, TMPDIR: root }, stdio: ["ignore", "ignore", "pipe"] },
  );
  const url = await waitForRolloutUrl(service, 60_000, ready).catch((error: unknown) => {
    service.kill("SIGKILL");
    throw error;
  });
  return { service, url };
}

/** SIGTERM, then: exit code 0, no process naming `root` left, no progagent directory left in it. */
async function expectCleanStop(service: ChildProcess, root: string): Promise<void> {
  service.kill("SIGTERM");
  const code = await new Promise<number | null>((done) => service.once("exit", (exitCode) => done(exitCode)));
  expect(code).toBe(0);
  expect(await waitForProcessCount(root, 0, 10_000)).toBe(0);
  expect(readdirSync(root).filter((entry) => entry.startsWith("progagent-"))).toEqual([]);
}

describe("rollout serve's lifecycle", () => {
  it("SIGTERM ends every kernel and leaves no temp directory", async () => {
    const root = mkdtempSync(join(tmpdir(), "progagent-rollout-term-"));
    chmodSync(root, 0o711);
    const { service, url } = await startService(root, []);
    try {
      for (let index = 0; index < 3; index += 1) {
        const created = await post(`${url}/v1/episodes`, { task: TASK_ID, scale: "v0", mode: "ptc" });
        const step = await post(`${url}/v1/episodes/${String(created.episode_id)}/tool_calls`, {
          calls: [
            {
              name: "programmatic_tool_call",
              arguments: { code: "import subprocess\nsubprocess.Popen(['sleep', '417.5'])\nprint('up')" },
            },
          ],
        });
        expect(JSON.stringify(step)).toContain("up");
      }
      expect(await waitForProcessCount("sleep 417.5", 3)).toBe(3);
      expect(await waitForProcessCount(root, 3, 10_000)).toBeGreaterThanOrEqual(3);
      await expectCleanStop(service, root);
      expect(await waitForProcessCount("sleep 417.5", 0, 10_000)).toBe(0);
    } finally {
      if (service.exitCode === null) service.kill("SIGKILL");
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);

  it("with --warm-kernels, episodes take kernels started ahead, the pool refills after the burst, SIGTERM ends all", async () => {
    const root = mkdtempSync(join(tmpdir(), "progagent-rollout-warm-"));
    chmodSync(root, 0o711);
    const kernelDirs = (): string[] =>
      readdirSync(root)
        .filter((entry) => /^progagent-\d+-kernel-/.test(entry))
        .sort();
    const waitForKernelDirs = async (count: number): Promise<string[]> => {
      const deadline = Date.now() + 60_000;
      while (kernelDirs().length !== count && Date.now() < deadline)
        await new Promise((done) => setTimeout(done, 50));
      return kernelDirs();
    };
    const { service, url } = await startService(root, ["--warm-kernels", "2"], /2 warm kernels ready/);
    try {
      const warm = kernelDirs();
      expect(warm).toHaveLength(2);
      const ids: string[] = [];
      for (let index = 0; index < 2; index += 1) {
        const created = await post(`${url}/v1/episodes`, { task: TASK_ID, scale: "v0", mode: "ptc" });
        ids.push(String(created.episode_id));
        const step = await post(`${url}/v1/episodes/${ids[index]}/tool_calls`, {
          calls: [{ name: "programmatic_tool_call", arguments: { code: "print('up')" } }],
        });
        expect(JSON.stringify(step)).toContain("up");
      }
      // Creation paused: the pool refills to 2 beside the 2 kernels the episodes hold.
      expect(await waitForKernelDirs(4)).toHaveLength(4);
      for (const id of ids) await fetch(`${url}/v1/episodes/${id}`, { method: "DELETE" });
      // The episodes' kernels were the warm ones: what is left are the 2 started after the burst.
      const left = await waitForKernelDirs(2);
      expect(left).toHaveLength(2);
      expect(left.filter((dir) => warm.includes(dir))).toEqual([]);
      await expectCleanStop(service, root);
    } finally {
      if (service.exitCode === null) service.kill("SIGKILL");
      rmSync(root, { recursive: true, force: true });
    }
  }, 180_000);

  it("runs 1,000 sequential episodes without growth in descriptors, children, temp dirs or heap", async () => {
    const task = (await loadSuite(TASK_ID)).find((candidate) => candidate.id === TASK_ID)!;
    // A private TMPDIR: other processes on the machine create and remove their own temp dirs meanwhile.
    const root = mkdtempSync(join(tmpdir(), "progagent-rollout-seq-"));
    chmodSync(root, 0o711);
    const previousTmp = process.env.TMPDIR;
    process.env.TMPDIR = root;
    const service = createRolloutService({ loadTask: async () => task, maxEpisodes: 4 });
    const openFds = (): number => readdirSync("/proc/self/fd").length;
    const temp = (): number => readdirSync(root).length;
    const episode = async (index: number): Promise<void> => {
      // Every tenth a PTC episode with a kernel (a program and a tool call), the rest DTC: both paths released.
      const mode = index % 10 === 0 ? "ptc" : "dtc";
      const created = await service.create({ task: TASK_ID, scale: "v0", mode });
      const id = String(created.episode_id);
      if (mode === "ptc")
        await service.toolCalls(id, {
          calls: [{ name: "programmatic_tool_call", arguments: { code: "print(len(tools))" } }],
        });
      else await service.toolCalls(id, { calls: [{ name: "list_files", arguments: {} }] });
      await service.remove(id);
    };
    try {
      for (let index = 0; index < 50; index += 1) await episode(index);
      global.gc?.();
      const before = {
        fds: openFds(),
        temp: temp(),
        heap: process.memoryUsage().heapUsed,
        children: descendantCount(),
      };
      for (let index = 0; index < 1_000; index += 1) await episode(index);
      global.gc?.();
      let children = descendantCount();
      for (let wait = 0; wait < 100 && children > before.children; wait += 1) {
        await new Promise((done) => setTimeout(done, 50));
        children = descendantCount();
      }
      const after = { fds: openFds(), temp: temp(), heap: process.memoryUsage().heapUsed, children };
      expect(service.stats.live).toBe(0);
      expect(after.fds - before.fds).toBeLessThanOrEqual(2);
      expect(after.temp).toBeLessThanOrEqual(before.temp);
      // Without gc exposed the heap is noisy; a leak of one episode's state (~MBs) per episode would be GBs.
      expect(after.heap - before.heap).toBeLessThan(200 * 1024 * 1024);
      expect(after.children).toBeLessThanOrEqual(before.children);
    } finally {
      await service.dispose();
      if (previousTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmp;
      rmSync(root, { recursive: true, force: true });
    }
  }, 900_000);
});

describe("rollout serve's flags", () => {
  const serve = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "rollout", "serve", ...args], {
      cwd: projectRoot,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, PROGAGENT_TEST_UNSET_TOKEN: "" },
    });

  it("refuses a bad port, an unset token variable, a folder that is no tokenizer and more warm kernels than episodes, each in one line with exit 2", () => {
    const badPort = serve("--port", "99999");
    expect(badPort.status).toBe(2);
    expect(badPort.stderr.trim()).toBe(
      "progagent: --port expects a non-negative integer <= 65535, got '99999' [INVALID_ARGUMENT]",
    );
    const unset = serve("--port", "0", "--auth-token-env", "PROGAGENT_TEST_UNSET_TOKEN");
    expect(unset.status).toBe(2);
    expect(unset.stderr.trim()).toBe(
      "progagent: --auth-token-env PROGAGENT_TEST_UNSET_TOKEN: that variable is not set or empty [INVALID_ARGUMENT]",
    );
    const notTokenizer = serve("--port", "0", "--tokenizer", projectRoot);
    expect(notTokenizer.status).toBe(2);
    expect(notTokenizer.stderr.trim().split("\n")).toHaveLength(1);
    expect(notTokenizer.stderr).toMatch(/is not a tokenizer folder: tokenizer\.json is missing/);
    const episodes = serve("--port", "0", "--max-episodes", "2.5");
    expect(episodes.status).toBe(2);
    expect(episodes.stderr).toMatch(/--max-episodes expects a positive integer, got '2.5'/);
    const warm = serve("--port", "0", "--max-episodes", "8", "--warm-kernels", "9");
    expect(warm.status).toBe(2);
    expect(warm.stderr.trim()).toBe(
      "progagent: --warm-kernels expects a non-negative integer <= 8, got '9' [INVALID_ARGUMENT]",
    );
  });
});
