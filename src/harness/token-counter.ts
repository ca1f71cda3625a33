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

/** What one turn of a conversation counts: its whole context, and the messages asked for. */
export interface TurnCounts {
  /** Tokens of the prompt the template renders for the conversation so far, generation prompt included. */
  contextTokens: number;
  /** `countMessage` of each message asked for, in the order asked. */
  messageTokens: number[];
}

/**
 * The counts of one growing conversation, asked once per turn. The conversation is the array the harness
 * appends to (never edits); a counter in another thread receives only what was appended since the last turn.
 */
export interface ConversationCounter {
  /** Counts the context of `messages` and the messages at `indices` (an assistant message: its generated tokens). */
  turn(messages: readonly ChatMessage[], indices: readonly number[]): Promise<TurnCounts>;
  /** Forgets the conversation (a counter in another thread frees its copy). */
  close(): void;
}

/** A counter that serves whole conversations (the counting worker): what `runAgentEpisode` can take besides a `TokenCounter`. */
export interface ConversationCounterSource {
  readonly tokenizerName: string;
  openConversation(tools: readonly FunctionTool[]): ConversationCounter;
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

/**
 * One turn's counts, the context first: an assistant message that made calls is then counted from the render
 * the context made. Shared by the in-thread conversation counter and the counting worker, so both count alike.
 */
export function countTurn(
  counter: TokenCounter,
  messages: readonly ChatMessage[],
  tools: readonly FunctionTool[],
  indices: readonly number[],
): TurnCounts {
  const contextTokens = counter.countContext(messages, tools);
  const messageTokens = indices.map((index) => {
    const message = messages[index];
    if (message === undefined)
      throw new RangeError(`message ${index} asked for, but the conversation has ${messages.length}`);
    return counter.countMessage(message);
  });
  return { contextTokens, messageTokens };
}

/** A conversation counted in this thread by `counter`; a `ConversationCounterSource` opens its own kind. */
export function openConversationCounter(
  counter: TokenCounter | ConversationCounterSource,
  tools: readonly FunctionTool[],
): ConversationCounter {
  if ("openConversation" in counter) return counter.openConversation(tools);
  return {
    turn: async (messages, indices) => countTurn(counter, messages, tools, indices),
    close: () => {},
  };
}
