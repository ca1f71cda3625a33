import { PREFLIGHT_RETRY, postJsonWithRetry } from "./http-retry.js";
import type { CompletionResponse, ModelClient } from "./model-client.js";
import type { ChatMessage, ThinkingBlock } from "./trajectory.js";

export interface AnthropicClientOptions {
  model: string;
  apiKey?: string;
  baseUrl?: string;
  requestTimeoutMs?: number;
  maxRetries?: number;
  initialBackoffMs?: number;
  /** Enables extended thinking with this budget; the thinking blocks are recorded and sent back with tool results. */
  thinkingBudgetTokens?: number;
}

type AnthropicBlock =
  | ThinkingBlock
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "tool_result"; tool_use_id: string; content: string };

/** Converts OpenAI-format history to Anthropic Messages (system apart, tool results as user blocks). */
export function toAnthropicMessages(messages: ChatMessage[]): {
  system: string;
  messages: Array<{ role: "user" | "assistant"; content: AnthropicBlock[] }>;
} {
  const system = messages
    .filter((message) => message.role === "system")
    .map((message) => message.content ?? "")
    .join("\n\n");
  const converted: Array<{ role: "user" | "assistant"; content: AnthropicBlock[] }> = [];
  const push = (role: "user" | "assistant", block: AnthropicBlock): void => {
    const last = converted.at(-1);
    if (last && last.role === role) last.content.push(block);
    else converted.push({ role, content: [block] });
  };
  for (const message of messages) {
    if (message.role === "user" && message.content) push("user", { type: "text", text: message.content });
    if (message.role === "tool")
      push("user", {
        type: "tool_result",
        tool_use_id: message.tool_call_id ?? "",
        content: message.content ?? "",
      });
    if (message.role === "assistant") {
      // The API requires the thinking blocks (with their signatures) of a turn that called tools.
      for (const block of message.thinking_blocks ?? []) push("assistant", block);
      if (message.content) push("assistant", { type: "text", text: message.content });
      for (const call of message.tool_calls ?? []) {
        let input: unknown = {};
        try {
          input = JSON.parse(call.function.arguments);
        } catch {
          input = { _unparsed: call.function.arguments };
        }
        push("assistant", { type: "tool_use", id: call.id, name: call.function.name, input });
      }
    }
  }
  return { system, messages: converted };
}

interface AnthropicResponse {
  content?: Array<{
    type: string;
    text?: string;
    id?: string;
    name?: string;
    input?: unknown;
    thinking?: string;
    signature?: string;
    data?: string;
  }>;
  usage?: { input_tokens?: number; output_tokens?: number };
  stop_reason?: string;
}

/** Anthropic Messages API with tools. */
export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  const url = `${(options.baseUrl ?? "https://api.anthropic.com").replace(/\/+$/, "")}/v1/messages`;
  const headers = { "x-api-key": options.apiKey ?? "", "anthropic-version": "2023-06-01" };
  return {
    name: `anthropic:${options.model}`,
    endpoint: url,
    async preflight(signal): Promise<void> {
      const body = { model: options.model, messages: [{ role: "user", content: "Say OK." }], max_tokens: 1 };
      await postJsonWithRetry(url, body, headers, { ...PREFLIGHT_RETRY, ...(signal ? { signal } : {}) });
    },
    async complete(request): Promise<CompletionResponse> {
      const { system, messages } = toAnthropicMessages(request.messages);
      const body = {
        model: options.model,
        system,
        messages,
        max_tokens: request.maxTokens,
        tools: request.tools.map((tool) => ({
          name: tool.function.name,
          description: tool.function.description,
          input_schema: tool.function.parameters,
        })),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(options.thinkingBudgetTokens === undefined
          ? {}
          : { thinking: { type: "enabled", budget_tokens: options.thinkingBudgetTokens } }),
      };
      const response = (await postJsonWithRetry(url, body, headers, {
        requestTimeoutMs: options.requestTimeoutMs ?? 300_000,
        maxRetries: options.maxRetries ?? 4,
        initialBackoffMs: options.initialBackoffMs ?? 1_000,
        ...(request.signal ? { signal: request.signal } : {}),
      })) as AnthropicResponse;
      const blocks = response.content ?? [];
      const text = blocks
        .filter((block) => block.type === "text")
        .map((block) => block.text ?? "")
        .join("");
      const calls = blocks.filter((block) => block.type === "tool_use");
      const message: ChatMessage = { role: "assistant", content: text.length > 0 ? text : null };
      const thinking: ThinkingBlock[] = [];
      for (const block of blocks) {
        if (block.type === "thinking")
          thinking.push({
            type: "thinking",
            thinking: block.thinking ?? "",
            ...(block.signature === undefined ? {} : { signature: block.signature }),
          });
        if (block.type === "redacted_thinking")
          thinking.push({ type: "redacted_thinking", data: block.data ?? "" });
      }
      if (thinking.length > 0) {
        message.thinking_blocks = thinking;
        message.reasoning_content = thinking
          .map((block) => (block.type === "thinking" ? block.thinking : ""))
          .filter((part) => part.length > 0)
          .join("\n\n");
      }
      if (calls.length > 0) {
        message.tool_calls = calls.map((call, index) => ({
          id: call.id ?? `toolu_${index}`,
          type: "function" as const,
          // The Messages API returns parsed input, so this is its JSON text, not a model-produced string.
          function: { name: call.name ?? "", arguments: JSON.stringify(call.input ?? {}) },
        }));
      }
      return {
        message,
        ...(response.usage
          ? {
              usage: {
                promptTokens: response.usage.input_tokens ?? 0,
                completionTokens: response.usage.output_tokens ?? 0,
              },
            }
          : {}),
        ...(response.stop_reason ? { finishReason: response.stop_reason } : {}),
      };
    },
  };
}
