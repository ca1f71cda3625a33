import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAnthropicClient,
  createOpenAiClient,
  runAgentEpisode,
  toAnthropicMessages,
} from "../src/harness/index.js";
import { createChatRenderer } from "../src/chat-template/index.js";
import { loadSuite } from "../src/suite/index.js";
import { startScriptedOpenAiServer, type ScriptedOpenAiServer } from "./helpers/scripted-openai-server.js";

let server: ScriptedOpenAiServer;
beforeAll(async () => {
  server = await startScriptedOpenAiServer();
});
afterAll(async () => {
  await server.close();
});

describe("trajectories keep what training needs", () => {
  it("records reasoning (reasoning_content and reasoning), exact argument strings, finish reasons and usage", async () => {
    const task = (await loadSuite("retail.*"))[0]!;
    const exactArguments = '{ "answer" :"1.0",\n "note": 2.50 }';
    server.push(
      {
        body: {
          choices: [
            {
              message: {
                role: "assistant",
                content: "Reading first.",
                reasoning_content: "I should list the files.",
                tool_calls: [
                  { id: "c1", type: "function", function: { name: "list_files", arguments: '{"path":"."}' } },
                ],
              },
              finish_reason: "tool_calls",
            },
          ],
          usage: {
            prompt_tokens: 900,
            completion_tokens: 40,
            completion_tokens_details: { reasoning_tokens: 12 },
          },
        },
      },
      {
        body: {
          choices: [
            {
              message: {
                role: "assistant",
                content: null,
                reasoning: "Done; claim.",
                tool_calls: [
                  { id: "c2", type: "function", function: { name: "claim_done", arguments: exactArguments } },
                ],
              },
              finish_reason: "tool_calls",
            },
          ],
          usage: { prompt_tokens: 1000, completion_tokens: 30 },
        },
      },
    );
    const client = createOpenAiClient({ baseUrl: server.baseUrl, model: "qwen3-8b", maxRetries: 0 });
    const trajectory = await runAgentEpisode({
      task,
      scale: "v0",
      seed: 0,
      mode: "dtc",
      client,
      runId: "r",
      sample: 0,
    });
    expect(trajectory.schemaVersion).toBe(2);
    const assistants = trajectory.messages.filter((message) => message.role === "assistant");
    expect(assistants.map((message) => message.reasoning_content)).toEqual([
      "I should list the files.",
      "Done; claim.",
    ]);
    expect(assistants[1]!.tool_calls![0]!.function.arguments).toBe(exactArguments);
    expect(trajectory.turns.map((turn) => turn.finishReason)).toEqual(["tool_calls", "tool_calls"]);
    expect(trajectory.turns[0]!.usage).toEqual({
      promptTokens: 900,
      completionTokens: 40,
      reasoningTokens: 12,
    });
    // Reasoning is not sent back by default (DeepSeek rejects it in requests).
    const secondRequest = server.requests[1]!.messages as Array<Record<string, unknown>>;
    expect(secondRequest.some((message) => "reasoning_content" in message)).toBe(false);
    // The context counts are the chat template's exact token counts of what was sent.
    const renderer = createChatRenderer();
    const firstPrompt = renderer.renderPrompt({
      messages: trajectory.messages.slice(0, 2),
      tools: trajectory.tools,
    });
    expect(trajectory.turns[0]!.contextTokens).toBe(firstPrompt.tokenIds.length);
    const secondPrompt = renderer.renderPrompt({
      messages: trajectory.messages.slice(0, 4),
      tools: trajectory.tools,
    });
    expect(trajectory.turns[1]!.contextTokens).toBe(secondPrompt.tokenIds.length);
  });

  it("stops at the context limit by exact template tokens", async () => {
    const task = (await loadSuite("retail.*"))[0]!;
    const renderer = createChatRenderer();
    server.reset();
    const client = createOpenAiClient({ baseUrl: server.baseUrl, model: "m", maxRetries: 0 });
    // The first prompt alone: a window one token smaller stops before any request is made.
    const probe = await runAgentEpisode({
      task,
      scale: "v0",
      seed: 0,
      mode: "ptc",
      client,
      runId: "r",
      sample: 0,
      limits: { contextWindowTokens: 1 },
    });
    const exact = renderer.renderPrompt({ messages: probe.messages.slice(0, 2), tools: probe.tools }).tokenIds
      .length;
    expect(probe.finalContextTokens).toBe(exact);
    const atLimit = await runAgentEpisode({
      task,
      scale: "v0",
      seed: 0,
      mode: "ptc",
      client,
      runId: "r",
      sample: 1,
      limits: { contextWindowTokens: exact - 1 },
    });
    expect(atLimit.endReason).toBe("context_limit");
    expect(server.requests).toHaveLength(0);
  });

  it("records Anthropic thinking blocks and sends them back before the tool use", async () => {
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            content: [
              { type: "thinking", thinking: "Let me think.", signature: "sig-1" },
              { type: "redacted_thinking", data: "opaque" },
              { type: "tool_use", id: "toolu_1", name: "claim_done", input: { answer: "7" } },
            ],
            usage: { input_tokens: 5, output_tokens: 9 },
            stop_reason: "tool_use",
          }),
        );
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
    try {
      const client = createAnthropicClient({
        model: "claude-test",
        apiKey: "k",
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        thinkingBudgetTokens: 1024,
      });
      const { message, finishReason } = await client.complete({
        messages: [{ role: "user", content: "hi" }],
        tools: [],
        maxTokens: 2048,
      });
      expect(finishReason).toBe("tool_use");
      expect(message.reasoning_content).toBe("Let me think.");
      expect(message.thinking_blocks).toEqual([
        { type: "thinking", thinking: "Let me think.", signature: "sig-1" },
        { type: "redacted_thinking", data: "opaque" },
      ]);
      const history = toAnthropicMessages([{ role: "user", content: "hi" }, message]);
      expect(history.messages[1]!.content.map((block) => block.type)).toEqual([
        "thinking",
        "redacted_thinking",
        "tool_use",
      ]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
