import type { JsonSchemaObject } from "../runtime/index.js";
import type { ChatMessage } from "./trajectory.js";

export interface FunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchemaObject };
}

export interface CompletionRequest {
  messages: ChatMessage[];
  tools: FunctionTool[];
  maxTokens: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface CompletionResponse {
  /**
   * The assistant message, OpenAI format: tool_calls with the model's exact JSON-string arguments (possibly
   * malformed), reasoning in `reasoning_content`, Anthropic thinking blocks in `thinking_blocks`.
   */
  message: ChatMessage;
  usage?: { promptTokens: number; completionTokens: number; reasoningTokens?: number };
  finishReason?: string;
}

/** A chat model with tool calling: an HTTP endpoint or a scripted policy that needs no model. */
export interface ModelClient {
  readonly name: string;
  complete(request: CompletionRequest): Promise<CompletionResponse>;
  /** The endpoint a remote client talks to (undefined for the built-in policies). */
  readonly endpoint?: string;
  /**
   * Sends one request of a single output token: throws, naming the endpoint and the cause, when the endpoint
   * cannot be reached, refuses the key or does not know the model. Remote clients only.
   */
  preflight?(signal?: AbortSignal): Promise<void>;
}
