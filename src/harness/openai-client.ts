import { PREFLIGHT_RETRY, postJsonWithRetry, type RetryOptions } from "./http-retry.js";
import type { CompletionResponse, ModelClient } from "./model-client.js";
import type { ChatMessage } from "./trajectory.js";

export interface OpenAiClientOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  requestTimeoutMs?: number;
  maxRetries?: number;
  initialBackoffMs?: number;
  /**
   * Send earlier turns' reasoning back as `reasoning_content` (vLLM and SGLang pass it to the chat template;
   * DeepSeek's API rejects it in requests). Off by default: the reasoning is still recorded in the trajectory.
   */
  sendReasoning?: boolean;
}

interface OpenAiResponse {
  choices?: Array<{
    message?: {
      content?: string | null;
      tool_calls?: Array<{ id?: string; type?: string; function?: { name?: string; arguments?: unknown } }>;
      reasoning_content?: string | null;
      reasoning?: string | null;
    };
    finish_reason?: string;
  }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  };
}

/** The request form of a recorded message: only the fields an OpenAI-compatible server accepts. */
function toRequestMessage(message: ChatMessage, sendReasoning: boolean): Record<string, unknown> {
  const { reasoning_content: reasoning, thinking_blocks: _thinking, ...rest } = message;
  return sendReasoning && reasoning !== undefined ? { ...rest, reasoning_content: reasoning } : rest;
}

/** OpenAI-compatible chat completions with tools (vLLM, SGLang, OpenAI, DeepSeek...). */
export function createOpenAiClient(options: OpenAiClientOptions): ModelClient {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  return {
    name: `openai:${options.model}`,
    endpoint: url,
    async preflight(signal): Promise<void> {
      const body = { model: options.model, messages: [{ role: "user", content: "Say OK." }], max_tokens: 1 };
      await postJsonWithRetry(url, body, headers, { ...PREFLIGHT_RETRY, ...(signal ? { signal } : {}) });
    },
    async complete(request): Promise<CompletionResponse> {
      const retry: RetryOptions = {
        requestTimeoutMs: options.requestTimeoutMs ?? 300_000,
        maxRetries: options.maxRetries ?? 4,
        initialBackoffMs: options.initialBackoffMs ?? 1_000,
        ...(request.signal ? { signal: request.signal } : {}),
      };
      const body = {
        model: options.model,
        messages: request.messages.map((message) =>
          toRequestMessage(message, options.sendReasoning ?? false),
        ),
        tools: request.tools,
        max_tokens: request.maxTokens,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      };
      const response = (await postJsonWithRetry(url, body, headers, retry)) as OpenAiResponse;
      const choice = response.choices?.[0];
      const raw = choice?.message ?? {};
      const message: ChatMessage = {
        role: "assistant",
        content: typeof raw.content === "string" ? raw.content : null,
      };
      // vLLM and DeepSeek name it reasoning_content, SGLang and newer vLLM reasoning.
      const reasoning =
        typeof raw.reasoning_content === "string"
          ? raw.reasoning_content
          : typeof raw.reasoning === "string"
            ? raw.reasoning
            : undefined;
      if (reasoning !== undefined) message.reasoning_content = reasoning;
      if (Array.isArray(raw.tool_calls) && raw.tool_calls.length > 0) {
        message.tool_calls = raw.tool_calls.map((call, index) => ({
          id: typeof call.id === "string" && call.id ? call.id : `call_${index}`,
          type: "function" as const,
          function: {
            name: typeof call.function?.name === "string" ? call.function.name : "",
            // The exact string the model produced; only a server that sends an object gets it serialised.
            arguments:
              typeof call.function?.arguments === "string"
                ? call.function.arguments
                : JSON.stringify(call.function?.arguments ?? {}),
          },
        }));
      }
      return {
        message,
        ...(response.usage
          ? {
              usage: {
                promptTokens: response.usage.prompt_tokens ?? 0,
                completionTokens: response.usage.completion_tokens ?? 0,
                ...(typeof response.usage.completion_tokens_details?.reasoning_tokens === "number"
                  ? { reasoningTokens: response.usage.completion_tokens_details.reasoning_tokens }
                  : {}),
              },
            }
          : {}),
        ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
      };
    },
  };
}
