export { createChatRenderer } from "./chat-renderer.js";
export type {
  ChatRenderer,
  ChatRendererOptions,
  TemplateMessage,
  ToolArgumentsMode,
  ConversationInput,
  RenderInput,
  RenderedConversation,
  ObservationInput,
  RenderedObservation,
  AssistantMarkers,
} from "./chat-renderer.js";
export { loadTokenizer } from "./load-tokenizer.js";
export type { LoadedTokenizer } from "./load-tokenizer.js";
export {
  parsePythonJson,
  pythonJsonDumps,
  pythonFloatRepr,
  canonicalPythonJson,
  toPythonJsonValue,
} from "./python-json.js";
export type { PythonJsonValue } from "./python-json.js";
