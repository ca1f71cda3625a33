import { getHeapStatistics } from "node:v8";

export interface RolloutLimits {
  /** Deadline of one code execution or tool call; unset: the interface profile's training deadline (paper: 10 s). */
  executionTimeoutMs: number | undefined;
  /** Tool calls per episode; the next one ends it with `max_tool_calls`. */
  maxToolCalls: number;
  /** Wall clock per episode from creation; afterwards every step answers `done` with `wall_clock`. */
  episodeWallClockMs: number;
  /** An episode without a request for this long is ended and released. */
  idleTimeoutMs: number;
  /**
   * Turns (a completion or a tool_calls request) per episode, turns whose output only failed to parse included;
   * the next one ends the episode with `max_turns`.
   */
  maxTurns: number;
  /**
   * Bytes of history one episode retains (message text, reasoning, tool calls, tool results); a turn that would
   * pass it ends the episode with `max_history_bytes`.
   */
  maxHistoryBytes: number;
  /**
   * Bytes of history all live episodes retain together (default: a quarter of the heap); a turn that would pass
   * it ends its episode with `history_budget`, so the sum never exhausts the heap.
   */
  maxTotalHistoryBytes: number;
  /** Characters of text `/v1/tokenize` takes at once; more is a 413 (one long word is costly to tokenise). */
  maxTokenizeChars: number;
}

export const DEFAULT_ROLLOUT_LIMITS: RolloutLimits = {
  executionTimeoutMs: undefined,
  maxToolCalls: 100,
  episodeWallClockMs: 30 * 60_000,
  idleTimeoutMs: 10 * 60_000,
  maxTurns: 100,
  maxHistoryBytes: 8 * 1024 * 1024,
  maxTotalHistoryBytes: Math.floor(getHeapStatistics().heap_size_limit / 4),
  maxTokenizeChars: 256 * 1024,
};
