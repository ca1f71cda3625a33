import type { ChatMessage, FunctionTool } from "../harness/index.js";

/**
 * What the rollout service needs of a chat template, token-in/token-out: the prompt of a new episode, the
 * text of generated tokens, and the tokens of new non-assistant messages plus the next generation prompt
 * (appended with loss mask 0, so history is never re-tokenised).
 */
export interface EpisodeTokenRenderer {
  /** The system and user messages with the tools, rendered with the generation prompt. */
  promptTokenIds(messages: readonly ChatMessage[], tools: readonly FunctionTool[]): number[];
  decode(tokenIds: readonly number[]): string;
  /** Whether generation ended the turn itself (its last token is the end-of-turn token). */
  endsTurn(tokenIds: readonly number[]): boolean;
  /**
   * Tokens to append after the model's output: when the model did not end its turn, the end-of-turn token;
   * the boundary the template puts after it; the messages; the next generation prompt.
   */
  observationTokenIds(messages: readonly ChatMessage[], options: { endedTurn: boolean }): number[];
}
