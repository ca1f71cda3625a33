import { beforeAll, describe, expect, it } from "vitest";
import type { TaskDefinition } from "../src/envs/index.js";
import { loadSuite } from "../src/suite/index.js";
import {
  DEFAULT_ROLLOUT_LIMITS,
  createRolloutService,
  type RolloutLimits,
  type RolloutService,
} from "../src/train/index.js";
import {
  ROLLOUT_TASK_ID as TASK_ID,
  call,
  endEpisodes,
  startRolloutServe,
  stopRolloutServe,
} from "./helpers/rollout-serve.js";

// attacks.md "Second review": what a client or a degenerate policy can make the rollout service hold.

describe("B5 --max-episodes is exact under concurrency", () => {
  const burst = async (args: string[], mode: string): Promise<void> => {
    const service = await startRolloutServe(["--max-episodes", "2", ...args]);
    try {
      // Every create is sent before any is answered: each passes the capacity check while the others load
      // their task, which gave 16 live episodes when the place was taken only after that await.
      const answers = await Promise.all(
        Array.from({ length: 16 }, () =>
          call(service.url, "POST", "/v1/episodes", { task: TASK_ID, scale: "v0", mode }, 120_000),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, 201, ...Array.from({ length: 14 }, () => 429)]);
      expect((await call(service.url, "GET", "/healthz")).body.live).toBe(2);
      const ids = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.episode_id);
      await endEpisodes(service.url, ids);
      // The places are given back: the next create succeeds.
      const next = await call(service.url, "POST", "/v1/episodes", { task: TASK_ID, scale: "v0", mode });
      expect(next.status).toBe(201);
      // A creation that fails (an unknown task) gives its place back too.
      for (let attempt = 0; attempt < 3; attempt += 1)
        expect(
          (await call(service.url, "POST", "/v1/episodes", { task: "x.y", scale: "v0", mode })).status,
        ).toBe(404);
      await endEpisodes(service.url, [next.body.episode_id]);
    } finally {
      await stopRolloutServe(service.child);
    }
  };

  it("16 concurrent creates with a limit of 2 give 2 episodes and 14 refusals (no warm kernels)", async () => {
    await burst([], "dtc");
  }, 180_000);

  it("16 concurrent creates with a limit of 2 give 2 episodes and 14 refusals (2 warm kernels)", async () => {
    await burst(["--warm-kernels", "2"], "ptc");
  }, 180_000);
});

describe("B4 memory is bounded per episode and in total", () => {
  let task: TaskDefinition;
  beforeAll(async () => {
    task = (await loadSuite(TASK_ID)).find((candidate) => candidate.id === TASK_ID)!;
  });
  const serviceWith = (limits: Partial<RolloutLimits> = {}): RolloutService =>
    createRolloutService({ loadTask: async () => task, maxEpisodes: 4, limits });
  const open = async (service: RolloutService): Promise<string> =>
    String((await service.create({ task: TASK_ID, scale: "v0", mode: "dtc" })).episode_id);
  /** A completion with no tool call the parser can close: a parse error, so the episode goes on. */
  const unclosed = (fillerBytes: number): string =>
    `${"x".repeat(fillerBytes)}\n<tool_call>\n{"name": "list_files"`;

  it("ends an episode whose 15 MiB completions with an unclosed <tool_call> pass its history limit, with reward 0", async () => {
    const service = serviceWith();
    try {
      // The review's reproduction: repeated, these never ended the episode and exhausted the heap (~290 requests).
      const ids = [await open(service), await open(service)];
      for (const id of ids) {
        const answer = await service.completion(id, { text: unclosed(15 * 1024 * 1024) });
        expect(answer).toMatchObject({ done: true, reward: 0, end_reason: "max_history_bytes" });
        expect(service.describe(id)).toMatchObject({
          done: true,
          reward: 0,
          end_reason: "max_history_bytes",
        });
        // Ended: every later step answers its end, and nothing of it is kept.
        expect(await service.completion(id, { text: unclosed(15 * 1024 * 1024) })).toMatchObject({
          done: true,
          end_reason: "max_history_bytes",
        });
      }
      expect(service.historyBytes).toBeLessThan(DEFAULT_ROLLOUT_LIMITS.maxHistoryBytes);
    } finally {
      await service.dispose();
    }
  }, 120_000);

  it("counts turns that only produce parse errors: the turn after --max-turns ends the episode", async () => {
    const service = serviceWith({ maxTurns: 3 });
    try {
      const id = await open(service);
      for (let turn = 1; turn <= 3; turn += 1) {
        const answer = await service.completion(id, { text: unclosed(10) });
        expect(answer.done).toBe(false);
        expect(answer.parse_errors?.[0]).toMatch(/not closed/);
      }
      expect(await service.completion(id, { text: unclosed(10) })).toMatchObject({
        done: true,
        reward: 0,
        end_reason: "max_turns",
      });
      // tool_calls turns count the same way.
      const other = await open(service);
      for (let turn = 1; turn <= 3; turn += 1)
        expect((await service.toolCalls(other, { calls: [{ name: "list_files" }] })).done).toBe(false);
      expect(await service.toolCalls(other, { calls: [{ name: "list_files" }] })).toMatchObject({
        done: true,
        end_reason: "max_turns",
      });
    } finally {
      await service.dispose();
    }
  }, 120_000);

  it("ends the episode whose turn would pass the total history budget, and frees what ended episodes held", async () => {
    const mebibyte = 1024 * 1024;
    const service = serviceWith({ maxHistoryBytes: mebibyte, maxTotalHistoryBytes: 1.5 * mebibyte });
    try {
      const first = await open(service);
      const second = await open(service);
      expect((await service.completion(first, { text: unclosed(0.9 * mebibyte) })).done).toBe(false);
      expect(await service.completion(second, { text: unclosed(0.9 * mebibyte) })).toMatchObject({
        done: true,
        reward: 0,
        end_reason: "history_budget",
      });
      expect(service.historyBytes).toBeLessThanOrEqual(1.5 * mebibyte);
      await service.remove(first);
      const third = await open(service);
      expect((await service.completion(third, { text: unclosed(0.9 * mebibyte) })).done).toBe(false);
    } finally {
      await service.dispose();
    }
  }, 120_000);
});
