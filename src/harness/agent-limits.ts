/** An episode's limits (kept apart from the episode loop so the CLI can show the defaults without loading it). */
export interface AgentLimits {
  maxTurns: number;
  maxToolCalls: number;
  /** The model's context window; the episode stops before a request would exceed it. */
  contextWindowTokens: number;
  maxTokensPerTurn: number;
  wallClockMs: number;
  /** Per code execution (PTC). */
  executionTimeoutMs: number;
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  maxTurns: 300,
  maxToolCalls: 1000,
  contextWindowTokens: 131_072,
  maxTokensPerTurn: 8_192,
  wallClockMs: 30 * 60_000,
  executionTimeoutMs: 60_000,
};
