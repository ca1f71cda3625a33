import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { waitForRolloutUrl } from "./processes.js";

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** A DTC-capable task with a cheap v0 instance. */
export const ROLLOUT_TASK_ID = "retail.apply-supplier-recall";

export interface RolloutServe {
  child: ChildProcess;
  url: string;
}

/** `rollout serve` in its own process, so a frozen event loop shows as a late answer rather than a frozen test. */
export async function startRolloutServe(args: string[] = []): Promise<RolloutServe> {
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

/** SIGTERM, then SIGKILL after 10 s; the exit code (null when killed). */
export async function stopRolloutServe(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read untyped JSON answers
  body: any;
  /** When the answer arrived (performance.now()). */
  at: number;
}

/** One JSON request; a string body is sent as is. */
export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 30_000,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(new URL(path, url), {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
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

/** Opens an episode of the test task; fails the test on anything but 201. */
export async function createEpisode(
  url: string,
  mode = "dtc",
  extra: Record<string, unknown> = {},
): Promise<string> {
  const created = await call(url, "POST", "/v1/episodes", {
    task: ROLLOUT_TASK_ID,
    scale: "v0",
    mode,
    ...extra,
  });
  if (created.status !== 201)
    throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  return String(created.body.episode_id);
}

export async function endEpisodes(url: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) await call(url, "DELETE", `/v1/episodes/${id}`);
}
