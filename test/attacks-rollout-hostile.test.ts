import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ROLLOUT_TASK_ID as TASK_ID,
  call,
  createEpisode,
  endEpisodes,
  startRolloutServe,
  stopRolloutServe,
  type Answer,
  type RolloutServe,
} from "./helpers/rollout-serve.js";

// What a half-trained policy (or a hostile client) sends the rollout service: attacks.md "Second review",
// rows B1-B6 and H2/H4. Each case keeps its reproduction; the hostile request must cost only itself.

/** One ordinary DTC step of an episode (a tool call with no kernel): what a neighbour does. */
function stepOf(url: string, id: string, timeoutMs = 60_000): Promise<Answer> {
  return call(
    url,
    "POST",
    `/v1/episodes/${id}/tool_calls`,
    { calls: [{ name: "list_files", arguments: {} }] },
    timeoutMs,
  );
}

/** A gauge of the service's /metrics (undefined when it has none). */
async function gauge(url: string, sample: string): Promise<number | undefined> {
  const metrics = await call(url, "GET", "/metrics", undefined, 60_000);
  const line = String(metrics.body)
    .split("\n")
    .find((candidate) => candidate.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

/** Polls until the service reports a tokenizer job running (a frozen event loop answers no poll in time). */
async function untilTokenizing(url: string, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (((await gauge(url, 'progagent_rollout_tokenizer_jobs{state="running"}')) ?? 0) > 0) return;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error(`no tokenizer job was seen running within ${deadlineMs / 1000} s`);
}

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

  describe("B3 tokenising is size-capped and off the event loop", () => {
    it("refuses /v1/tokenize text over the cap with 413 naming the flag", async () => {
      const over = await call(
        service.url,
        "POST",
        "/v1/tokenize",
        { text: "a".repeat(256 * 1024 + 1) },
        120_000,
      );
      expect(over.status).toBe(413);
      expect(over.body.error.message).toMatch(/--max-tokenize-chars/);
    }, 150_000);

    it("answers another episode's step while 128 KiB of one letter is being tokenised", async () => {
      const neighbour = await createEpisode(service.url);
      // One pre-tokenised word of 128 Ki letters costs seconds of BPE; on the event loop it held every episode.
      let hostileAnswer: Answer | undefined;
      const hostile = call(
        service.url,
        "POST",
        "/v1/tokenize",
        { text: "a".repeat(256 * 1024) },
        240_000,
      ).then((answer) => (hostileAnswer = answer));
      await untilTokenizing(service.url);
      const step = await stepOf(service.url, neighbour);
      expect(step.status).toBe(200);
      // The step was answered while the tokenizer was still at work on the hostile text.
      expect(hostileAnswer).toBeUndefined();
      const tokenized = await hostile;
      expect(tokenized.status).toBe(200);
      expect(tokenized.body.token_ids.length).toBeGreaterThan(1000);
      await endEpisodes(service.url, [neighbour]);
    }, 300_000);

    it("renders a rendered episode's observation in the threads, from the completion's end, never re-tokenising its text", async () => {
      const hostile = await createEpisode(service.url, "ptc", { render: {} });
      const neighbour = await createEpisode(service.url);
      // 1 MiB of one letter before a tool call: the text was re-tokenised on the event loop (45 ms per KiB).
      const call8 = (code: string): string =>
        `<tool_call>\n${JSON.stringify({ name: "programmatic_tool_call", arguments: { code } })}\n</tool_call>`;
      const text = `${"a".repeat(1024 * 1024)}${call8("print(1)")}<|im_end|>`;
      const first = await call(service.url, "POST", `/v1/episodes/${hostile}/completion`, { text }, 240_000);
      expect(first.status).toBe(200);
      // From the text's end: the template's separator after <|im_end|>, the tool response, the next prompt.
      const observation = await call(service.url, "POST", "/v1/detokenize", {
        token_ids: first.body.observation_token_ids,
      });
      expect(observation.body.text).toMatch(
        /^\n<\|im_start\|>user\n<tool_response>\n1\n[^]*<\|im_start\|>assistant\n$/,
      );
      // The worst observation: 8 programs each printing 50,000 of one letter (the output cap), all tokenised.
      let hostileAnswer: Answer | undefined;
      const flood = call(
        service.url,
        "POST",
        `/v1/episodes/${hostile}/completion`,
        { text: `${Array.from({ length: 8 }, () => call8("print('a' * 50_000)")).join("\n")}<|im_end|>` },
        240_000,
      ).then((answer) => (hostileAnswer = answer));
      await untilTokenizing(service.url);
      const step = await stepOf(service.url, neighbour);
      expect(step.status).toBe(200);
      expect(hostileAnswer).toBeUndefined();
      const answered = await flood;
      expect(answered.status).toBe(200);
      expect(answered.body.observation_token_ids.length).toBeGreaterThan(8 * 1000);
      await endEpisodes(service.url, [hostile, neighbour]);
    }, 300_000);
  });
});
