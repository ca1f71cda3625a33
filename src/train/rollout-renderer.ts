import type { ChatMessage, FunctionTool } from "../harness/index.js";
import { GENERATED_TAIL_CHARS, type RolloutTokenizer } from "./rollout-tokenizer.js";

/**
 * What an episode created with `render` needs of its tokenizer, token-in/token-out: the prompt, the text of
 * generated tokens, and the tokens of new non-assistant messages plus the next generation prompt (appended with
 * loss mask 0, so history is never re-tokenised). All of it runs on the tokenizer's threads.
 */
export interface EpisodeTokenRenderer {
  /** The system and user messages with the tools, rendered with the generation prompt. */
  promptTokenIds(messages: readonly ChatMessage[], tools: readonly FunctionTool[]): Promise<number[]>;
  decode(tokenIds: readonly number[]): Promise<string>;
  /**
   * Tokens to append after the model's output, given as its token ids or (without them) its text: the
   * end-of-turn token when generation did not produce it, the boundary the template puts after it, the
   * messages, the next generation prompt.
   */
  observationTokenIds(
    messages: readonly ChatMessage[],
    tools: readonly FunctionTool[],
    generated: { tokenIds: readonly number[] } | { text: string },
  ): Promise<number[]>;
}

/** An episode's view of a tokenizer (`enableThinking` as the episode asked; the template's default when unset). */
export function episodeTokenRenderer(
  tokenizer: RolloutTokenizer,
  enableThinking?: boolean,
): EpisodeTokenRenderer {
  return {
    promptTokenIds: (messages, tools) => tokenizer.promptTokenIds(messages, tools, enableThinking),
    decode: (tokenIds) => tokenizer.decode(tokenIds),
    observationTokenIds: (messages, tools, generated) =>
      tokenizer.observationTokenIds({
        messages,
        tools,
        generated:
          "text" in generated
            ? { textTail: generated.text.slice(-GENERATED_TAIL_CHARS) }
            : { lastTokenId: generated.tokenIds.at(-1) },
        enableThinking,
      }),
  };
}
