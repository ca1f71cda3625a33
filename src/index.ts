/**
 * The public library entry of progagent (`import { ... } from "progagent"`): the pieces users compose to
 * build their own environments, harnesses and evaluations. Everything here is re-exported by name from a
 * folder's own `index.ts`; what is not listed is internal and may change.
 */

// core: errors with stable codes
export { ProgAgentError, ERROR_CODES, errorMessage, exitCodeForError } from "./core/index.js";
export type { ErrorCategory, JsonValue, ProgAgentErrorOptions } from "./core/index.js";

// kernel: the sandboxed persistent Python kernel and its warm pool
export { createKernel, createKernelPool, DEFAULT_LIMITS, assertSandboxAvailable } from "./kernel/index.js";
export type {
  Kernel,
  KernelOptions,
  KernelPool,
  KernelPoolOptions,
  KernelToolSpec,
  KernelToolHandler,
  KernelToolOutcome,
  ExecutionResult,
  ExecutionStatus,
  ExecuteOptions,
  ResourceLimits,
} from "./kernel/index.js";

// runtime: tools, their renderings, the PTC session and the MCP server
export {
  defineTool,
  bindTool,
  toolInputJsonSchema,
  ToolFailure,
  textResult,
  renderPythonSignature,
  renderPythonDoc,
  toFunctionTool,
  toMcpTool,
  decodeToolResult,
  createToolRouter,
  connectUpstreams,
  readMcpConfig,
  mcpConfigSchema,
  PTC_TOOL_NAME,
  createPtcSession,
  renderPtcToolDescription,
  createMcpToolServer,
  serveStdio,
  serveHttp,
  ptcServedTool,
  programmaticSessionFactory,
} from "./runtime/index.js";
export type {
  ToolDefinition,
  JsonSchemaObject,
  ToolSpec,
  ToolContent,
  ToolCallResult,
  ToolCallOptions,
  ToolEndpoint,
  DecodedToolResult,
  ToolRouter,
  ToolRouterOptions,
  ToolCallRecord,
  McpConfig,
  UpstreamConnection,
  ConnectOptions,
  PtcSession,
  PtcSessionOptions,
  PtcDescriptionOptions,
  ServedTool,
  McpSession,
  HttpServerHandle,
  ProgrammaticServerOptions,
  PtcRunner,
} from "./runtime/index.js";

// envs: domains, tasks, scales, instances, episodes, validation
export {
  SCALES,
  scaleSchema,
  parseScaleList,
  defineDomain,
  defineTask,
  defineSuite,
  check,
  diffTable,
  tableNames,
  tableContent,
  checkOtherTablesUnchanged,
  parseAnswerNumber,
  parseAnswerJson,
  parseAnswerList,
  nearlyEqual,
  WORKSPACE_READ_TOOLS,
  WORKSPACE_WRITE_TOOL,
  REFERENCE_DATE,
  buildInstance,
  createGenerateContext,
  CLAIM_DONE_TOOL_NAME,
  createEpisode,
  runCells,
  validateTaskInstance,
  computeScaleStats,
  HARNESS_MODES,
  harnessModeSchema,
  createEpisodeDriver,
  refusedDirectCallMessage,
  createEpisodeMcpServer,
  episodeMcpSession,
  episodeInstructions,
  INTERFACE_PROFILES,
  interfaceProfile,
  TERMINAL_TOOL_NAME,
  parseTerminalCommand,
  PYTHON_WORKSPACE_HELPERS,
  cachedStatement,
  pagingFields,
  listPage,
  pageEnvelope,
  paginateItems,
  getRow,
  allRows,
  requireRow,
  defineIdFormat,
  toCsv,
  parseCsv,
  renderMarkdown,
  toJsonDocument,
  checkStateDiff,
  withTransientFailures,
  withSilentFailures,
} from "./envs/index.js";
export type {
  Scale,
  DomainDefinition,
  DomainTool,
  GenerateContext,
  ToolContext,
  TaskDefinition,
  SuiteDefinition,
  VerifyContext,
  StateView,
  Check,
  Verdict,
  NearMiss,
  Row,
  TableDiff,
  Instance,
  InstanceStats,
  InstanceManifest,
  Episode,
  EpisodeOptions,
  CellsRun,
  DirectCall,
  ValidationRow,
  ValidateOptions,
  ScaleStatsRow,
  HarnessMode,
  EpisodeDriver,
  EpisodeDriverOptions,
  DriverCallOutcome,
  InterfaceProfile,
  InterfaceProfileName,
} from "./envs/index.js";

// harness: the agent loop, model clients, scripted policies, trajectories
export {
  runAgentEpisode,
  DEFAULT_AGENT_LIMITS,
  createOpenAiClient,
  createAnthropicClient,
  createTokenCounter,
  renderSystemPrompt,
  recordOracle,
  createOraclePolicy,
  createReplaySource,
  readTrajectories,
  trajectorySchema,
  END_REASONS,
} from "./harness/index.js";
export type {
  AgentLimits,
  AgentEpisodeOptions,
  ModelClient,
  CompletionRequest,
  CompletionResponse,
  FunctionTool,
  OpenAiClientOptions,
  AnthropicClientOptions,
  TokenCounter,
  OracleRecording,
  Trajectory,
  EndReason,
  ChatMessage,
} from "./harness/index.js";

// eval: the runner, metrics and reports
export {
  runEvaluation,
  clientFactoryFor,
  isModelError,
  runConfigSchema,
  computeMetrics,
  summarizeByHarnessAndScale,
  passAtK,
  writeReports,
  renderMarkdownReport,
  renderHtmlReport,
  formatSummaryTable,
  resultsFileSchema,
} from "./eval/index.js";
export type {
  ClientFactory,
  EvaluationOptions,
  EvaluationOutcome,
  EvaluationPlan,
  ModelSpecOptions,
  RunConfig,
  MetricsRow,
  SummaryRow,
  ResultsFile,
  WriteReportsOptions,
  WrittenReports,
} from "./eval/index.js";

// chat templates: exact rendering, token ids and loss masks (Qwen3 by default, any HF tokenizer folder)
export { createChatRenderer, loadTokenizer } from "./chat-template/index.js";
export type {
  ChatRenderer,
  RenderedConversation,
  RenderedObservation,
  TemplateMessage,
} from "./chat-template/index.js";

// train: the rollout service for RL trainers, tool-call parsing of raw completions
export {
  createRolloutService,
  serveRolloutHttp,
  parseToolCalls,
  rolloutOpenApiDocument,
} from "./train/index.js";
export type { RolloutService, RolloutServiceOptions, RolloutHttpOptions, StepAnswer } from "./train/index.js";

// suite: the built-in tasks
export { loadSuite, loadBuiltinDomain, SUITE_DOMAINS } from "./suite/index.js";
