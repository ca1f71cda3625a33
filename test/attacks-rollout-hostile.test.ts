import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForRolloutUrl } from "./helpers/processes.js";

// What a half-trained policy (or a hostile client) sends the rollout service: attacks.md "Second review",
// rows B1-B6 and H2/H4. Each case keeps its reproduction; the hostile request must cost only itself.

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TASK_ID = "retail.apply-supplier-recall";

/** `rollout serve` in its own process, so a frozen event loop shows as a late answer rather than a frozen test. */
async function startService(args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli/main.ts", "rollout", "serve", "--port", "0", ...args],
    { cwd: projectRoot, stdio: ["ignore", "ignore", "pipe"] },
  );
  const url = await waitForRolloutUrl(child, 60_000).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw error;
  });
  return { child, url };
}

async function stopService(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read untyped JSON answers
  body: any;
  /** When the answer arrived (performance.now()). */
  at: number;
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<Answer> {
  const response = await fetch(new URL(path, url), {
    method,
    ...(body === undefined
      ? {}
      : {
          headers: { "content-type": "application/json" },
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a text answer
  }
  return { status: response.status, body: parsed, at: performance.now() };
}

async function createEpisode(url: string, mode = "dtc"): Promise<string> {
  const created = await call(url, "POST", "/v1/episodes", { task: TASK_ID, scale: "v0", mode });
  expect(created.status).toBe(201);
  return String(created.body.episode_id);
}

async function endEpisodes(url: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) await call(url, "DELETE", `/v1/episodes/${id}`);
}

describe("rollout serve under hostile input", () => {
  let service: { child: ChildProcess; url: string };
  beforeAll(async () => {
    service = await startService(["--max-episodes", "8"]);
  }, 90_000);
  afterAll(async () => {
    if (service) await stopService(service.child);
  });

  describe("B1 a task id is matched exactly, never as a glob", () => {
    it("answers 404 to a catastrophic glob at once, serves others meanwhile, and still stops on SIGTERM", async () => {
      // As a regex, `^.*\..*.*.*...Q$` backtracks for minutes over every task id.
      const hostile = call(service.url, "POST", "/v1/episodes", {
        task: "*.**************Q",
        scale: "v0",
        mode: "dtc",
      });
      const neighbour = await call(service.url, "GET", "/healthz", undefined, 20_000);
      expect(neighbour.status).toBe(200);
      const refused = await hostile;
      expect(refused.status).toBe(404);
      expect(refused.body.error.message).toMatch(/unknown task/);
      const glob = await call(service.url, "POST", "/v1/episodes", {
        task: "retail.*",
        scale: "v0",
        mode: "dtc",
      });
      expect(glob.status).toBe(404);
      const exact = await call(service.url, "POST", "/v1/episodes", {
        task: TASK_ID,
        scale: "v0",
        mode: "dtc",
      });
      expect(exact.status).toBe(201);
      await call(service.url, "DELETE", `/v1/episodes/${exact.body.episode_id}`);
    }, 60_000);
  });

  describe("B2 completion parsing is linear in its length", () => {
    it("parses 80,000 unclosed <parameter= tags while another episode's step completes", async () => {
      const hostile = await createEpisode(service.url);
      const neighbour = await createEpisode(service.url);
      const text = `<tool_call>\n<function=list_files>\n${"<parameter=a>".repeat(80_000)}\n</function>\n</tool_call>`;
      const flood = call(service.url, "POST", `/v1/episodes/${hostile}/completion`, { text }, 60_000);
      // Quadratic parsing held the event loop for minutes here (24-38 s on the review's machine).
      const step = await call(
        service.url,
        "POST",
        `/v1/episodes/${neighbour}/tool_calls`,
        { calls: [{ name: "list_files", arguments: {} }] },
        20_000,
      );
      expect(step.status).toBe(200);
      const parsed = await flood;
      expect(parsed.status).toBe(200);
      expect(parsed.body.parsed_calls).toMatchObject([{ name: "list_files", arguments: {} }]);
      await endEpisodes(service.url, [hostile, neighbour]);
    }, 90_000);
  });
});
