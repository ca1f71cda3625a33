import { createChatRenderer } from "../chat-template/index.js";
import type { FunctionTool } from "./model-client.js";
import type { ChatMessage } from "./trajectory.js";

/** Exact token accounting with a model's tokenizer and chat template (Qwen3 by default, the paper's backbones). */
export interface TokenCounter {
  /** The tokenizer and template the counts come from (`qwen3` or a tokenizer folder). */
  readonly tokenizerName: string;
  count(text: string): number;
  /**
   * Tokens of the prompt the chat template renders for these messages and tools, generation prompt included:
   * what a server applying the template would feed the model. Incremental for a conversation that grows.
   */
  countContext(messages: readonly ChatMessage[], tools: readonly FunctionTool[]): number;
  /** An assistant message: the tokens the model generated (reasoning, content, calls, end-of-turn); any other: its content. */
  countMessage(message: ChatMessage): number;
}

/** A counter over one tokenizer folder (the built-in Qwen3 tokenizer when omitted); tokenizers load once per process. */
export function createTokenCounter(options: { tokenizer?: string } = {}): TokenCounter {
  const renderer = createChatRenderer(
    options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer },
  );
  return {
    tokenizerName: renderer.tokenizerName,
    count: (text) => renderer.countTokens(text),
    countContext: (messages, tools) => renderer.countContext(messages, tools),
    countMessage: (message) =>
      message.role === "assistant"
        ? renderer.countGenerated(message)
        : renderer.countTokens(message.content ?? ""),
  };
}
