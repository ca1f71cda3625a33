import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOraclePolicy, recordOracle, type ChatMessage } from "../src/harness/index.js";
import { loadSuite } from "../src/suite/index.js";
import { createRolloutService, type RolloutService } from "../src/train/rollout-service.js";
import { serveRolloutHttp, type RolloutHttpServer } from "../src/train/rollout-http.js";
import { startTokenizerWorkers } from "../src/train/rollout-tokenizer.js";
import type { TaskDefinition } from "../src/envs/index.js";

interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads untyped JSON answers
  body: any;
}

function http(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const target = new URL(path, url);
    const req = request(
      target,
      {
        method,
        headers: {
          ...(payload === undefined
            ? {}
            : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) }),
          ...headers,
        },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // text answer
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

const TASK_ID = "retail.apply-supplier-recall";
let task: TaskDefinition;
let service: RolloutService;
let server: RolloutHttpServer;

beforeAll(async () => {
  const tasks = await loadSuite(TASK_ID);
  task = tasks.find((candidate) => candidate.id === TASK_ID)!;
  service = createRolloutService({
    loadTask: async (id) => (await loadSuite(id)).find((candidate) => candidate.id === id),
    maxEpisodes: 3,
    limits: { idleTimeoutMs: 60_000 },
  });
  server = await serveRolloutHttp(service, { port: 0 });
});

afterAll(async () => {
  await server.close();
  await service.dispose();
});

/** Drives an episode with the oracle policy through /tool_calls, as a trainer with a parser of its own would. */
async function runOracle(mode: "ptc" | "dtc" | "hybrid", wrongAnswer = false): Promise<HttpAnswer> {
  const created = await http(server.url, "POST", "/v1/episodes", {
    task: TASK_ID,
    scale: "v0",
    seed: 0,
    mode,
  });
  expect(created.status).toBe(201);
  const id = created.body.episode_id as string;
  const recording = mode === "dtc" ? await recordOracle(task, "v0", 0) : undefined;
  const policy = createOraclePolicy(task, mode, recording);
  const messages: ChatMessage[] = [...created.body.messages];
  for (let turn = 0; turn < 200; turn += 1) {
    const { message } = await policy.complete({ messages, tools: created.body.tools, maxTokens: 4096 });
    messages.push(message);
    const calls = (message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments:
        wrongAnswer && call.function.name === "claim_done"
          ? { answer: "definitely wrong" }
          : call.function.arguments,
    }));
    const step = await http(server.url, "POST", `/v1/episodes/${id}/tool_calls`, { calls });
    expect(step.status).toBe(200);
    for (const result of step.body.results)
      messages.push({ role: "tool", tool_call_id: result.tool_call_id, content: result.content });
    if (step.body.done) {
      await http(server.url, "DELETE", `/v1/episodes/${id}`);
      return step;
    }
  }
  throw new Error("the oracle did not finish in 200 turns");
}

describe("rollout service over HTTP", () => {
  it("runs the oracle to reward 1 under PTC and DTC, and a wrong answer to 0", async () => {
    expect((await runOracle("ptc")).body).toMatchObject({ done: true, reward: 1, end_reason: "claim_done" });
    expect((await runOracle("dtc")).body).toMatchObject({ done: true, reward: 1 });
    expect((await runOracle("ptc", true)).body).toMatchObject({ done: true, reward: 0 });
    expect(service.stats.live).toBe(0);
  });

  it("parses raw completions (hermes JSON and XML), refuses direct calls in PTC and counts them", async () => {
    const created = await http(server.url, "POST", "/v1/episodes", {
      task: TASK_ID,
      scale: "v0",
      mode: "ptc",
    });
    const id = created.body.episode_id as string;
    const xml = await http(server.url, "POST", `/v1/episodes/${id}/completion`, {
      text: "<tool_call>\n<function=programmatic_tool_call>\n<parameter=code>\nx = 6 * 7\nprint(x)\n</parameter>\n</function>\n</tool_call><|im_end|>",
    });
    expect(xml.status).toBe(200);
    expect(xml.body.results[0].content).toContain("42");
    expect(xml.body.parsed_calls[0]).toMatchObject({ name: "programmatic_tool_call", format: "xml" });
    const persistent = await http(server.url, "POST", `/v1/episodes/${id}/completion`, {
      text: '<tool_call>\n{"name": "programmatic_tool_call", "arguments": {"code": "print(x + 1)"}}\n</tool_call>',
    });
    expect(persistent.body.results[0].content).toContain("43");
    const direct = await http(server.url, "POST", `/v1/episodes/${id}/tool_calls`, {
      calls: [{ name: task.tools[0], arguments: "{}" }],
    });
    expect(direct.body.results[0]).toMatchObject({ is_error: true });
    expect(direct.body.results[0].content).toMatch(/cannot be called directly/);
    const broken = await http(server.url, "POST", `/v1/episodes/${id}/completion`, {
      text: "<tool_call>\n{oops}\n</tool_call>",
    });
    expect(broken.status).toBe(200);
    expect(broken.body.done).toBe(false);
    expect(broken.body.parse_errors[0]).toMatch(/not valid JSON/);
    const state = await http(server.url, "GET", `/v1/episodes/${id}`);
    expect(state.body.counts).toMatchObject({ refused_direct_calls: 1, ptc_errors: 1, code_blocks: 2 });
    const crash = await http(server.url, "POST", `/v1/episodes/${id}/tool_calls`, {
      calls: [{ name: "programmatic_tool_call", arguments: { code: "import os; os._exit(3)" } }],
    });
    expect(crash.body.done).toBe(false);
    const after = await http(server.url, "POST", `/v1/episodes/${id}/tool_calls`, {
      calls: [{ name: "programmatic_tool_call", arguments: { code: "print('alive')" } }],
    });
    expect(after.body.results[0].content).toMatch(/restarted[\s\S]*alive/);
    const noCalls = await http(server.url, "POST", `/v1/episodes/${id}/completion`, {
      text: "I am done.<|im_end|>",
    });
    expect(noCalls.body).toMatchObject({ done: true, reward: 0, end_reason: "no_tool_calls" });
    expect((await http(server.url, "DELETE", `/v1/episodes/${id}`)).status).toBe(200);
    expect((await http(server.url, "GET", `/v1/episodes/${id}`)).status).toBe(404);
  });

  it("answers bad requests with JSON errors and the right status", async () => {
    const notJson = await http(server.url, "POST", "/v1/episodes", "{not json");
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe("REQUEST_INVALID");
    const wrongMode = await http(server.url, "POST", "/v1/episodes", {
      task: TASK_ID,
      scale: "v0",
      mode: "cli",
    });
    expect(wrongMode.status).toBe(400);
    expect(wrongMode.body.error.message).toMatch(/mode/);
    expect(
      (await http(server.url, "POST", "/v1/episodes", { task: "nope.nope", scale: "v0", mode: "ptc" }))
        .status,
    ).toBe(404);
    expect(
      (await http(server.url, "POST", "/v1/episodes/ep-missing/tool_calls", { calls: [{ name: "x" }] }))
        .status,
    ).toBe(404);
    expect((await http(server.url, "GET", "/v2/whatever")).status).toBe(404);
    const big = await http(server.url, "POST", "/v1/episodes/ep-x/completion", {
      text: "x".repeat(17 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    const rebinding = await http(server.url, "GET", "/healthz", undefined, { Host: "evil.example:8700" });
    expect(rebinding.status).toBe(421);
    const origin = await http(server.url, "GET", "/metrics", undefined, { Origin: "http://evil.example" });
    expect(origin.status).toBe(403);
    expect((await http(server.url, "GET", "/healthz")).status).toBe(200);
    const openapi = await http(server.url, "GET", "/openapi.json");
    expect(Object.keys(openapi.body.paths)).toContain("/v1/episodes/{id}/completion");
  });

  it("refuses with 429 and Retry-After when full, and reaps idle episodes", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const created = await http(server.url, "POST", "/v1/episodes", {
        task: TASK_ID,
        scale: "v0",
        mode: "dtc",
      });
      expect(created.status).toBe(201);
      ids.push(created.body.episode_id);
    }
    const full = await http(server.url, "POST", "/v1/episodes", { task: TASK_ID, scale: "v0", mode: "dtc" });
    expect(full.status).toBe(429);
    expect(full.headers["retry-after"]).toBe("1");
    expect(await service.reap(Date.now() + 120_000)).toBe(3);
    expect(service.stats.live).toBe(0);
    for (const id of ids) expect((await http(server.url, "GET", `/v1/episodes/${id}`)).status).toBe(404);
    const metrics = await http(server.url, "GET", "/metrics");
    expect(metrics.body).toMatch(/progagent_rollout_rejected_total [1-9]/);
    expect(metrics.body).toMatch(/progagent_rollout_episodes_finished_total\{reason="idle_timeout"\} 3/);
    expect(metrics.body).toMatch(/progagent_rollout_step_seconds_count \d+/);
  });
});

describe("rollout service with a bearer token", () => {
  it("answers 401 without the token and creates no episode", async () => {
    const guarded = createRolloutService({ loadTask: async () => task, maxEpisodes: 2 });
    const guardedServer = await serveRolloutHttp(guarded, { port: 0, authToken: "s3cret-token" });
    try {
      const denied = await http(guardedServer.url, "POST", "/v1/episodes", {
        task: TASK_ID,
        scale: "v0",
        mode: "dtc",
      });
      expect(denied.status).toBe(401);
      expect(guarded.stats.created).toBe(0);
      const wrong = await http(guardedServer.url, "GET", "/metrics", undefined, {
        Authorization: "Bearer nope",
      });
      expect(wrong.status).toBe(401);
      const allowed = await http(
        guardedServer.url,
        "POST",
        "/v1/episodes",
        { task: TASK_ID, scale: "v0", mode: "dtc" },
        { Authorization: "Bearer s3cret-token" },
      );
      expect(allowed.status).toBe(201);
    } finally {
      await guardedServer.close();
      await guarded.dispose();
    }
  });
});

describe("rollout service with token rendering", () => {
  it("renders the prompt, decodes generated tokens and appends observation tokens that continue the template", async () => {
    const rendered = createRolloutService({
      loadTask: async () => task,
      maxEpisodes: 2,
      createTokenizer: async () => startTokenizerWorkers({ threads: 1 }),
    });
    try {
      // The service's tokenizer thread loads while this thread loads the renderer the test checks against.
      const creating = rendered.create({ task: TASK_ID, scale: "v0", mode: "ptc", render: {} });
      creating.catch(() => undefined);
      const { createChatRenderer } = await import("../src/chat-template/index.js");
      const renderer = createChatRenderer();
      const created = await creating;
      const prompt = created.prompt_token_ids as number[];
      expect(renderer.decode(prompt)).toMatch(/<\|im_start\|>assistant\n$/);
      const generatedText =
        '<tool_call>\n{"name": "programmatic_tool_call", "arguments": {"code": "print(2.50, 1.0)"}}\n</tool_call><|im_end|>';
      const generated = renderer.encode(generatedText);
      const step = await rendered.completion(created.episode_id as string, { token_ids: generated });
      const observation = step.observation_token_ids!;
      const text = renderer.decode(observation);
      expect(text).toMatch(
        /^\n<\|im_start\|>user\n<tool_response>\n2\.5 1\.0\n<\/tool_response><\|im_end\|>\n<\|im_start\|>assistant\n/,
      );
      // The concatenation is what the template renders for the whole conversation.
      const whole = renderer.renderPrompt({
        messages: [
          ...(created.messages as never[]),
          {
            role: "assistant",
            content: "",
            tool_calls: [
              {
                type: "function",
                function: { name: "programmatic_tool_call", arguments: '{"code": "print(2.50, 1.0)"}' },
              },
            ],
          },
          { role: "tool", content: step.results[0]!.content },
        ],
        tools: created.tools as object[],
      });
      expect(renderer.decode([...prompt, ...generated, ...observation])).toBe(whole.text);
      const cut = await rendered.completion(created.episode_id as string, {
        token_ids: renderer.encode(
          '<tool_call>\n{"name": "programmatic_tool_call", "arguments": {"code": "print(7)"}}\n</tool_call>',
        ),
      });
      expect(renderer.decode(cut.observation_token_ids!)).toMatch(
        /^<\|im_end\|>\n<\|im_start\|>user\n<tool_response>\n7\n/,
      );
    } finally {
      await rendered.dispose();
    }
  });
});

describe("rollout service with the paper's interface", () => {
  it("offers terminal and claim_done{action} with the 10 s training deadline", async () => {
    const paper = createRolloutService({ loadTask: async () => task, maxEpisodes: 1 });
    try {
      const created = await paper.create({ task: TASK_ID, scale: "v0", mode: "dtc", interface: "paper" });
      const tools = created.tools as Array<{
        function: { name: string; parameters: { properties: object } };
      }>;
      const names = tools.map((tool) => tool.function.name);
      expect(names).toContain("terminal");
      expect(
        Object.keys(
          tools.find((tool) => tool.function.name === "claim_done")!.function.parameters.properties,
        ),
      ).toEqual(["action"]);
      expect(created.limits).toMatchObject({ execution_timeout_s: 10 });
      const id = created.episode_id as string;
      const listing = await paper.toolCalls(id, {
        calls: [{ name: "terminal", arguments: { command: "ls" } }],
      });
      expect(listing.results[0]!.is_error).toBe(false);
      const refused = await paper.toolCalls(id, {
        calls: [{ name: "terminal", arguments: { command: "ls; cat /etc/shadow" } }],
      });
      expect(refused.results[0]!.content).toMatch(/ls, find|allowed/);
      const done = await paper.toolCalls(id, {
        calls: [{ name: "claim_done", arguments: { action: "nothing" } }],
      });
      expect(done).toMatchObject({ done: true, reward: 0, end_reason: "claim_done" });
    } finally {
      await paper.dispose();
    }
  });
});

describe("rollout service's token endpoints with bad input", () => {
  it("names the field, refuses tokenizers it does not serve and ids outside the vocabulary", async () => {
    const asked: Array<string | undefined> = [];
    const tokenService = createRolloutService({
      loadTask: async () => undefined,
      maxEpisodes: 1,
      createTokenizer: async (tokenizer) => {
        asked.push(tokenizer);
        return startTokenizerWorkers({ threads: 1 });
      },
    });
    const tokenServer = await serveRolloutHttp(tokenService, { port: 0 });
    try {
      const missingText = await http(tokenServer.url, "POST", "/v1/tokenize", {});
      expect(missingText.status).toBe(400);
      expect(missingText.body.error.message).toMatch(/text: .*expected string/);
      const extraKey = await http(tokenServer.url, "POST", "/v1/tokenize", { text: "hi", tokens: 1 });
      expect(extraKey.status).toBe(400);
      expect(extraKey.body.error.message).toMatch(/tokens/);
      const hostFolder = await http(tokenServer.url, "POST", "/v1/tokenize", {
        text: "hi",
        tokenizer: "/etc",
      });
      expect(hostFolder.status).toBe(400);
      expect(hostFolder.body.error.message).toMatch(/"\/etc" is not served here/);
      expect(asked).toEqual([]);
      const hello = await http(tokenServer.url, "POST", "/v1/tokenize", { text: "Hello" });
      expect(hello.status).toBe(200);
      const [helloId] = hello.body.token_ids as number[];
      const back = await http(tokenServer.url, "POST", "/v1/detokenize", { token_ids: [helloId] });
      expect(back.body).toEqual({ text: "Hello" });
      const negative = await http(tokenServer.url, "POST", "/v1/detokenize", { token_ids: [-1] });
      expect(negative.status).toBe(400);
      expect(negative.body.error.message).toMatch(/token_ids\.0/);
      const notArray = await http(tokenServer.url, "POST", "/v1/detokenize", { token_ids: "12" });
      expect(notArray.status).toBe(400);
      expect(notArray.body.error.message).toMatch(/token_ids: .*expected array/);
      const outside = await http(tokenServer.url, "POST", "/v1/detokenize", {
        token_ids: [helloId, 999_999_999],
      });
      expect(outside.status).toBe(400);
      expect(outside.body.error.message).toMatch(/token id 999999999 is outside the vocabulary/);
    } finally {
      await tokenServer.close();
      await tokenService.dispose();
    }
  });
});
