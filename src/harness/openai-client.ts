import { postJsonWithRetry, type RetryOptions } from "./http-retry.js";
import type { CompletionResponse, ModelClient } from "./model-client.js";
import type { ChatMessage } from "./trajectory.js";

export interface OpenAiClientOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  requestTimeoutMs?: number;
  maxRetries?: number;
  initialBackoffMs?: number;
}

interface OpenAiResponse {
  choices?: Array<{
    message?: {
      content?: string | null;
      tool_calls?: Array<{ id?: string; type?: string; function?: { name?: string; arguments?: unknown } }>;
      reasoning_content?: string;
    };
    finish_reason?: string;
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** OpenAI-compatible chat completions with tools (vLLM, SGLang, OpenAI, DeepSeek...). */
export function createOpenAiClient(options: OpenAiClientOptions): ModelClient {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  return {
    name: `openai:${options.model}`,
    async complete(request): Promise<CompletionResponse> {
      const retry: RetryOptions = {
        requestTimeoutMs: options.requestTimeoutMs ?? 300_000,
        maxRetries: options.maxRetries ?? 4,
        initialBackoffMs: options.initialBackoffMs ?? 1_000,
        ...(request.signal ? { signal: request.signal } : {}),
      };
      const body = {
        model: options.model,
        messages: request.messages,
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
      if (Array.isArray(raw.tool_calls) && raw.tool_calls.length > 0) {
        message.tool_calls = raw.tool_calls.map((call, index) => ({
          id: typeof call.id === "string" && call.id ? call.id : `call_${index}`,
          type: "function" as const,
          function: {
            name: typeof call.function?.name === "string" ? call.function.name : "",
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
              },
            }
          : {}),
        ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
      };
    },
  };
}
