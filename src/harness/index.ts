export { END_REASONS, endReasonSchema, chatMessageSchema, trajectorySchema } from "./trajectory.js";
export type {
  EndReason,
  ChatMessage,
  TurnRecord,
  ToolCallEntry,
  CodeBlock,
  Trajectory,
} from "./trajectory.js";
export type { ModelClient, CompletionRequest, CompletionResponse, FunctionTool } from "./model-client.js";
export { createOpenAiClient } from "./openai-client.js";
export type { OpenAiClientOptions } from "./openai-client.js";
export { createAnthropicClient, toAnthropicMessages } from "./anthropic-client.js";
export type { AnthropicClientOptions } from "./anthropic-client.js";
export { postJsonWithRetry } from "./http-retry.js";
export type { RetryOptions } from "./http-retry.js";
export { createTokenCounter, countTurn, openConversationCounter } from "./token-counter.js";
export type {
  TokenCounter,
  TurnCounts,
  ConversationCounter,
  ConversationCounterSource,
} from "./token-counter.js";
export { createCountingWorker, DEFAULT_COUNT_DEADLINE_MS } from "./counting-worker.js";
export type { CountingWorker } from "./counting-worker.js";
export { renderSystemPrompt } from "./system-prompt.js";
export { refusedDirectCallMessage } from "../envs/index.js";
export { runAgentEpisode, DEFAULT_AGENT_LIMITS, episodeIdOf, newRunId } from "./run-agent-episode.js";
export type { AgentLimits, AgentEpisodeOptions } from "./run-agent-episode.js";
export {
  recordOracle,
  createOraclePolicy,
  readTrajectories,
  createReplaySource,
} from "./scripted-policies.js";
export type { OracleRecording } from "./scripted-policies.js";
export { openAgentEpisode } from "./open-episode.js";
export type { OpenEpisodeOptions, OpenedEpisode } from "./open-episode.js";
