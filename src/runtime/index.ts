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
  pythonType,
  pythonParameters,
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
