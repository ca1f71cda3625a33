/**
 * npm run bench:rollout -- drives `progagent rollout serve` over HTTP the way an RL trainer does: one step of
 * the paper (32 tasks x 16 rollouts = 512 concurrent episodes), each the task's oracle as a multi-turn
 * conversation through /completion with token ids (hermes tool calls encoded with the Qwen3 tokenizer),
 * first under PTC, then under DTC (the oracle's recorded direct calls). One rollout in 16 does no work and
 * claims a wrong answer (the null agent) and must get reward 0; every other must get 1.
 *
 * Then the "hostile neighbour" rows (bench/rollout-hostile.ts): what the worst client of attacks.md's second
 * review costs ordinary episodes beside it.
 *
 * Options: --tasks <n> (default 32), --rollouts <n> (default 16), --scale v0, --modes ptc,dtc,hostile, --steps <n>
 * (default 1: trainer steps, each every mode once, its number sent as `step`), --record <dir> (the service
 * records every episode there: `progagent view <dir>` plots them by step), --neighbours <n> (episodes beside the
 * hostile client, default 512), --hostile-steps <n> (steps of the hostile rows, each printed, default 5)
 */
import { spawn } from "node:child_process";
import { createChatRenderer } from "../src/chat-template/index.js";
import { recordOracle, type OracleRecording } from "../src/harness/index.js";
import { loadSuite } from "../src/suite/index.js";
import { descendants, processTable } from "./proc.js";
import { benchHostileNeighbour } from "./rollout-hostile.js";
import type { Scale, TaskDefinition } from "../src/envs/index.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const TASKS = Number(option("tasks", "32"));
const ROLLOUTS = Number(option("rollouts", "16"));
const SCALE = option("scale", "v0") as Scale;
const MODES = option("modes", "ptc,dtc,hostile").split(",");
const EPISODE_MODES = MODES.filter((mode): mode is "ptc" | "dtc" => mode === "ptc" || mode === "dtc");
const NEIGHBOURS = Number(option("neighbours", "512"));
const STEPS = Number(option("steps", "1"));
const HOSTILE_STEPS = Number(option("hostile-steps", "5"));
const RECORD = option("record", "");
/** The service requires this token, so that the hostile client's unauthenticated requests are refused (B6). */
const TOKEN = "bench-rollout-token";

const renderer = createChatRenderer();
const encodeCache = new Map<string, number[]>();
const encode = (text: string): number[] => {
  let ids = encodeCache.get(text);
  if (!ids) {
    ids = renderer.encode(text);
    encodeCache.set(text, ids);
  }
  return ids;
};
const toolCallText = (name: string, args: unknown): string =>
  `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call><|im_end|>`;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** RSS of a process and all its descendants (kernels included), in bytes. */
function treeRss(root: number): number {
  const table = processTable();
  return (
    (table.get(root)?.rssBytes ?? 0) + descendants(root, table).reduce((sum, info) => sum + info.rssBytes, 0)
  );
}

async function startService(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/cli/main.ts",
      "rollout",
      "serve",
      "--port",
      "0",
      "--max-episodes",
      "2048",
      "--idle-timeout",
      "900",
      "--auth-token-env",
      "BENCH_ROLLOUT_TOKEN",
      ...(RECORD ? ["--record", RECORD] : []),
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, BENCH_ROLLOUT_TOKEN: TOKEN } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`the service did not start in 60 s: ${text}`)), 60_000);
    child.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /rollout service at (http:\/\/\S+)/.exec(text);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`the service exited (${code}): ${text}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Answers of the service, read loosely: the bench checks the fields it needs. */
interface Answer {
  episode_id: string;
  done: boolean;
  reward?: number;
  results: Array<{ content: string }>;
}

async function post(url: string, body: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  const value = (await response.json()) as Answer;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(value)}`);
  return value;
}

interface ModeResult {
  mode: string;
  episodes: number;
  seconds: number;
  openSeconds: number;
  steps: number[];
  rssBytes: number;
  rewardsOk: number;
  wrongOk: number;
  wrongTotal: number;
  failures: string[];
}

async function runMode(
  service: { url: string; pid: number },
  tasks: TaskDefinition[],
  mode: "ptc" | "dtc",
  recordings: Map<string, OracleRecording>,
  step: number,
): Promise<ModeResult> {
  const steps: number[] = [];
  const failures: string[] = [];
  let rewardsOk = 0;
  let wrongOk = 0;
  let wrongTotal = 0;
  let peakRss = 0;
  const started = performance.now();
  const slots = tasks.flatMap((task) =>
    Array.from({ length: ROLLOUTS }, (_, rollout) => ({ task, rollout })),
  );
  // Open all episodes at once (the trainer's step), then run them concurrently.
  const created = await Promise.all(
    slots.map(async ({ task }) =>
      post(`${service.url}/v1/episodes`, { task: task.id, scale: SCALE, seed: 0, mode, render: {}, step }),
    ),
  );
  const openSeconds = (performance.now() - started) / 1000;
  peakRss = treeRss(service.pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss(service.pid))), 1000);
  await Promise.all(
    slots.map(async ({ task, rollout }, index) => {
      const id = created[index]!.episode_id;
      const wrong = rollout === ROLLOUTS - 1;
      const step = async (text: string): Promise<Answer> => {
        const stepStarted = performance.now();
        const answer = await post(`${service.url}/v1/episodes/${id}/completion`, { token_ids: encode(text) });
        steps.push(performance.now() - stepStarted);
        return answer;
      };
      try {
        let lastOutput = "";
        if (wrong) {
          // A rollout that does no work and claims a wrong answer: the null agent, which every task's gates
          // hold at reward 0 (write tasks ignore a wrong answer only when the state is right).
        } else if (mode === "ptc") {
          for (const cell of task.oracle) {
            const answer = await step(toolCallText("programmatic_tool_call", { code: cell }));
            lastOutput = answer.results[0]?.content ?? "";
          }
        } else {
          for (const call of recordings.get(task.id)!.directCalls)
            await step(toolCallText(call.name, call.args));
          lastOutput = recordings.get(task.id)!.answer;
        }
        const answerText = wrong
          ? "a wrong answer"
          : lastOutput.trim() === "(no output)"
            ? ""
            : lastOutput.trim();
        const final = await step(toolCallText("claim_done", { answer: answerText }));
        if (!final.done) failures.push(`${task.id}: not done after claim_done`);
        if (wrong) {
          wrongTotal += 1;
          if (final.reward === 0) wrongOk += 1;
          else failures.push(`${task.id}: wrong answer got reward ${final.reward}`);
        } else if (final.reward === 1) rewardsOk += 1;
        else failures.push(`${task.id}: oracle got reward ${final.reward}`);
      } catch (error) {
        failures.push(`${task.id}: ${(error as Error).message.slice(0, 200)}`);
      } finally {
        await fetch(`${service.url}/v1/episodes/${id}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${TOKEN}` },
        }).catch(() => undefined);
      }
    }),
  );
  clearInterval(sampler);
  return {
    mode,
    episodes: slots.length,
    seconds: (performance.now() - started) / 1000,
    openSeconds,
    steps,
    rssBytes: peakRss,
    rewardsOk,
    wrongOk,
    wrongTotal,
    failures,
  };
}

const all = await loadSuite("*");
const tasks = Array.from({ length: TASKS }, (_, index) => all[index % all.length]!);
const recordings = new Map<string, OracleRecording>();
if (EPISODE_MODES.includes("dtc"))
  for (const task of new Set(tasks)) recordings.set(task.id, await recordOracle(task, SCALE, 0));
const service = await startService();
const results: ModeResult[] = [];
const hostileLines: string[] = [];
try {
  for (let step = 0; step < STEPS; step += 1)
    for (const mode of EPISODE_MODES) results.push(await runMode(service, tasks, mode, recordings, step));
  if (MODES.includes("hostile"))
    hostileLines.push(
      ...(await benchHostileNeighbour(
        { url: service.url, token: TOKEN },
        { neighbours: NEIGHBOURS, steps: HOSTILE_STEPS, stepsPerAttack: 20 },
      )),
    );
} finally {
  await service.stop();
}

console.log(
  `\nbench:rollout — ${TASKS} tasks x ${ROLLOUTS} rollouts at ${SCALE}, token ids through /completion\n`,
);
console.log(
  "| mode | episodes | open all (s) | total (s) | episodes/s | steps | step p50 / p95 / p99 (ms) | peak RSS (service + kernels) | per episode | rewards ok | wrong answers -> 0 |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const result of results) {
  console.log(
    `| ${result.mode} | ${result.episodes} | ${result.openSeconds.toFixed(1)} | ${result.seconds.toFixed(1)} | ${(result.episodes / result.seconds).toFixed(1)} | ${result.steps.length} | ${percentile(result.steps, 50).toFixed(1)} / ${percentile(result.steps, 95).toFixed(1)} / ${percentile(result.steps, 99).toFixed(1)} | ${(result.rssBytes / 2 ** 30).toFixed(2)} GiB | ${(result.rssBytes / result.episodes / 2 ** 20).toFixed(1)} MiB | ${result.rewardsOk}/${result.episodes - result.wrongTotal} | ${result.wrongOk}/${result.wrongTotal} |`,
  );
}
for (const line of hostileLines) console.log(line);
const failures = results.flatMap((result) => result.failures.map((failure) => `${result.mode}: ${failure}`));
if (failures.length > 0) {
  console.log(`\n${failures.length} failures:\n${failures.slice(0, 20).join("\n")}`);
  process.exitCode = 1;
}
