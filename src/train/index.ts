export { parseToolCalls } from "./parse-tool-calls.js";
export type { ParsedCompletion, ParsedToolCall, ParameterTypes } from "./parse-tool-calls.js";
export {
  createRolloutService,
  createEpisodeBodySchema,
  toolCallsBodySchema,
  completionBodySchema,
  DEFAULT_ROLLOUT_LIMITS,
  RolloutError,
} from "./rollout-service.js";
export type {
  RolloutService,
  RolloutServiceOptions,
  RolloutLimits,
  StepAnswer,
  ToolResultBody,
  CreateEpisodeBody,
  ToolCallsBody,
  CompletionBody,
} from "./rollout-service.js";
export { serveRolloutHttp, prometheusText } from "./rollout-http.js";
export type { RolloutHttpOptions, RolloutHttpServer } from "./rollout-http.js";
export { rolloutOpenApiDocument } from "./rollout-openapi.js";
export type { EpisodeTokenRenderer } from "./rollout-renderer.js";
