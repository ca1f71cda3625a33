import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createAnthropicClient, toAnthropicMessages } from "../src/harness/index.js";

describe("Anthropic Messages client", () => {
  it("converts OpenAI-format history: system apart, tool results as user blocks", () => {
    const converted = toAnthropicMessages([
      { role: "system", content: "be brief" },
      { role: "user", content: "task" },
      {
        role: "assistant",
        content: "looking",
        tool_calls: [
          { id: "t1", type: "function", function: { name: "list_items", arguments: '{"page": 2}' } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: "{}" },
    ]);
    expect(converted.system).toBe("be brief");
    expect(converted.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "task" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "looking" },
          { type: "tool_use", id: "t1", name: "list_items", input: { page: 2 } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "{}" }] },
    ]);
  });

  it("sends tools and parses tool_use replies from a scripted endpoint", async () => {
    const bodies: Array<Record<string, unknown>> = [];
    const server = createServer((request, response) => {
      let data = "";
      request.on("data", (chunk: Buffer) => (data += chunk.toString()));
      request.on("end", () => {
        bodies.push({
          ...(JSON.parse(data) as Record<string, unknown>),
          apiKey: request.headers["x-api-key"],
        });
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            content: [{ type: "tool_use", id: "toolu_1", name: "claim_done", input: { answer: "7" } }],
            usage: { input_tokens: 50, output_tokens: 9 },
            stop_reason: "tool_use",
          }),
        );
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
    const { port } = server.address() as AddressInfo;
    try {
      const client = createAnthropicClient({
        model: "claude-test",
        apiKey: "secret",
        baseUrl: `http://127.0.0.1:${port}`,
      });
      const response = await client.complete({
        messages: [{ role: "user", content: "hi" }],
        tools: [
          {
            type: "function",
            function: {
              name: "claim_done",
              description: "finish",
              parameters: { type: "object", properties: { answer: { type: "string" } } },
            },
          },
        ],
        maxTokens: 100,
      });
      expect(response.message.tool_calls?.[0]?.function).toEqual({
        name: "claim_done",
        arguments: '{"answer":"7"}',
      });
      expect(response.usage).toEqual({ promptTokens: 50, completionTokens: 9 });
      expect(bodies[0]).toMatchObject({
        model: "claude-test",
        apiKey: "secret",
        tools: [{ name: "claim_done", input_schema: { type: "object" } }],
      });
    } finally {
      server.close();
    }
  });
});
