export { parseToolCalls } from "./parse-tool-calls.js";
export type { ParsedCompletion, ParsedToolCall, ParameterTypes, ParseLimits } from "./parse-tool-calls.js";
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
export { startTokenizerWorkers } from "./rollout-tokenizer.js";
export type { RolloutTokenizer, TokenizerWorkerOptions, ObservationRequest } from "./rollout-tokenizer.js";
export {
  exportSft,
  SFT_FORMATS,
  DROP_REASONS,
  EXPORT_MANIFEST_SCHEMA_VERSION,
  tokenStats,
  siblingPath,
} from "./export-sft.js";
export type { SftFormat, SftExportOptions, SftExportSummary, DropReason, TokenStats } from "./export-sft.js";
export { exportRl, RL_FORMATS, RL_AGENT_NAME } from "./export-rl.js";
export type { RlFormat, RlExportOptions, RlExportSummary } from "./export-rl.js";
export { readRuns } from "./read-runs.js";
export type { SourcedTrajectory, RunSummary } from "./read-runs.js";
export { splitTasks } from "./split-by-task.js";
export type { Split } from "./split-by-task.js";
export { sftConversation } from "./sft-conversation.js";
export type { SftConversation } from "./sft-conversation.js";
export { toMsSwiftRow, msSwiftText } from "./ms-swift-format.js";
export type { MsSwiftRow, MsSwiftDifference, MsSwiftRlRow } from "./ms-swift-format.js";
export { taskPrompt, taskToolSpecs } from "./task-prompt.js";
export { createAtomicFileSet } from "./atomic-files.js";
export type { AtomicFileSet } from "./atomic-files.js";
export { formatSftSummary, formatRlSummary } from "./format-summary.js";
