export {
  defineTool,
  bindTool,
  toolInputJsonSchema,
  describeValidationError,
  ToolFailure,
} from "./define-tool.js";
export type { ToolDefinition } from "./define-tool.js";
export {
  pythonAttributeName,
  pythonIdentifier,
  pythonLiteral,
  pythonType,
  pythonParameters,
  rangeNote,
  renderPythonSignature,
  renderPythonDocstring,
  renderPythonDoc,
  toFunctionTool,
  toMcpTool,
} from "./render-tool.js";
export type { PythonParameter } from "./render-tool.js";
export { textResult } from "./tool-types.js";
export type {
  JsonSchemaObject,
  ToolSpec,
  ToolContent,
  ToolCallResult,
  ToolCallOptions,
  ToolEndpoint,
} from "./tool-types.js";
export { decodeToolResult, looksLikeUnflaggedError, resultText } from "./decode-tool-result.js";
export type { DecodedToolResult } from "./decode-tool-result.js";
export { createToolRouter } from "./tool-router.js";
export type { ToolRouter, ToolRouterOptions, ToolCallRecord } from "./tool-router.js";
export { connectUpstreams, readMcpConfig, mcpConfigSchema } from "./upstream.js";
export type { McpConfig, UpstreamConnection, ConnectOptions } from "./upstream.js";
export { PTC_TOOL_NAME, ptcInputSchema, createPtcSession, renderPtcToolDescription } from "./ptc-session.js";
export type { PtcSession, PtcSessionOptions, PtcDescriptionOptions } from "./ptc-session.js";
export {
  createMcpToolServer,
  serveStdio,
  serveHttp,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
} from "./mcp-server.js";
export type { ServedTool, McpSession, HttpServerHandle, HttpServeOptions } from "./mcp-server.js";
export { createStdioServerTransport, MAX_REQUEST_BYTES } from "./stdio-server-transport.js";
export { mcpServerModule, mcpTypesModule } from "./mcp-sdk.js";
export type { StdioServerTransportOptions } from "./stdio-server-transport.js";
export { ptcServedTool, programmaticSessionFactory, MAX_CODE_BYTES } from "./programmatic-server.js";
export type { ProgrammaticServerOptions, PtcRunner } from "./programmatic-server.js";
