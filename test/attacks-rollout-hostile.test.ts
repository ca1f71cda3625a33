import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ROLLOUT_TASK_ID as TASK_ID,
  call,
  createEpisode,
  endEpisodes,
  startRolloutServe,
  stopRolloutServe,
  type RolloutServe,
} from "./helpers/rollout-serve.js";

// What a half-trained policy (or a hostile client) sends the rollout service: attacks.md "Second review",
// rows B1-B6 and H2/H4. Each case keeps its reproduction; the hostile request must cost only itself.

describe("rollout serve under hostile input", () => {
  let service: RolloutServe;
  beforeAll(async () => {
    service = await startRolloutServe(["--max-episodes", "8"]);
  }, 90_000);
  afterAll(async () => {
    if (service) await stopRolloutServe(service.child);
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
