export interface RolloutLimits {
  /** Deadline of one code execution or tool call; unset: the interface profile's training deadline (paper: 10 s). */
  executionTimeoutMs: number | undefined;
  /** Tool calls per episode; the next one ends it with `max_tool_calls`. */
  maxToolCalls: number;
  /** Wall clock per episode from creation; afterwards every step answers `done` with `wall_clock`. */
  episodeWallClockMs: number;
  /** An episode without a request for this long is ended and released. */
  idleTimeoutMs: number;
  /** Characters of text `/v1/tokenize` takes at once; more is a 413 (one long word is costly to tokenise). */
  maxTokenizeChars: number;
}

export const DEFAULT_ROLLOUT_LIMITS: RolloutLimits = {
  executionTimeoutMs: undefined,
  maxToolCalls: 100,
  episodeWallClockMs: 30 * 60_000,
  idleTimeoutMs: 10 * 60_000,
  maxTokenizeChars: 256 * 1024,
};
