import { describe, expect, it } from "vitest";
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
