/** JSON Schema of a tool's input, as MCP and OpenAI function calling carry it. */
export interface JsonSchemaObject {
  type?: string | string[];
  properties?: Record<string, JsonSchemaObject>;
  required?: string[];
  description?: string;
  [key: string]: unknown;
}

/** What every tool looks like to the runtime, whatever its origin (in-process definition or upstream MCP server). */
export interface ToolSpec {
  /** The name the model sees, identical in every harness. */
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  /** read tools never change state; write tools may. */
  kind?: "read" | "write";
  /** JSON Schema of the structured result, when the tool declares one (MCP `outputSchema`). */
  outputSchema?: JsonSchemaObject;
  /** The upstream server this tool came from, if any. */
  server?: string;
}

export interface ToolContent {
  type: string;
  text?: string;
  [key: string]: unknown;
}

/** The MCP CallToolResult shape; in-process tools produce it too, so decoding has one path. */
export interface ToolCallResult {
  content: ToolContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolCallOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

/** A callable tool: its spec plus a call that validates, runs under a deadline and never throws for agent mistakes. */
export interface ToolEndpoint extends ToolSpec {
  call(args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolCallResult>;
  /**
   * The same call, answered before it returns when the handler is synchronous (in-process tools): the result
   * itself, or a promise when the handler is asynchronous. The router then skips the deadline timer, the
   * promise chain and the event-loop turns of a call that is over before any timer could fire. A wrapper that
   * replaces `call` (`{ ...endpoint, call }`) must replace or drop `callNow` too, or the router bypasses it.
   */
  callNow?(args: Record<string, unknown>, options: ToolCallOptions): ToolCallResult | Promise<ToolCallResult>;
}

export function textResult(text: string, isError = false): ToolCallResult {
  return isError
    ? { content: [{ type: "text", text }], isError: true }
    : { content: [{ type: "text", text }] };
}
