import { errorMessage } from "../core/index.js";
import type { ChatMessage, CompletionResponse, FunctionTool, ModelClient } from "../harness/index.js";
import type { JsonSchemaObject } from "../runtime/index.js";

/** Model calls and tokens spent by one stage of the pipeline. */
export interface StageUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export function emptyUsage(): StageUsage {
  return { calls: 0, promptTokens: 0, completionTokens: 0 };
}

export function addUsage(usage: StageUsage, response: CompletionResponse): void {
  usage.calls += 1;
  usage.promptTokens += response.usage?.promptTokens ?? 0;
  usage.completionTokens += response.usage?.completionTokens ?? 0;
}

/** A function tool of a pipeline session (not an environment tool): a schema and a host-side handler. */
export interface SessionTool {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
  /** Returns the text the model reads; throwing returns `Error: <message>` to the model. */
  handler(args: Record<string, unknown>): Promise<string> | string;
}

export interface ToolSessionOptions {
  client: ModelClient;
  system: string;
  user: string;
  tools: SessionTool[];
  maxTurns: number;
  maxTokensPerTurn: number;
  usage: StageUsage;
  temperature?: number;
  signal?: AbortSignal;
  /** Asked after every turn: true ends the session (e.g. a verdict was submitted). */
  isDone?: () => boolean;
}

export interface ToolSessionOutcome {
  turns: number;
  /** Why the session ended: `done` (isDone), `no_tool_call` (the model answered in text), `max_turns`. */
  endReason: "done" | "no_tool_call" | "max_turns";
  lastText: string;
  messages: ChatMessage[];
}

/**
 * A model session with function tools, the shape every pipeline role shares: send the conversation, run each
 * tool call the model makes on the host, append the results, repeat until the role is done, the model stops
 * calling tools, or the turn budget is spent. Bad arguments and failing handlers are results the model reads.
 */
export async function runToolSession(options: ToolSessionOptions): Promise<ToolSessionOutcome> {
  const tools: FunctionTool[] = options.tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const messages: ChatMessage[] = [
    { role: "system", content: options.system },
    { role: "user", content: options.user },
  ];
  let lastText = "";
  for (let turn = 1; turn <= options.maxTurns; turn += 1) {
    options.signal?.throwIfAborted();
    const response = await options.client.complete({
      messages,
      tools,
      maxTokens: options.maxTokensPerTurn,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    addUsage(options.usage, response);
    const message = response.message;
    messages.push(message);
    lastText = typeof message.content === "string" ? message.content : lastText;
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return { turns: turn, endReason: "no_tool_call", lastText, messages };
    for (const call of calls) {
      const tool = byName.get(call.function.name);
      let content: string;
      if (!tool) {
        content = `Error: unknown tool '${call.function.name}'. Tools: ${[...byName.keys()].join(", ")}`;
      } else {
        let args: unknown;
        try {
          args = JSON.parse(call.function.arguments || "{}");
        } catch {
          args = undefined;
        }
        if (typeof args !== "object" || args === null || Array.isArray(args)) {
          content = `Error: the arguments of ${tool.name} must be a JSON object`;
        } else {
          try {
            content = await tool.handler(args as Record<string, unknown>);
          } catch (error) {
            content = `Error: ${errorMessage(error)}`;
          }
        }
      }
      messages.push({ role: "tool", tool_call_id: call.id, content });
    }
    if (options.isDone?.()) return { turns: turn, endReason: "done", lastText, messages };
  }
  return { turns: options.maxTurns, endReason: "max_turns", lastText, messages };
}

/** A string argument, or an error the model reads naming the expected shape. */
export function stringArgument(args: Record<string, unknown>, name: string, maxChars: number): string {
  const value = args[name];
  if (typeof value !== "string") throw new Error(`argument '${name}' must be a string`);
  if (value.length > maxChars) throw new Error(`argument '${name}' is over ${maxChars} characters`);
  return value;
}
