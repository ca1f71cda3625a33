import type { ChatRenderer } from "../chat-template/index.js";
import type { ChatMessage, FunctionTool } from "../harness/index.js";

/**
 * What the rollout service needs of a chat template, token-in/token-out: the prompt of a new episode, the
 * text of generated tokens, and the tokens of new non-assistant messages plus the next generation prompt
 * (appended with loss mask 0, so history is never re-tokenised).
 */
export interface EpisodeTokenRenderer {
  readonly tokenizerName: string;
  /** The system and user messages with the tools, rendered with the generation prompt. */
  promptTokenIds(messages: readonly ChatMessage[], tools: readonly FunctionTool[]): number[];
  encode(text: string): number[];
  decode(tokenIds: readonly number[]): string;
  /**
   * Tokens to append after the model's output `generatedTokenIds`: the end-of-turn token when generation
   * did not produce it, the boundary the template puts after it, the messages, the next generation prompt.
   */
  observationTokenIds(
    messages: readonly ChatMessage[],
    tools: readonly FunctionTool[],
    generatedTokenIds: readonly number[],
  ): number[];
}

/** The rollout view of a chat renderer (`enableThinking` as the episode asked; the template's default when unset). */
export function episodeTokenRenderer(renderer: ChatRenderer, enableThinking?: boolean): EpisodeTokenRenderer {
  const thinking = enableThinking === undefined ? {} : { enableThinking };
  return {
    tokenizerName: renderer.tokenizerName,
    promptTokenIds: (messages, tools) =>
      renderer.renderPrompt({ messages: messages, tools, ...thinking }).tokenIds,
    encode: (text) => renderer.encode(text),
    decode: (tokenIds) => renderer.decode(tokenIds),
    observationTokenIds: (messages, tools, generatedTokenIds) =>
      renderer.renderObservation({
        previousTokenIds: generatedTokenIds,
        messages: messages,
        tools,
        ...thinking,
      }).tokenIds,
  };
}
