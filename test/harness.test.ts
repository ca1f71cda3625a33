import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiClient, runAgentEpisode, type ModelClient } from "../src/harness/index.js";
import { tinyTask } from "./fixtures/tiny-domain.js";
import {
  assistantToolCall,
  startScriptedOpenAiServer,
  type ScriptedOpenAiServer,
} from "./helpers/scripted-openai-server.js";

let server: ScriptedOpenAiServer;
let client: ModelClient;
beforeAll(async () => {
  process.env.PROGAGENT_CACHE_DIR ??= "/tmp/progagent-test-cache";
  server = await startScriptedOpenAiServer();
  client = createOpenAiClient({
    baseUrl: server.baseUrl,
    model: "scripted",
    initialBackoffMs: 5,
    requestTimeoutMs: 5_000,
  });
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.reset();
});

const base = { task: tinyTask, scale: "v0" as const, seed: 0, runId: "test", sample: 0 };

describe("harness against an OpenAI-compatible endpoint", () => {
  it("parses tool calls, turns malformed arguments into an error observation, and ends on claim_done", async () => {
    server.push(
      assistantToolCall("list_items", "{not json"),
      assistantToolCall("list_items", { per_page: 5 }),
      assistantToolCall("claim_done", { answer: "42" }),
    );
    const trajectory = await runAgentEpisode({ ...base, mode: "dtc", client });
    expect(trajectory.endReason).toBe("claim_done");
    expect(trajectory.answer).toBe("42");
    const toolMessages = trajectory.messages.filter((message) => message.role === "tool");
    expect(toolMessages[0]?.content).toContain("not a valid JSON object");
    expect(toolMessages[1]?.content).toContain('"per_page":5');
    expect(toolMessages[2]?.content).toContain("Reward: 0");
    expect(trajectory.toolCalls.map((call) => call.name)).toEqual(["list_items"]);
    const firstRequest = server.requests[0] as {
      tools: Array<{ function: { name: string } }>;
      messages: unknown[];
    };
    expect(firstRequest.tools.map((tool) => tool.function.name)).toEqual([
      "list_items",
      "deactivate_item",
      "list_files",
      "read_file",
      "search_files",
      "claim_done",
    ]);
    expect(trajectory.turns).toHaveLength(3);
    expect(trajectory.toolOutputTokens).toBeGreaterThan(0);
  });

  it("refuses direct calls in PTC mode with the right syntax and counts a PTC error", async () => {
    server.push(
      assistantToolCall("list_items", { page: 2 }),
      assistantToolCall("programmatic_tool_call", { code: 'print(tools["list_items"](page=2)["page"])' }),
      assistantToolCall("claim_done", { answer: "" }),
    );
    const trajectory = await runAgentEpisode({ ...base, mode: "ptc", client });
    const toolMessages = trajectory.messages.filter((message) => message.role === "tool");
    expect(toolMessages[0]?.content).toContain("cannot be called directly");
    expect(toolMessages[0]?.content).toContain('tools["list_items"](page=2)');
    expect(toolMessages[1]?.content).toBe("2");
    expect(trajectory.refusedDirectCalls).toBe(1);
    expect(trajectory.runtimeErrors).toBe(1);
    expect(trajectory.codeBlocks).toHaveLength(1);
    const firstRequest = server.requests[0] as {
      tools: Array<{ function: { name: string } }>;
      messages: Array<{ content: string }>;
    };
    expect(firstRequest.tools.map((tool) => tool.function.name)).toEqual([
      "programmatic_tool_call",
      "claim_done",
    ]);
    expect(firstRequest.messages[0]?.content).toContain(
      "def list_items(page: int = 1, per_page: int = 20) -> dict",
    );
  });

  it("stops at the context limit", async () => {
    for (let page = 1; page <= 5; page += 1)
      server.push(assistantToolCall("list_items", { page, per_page: 50 }));
    const trajectory = await runAgentEpisode({
      ...base,
      scale: "v3",
      mode: "dtc",
      client,
      limits: { contextWindowTokens: 3_000 },
    });
    expect(trajectory.endReason).toBe("context_limit");
    expect(trajectory.finalContextTokens).toBeGreaterThan(3_000);
    expect(trajectory.reward).toBe(0);
  });

  it("ends on an assistant message without tool calls", async () => {
    server.push({
      body: { choices: [{ message: { role: "assistant", content: "I give up." }, finish_reason: "stop" }] },
    });
    const trajectory = await runAgentEpisode({ ...base, mode: "hybrid", client });
    expect(trajectory.endReason).toBe("no_tool_calls");
  });

  it("retries on 500 and 429, then succeeds", async () => {
    server.push(
      { status: 500, body: { error: "overloaded" } },
      { status: 429, body: { error: "slow down" }, headers: { "retry-after": "0" } },
      assistantToolCall("claim_done", { answer: "x" }),
    );
    const response = await client.complete({
      messages: [{ role: "user", content: "hi" }],
      tools: [],
      maxTokens: 10,
    });
    expect(response.message.tool_calls?.[0]?.function.name).toBe("claim_done");
    expect(server.requests).toHaveLength(3);
  });

  it("enforces the per-request deadline and gives up after the retries", async () => {
    const impatient = createOpenAiClient({
      baseUrl: server.baseUrl,
      model: "scripted",
      requestTimeoutMs: 150,
      maxRetries: 1,
      initialBackoffMs: 5,
    });
    server.push({ delayMs: 1_000, body: {} }, { delayMs: 1_000, body: {} });
    const started = Date.now();
    await expect(
      impatient.complete({ messages: [{ role: "user", content: "hi" }], tools: [], maxTokens: 10 }),
    ).rejects.toThrow(/after 2 attempt\(s\): no response within 150 ms/);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it("does not retry a 400 and says why", async () => {
    server.push({ status: 400, body: { error: "bad tools" } });
    await expect(client.complete({ messages: [], tools: [], maxTokens: 1 })).rejects.toThrow(
      /HTTP 400.*bad tools/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("records a model failure as the end reason instead of crashing", async () => {
    server.push({ status: 401, body: { error: "no key" } });
    const trajectory = await runAgentEpisode({ ...base, mode: "dtc", client });
    expect(trajectory.endReason).toBe("model_error");
    expect(trajectory.error).toContain("HTTP 401");
  });
});
