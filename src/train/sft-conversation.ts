import type { TemplateMessage } from "../chat-template/index.js";
import type { FunctionTool, Trajectory } from "../harness/index.js";

/** One SFT example: the conversation a trajectory holds, ready for a chat template. */
export interface SftConversation {
  messages: TemplateMessage[];
  tools: FunctionTool[];
  /** Whether any assistant turn carries reasoning (the row's enable_thinking). */
  thinking: boolean;
}

/**
 * The conversation of a trajectory for training: system, user, then each assistant turn (content, reasoning, the
 * exact tool-call argument strings) and the tool results. Messages after the last assistant turn (the
 * claim_done verdict) are dropped: they are not trained and would leak the verifier's checks.
 */
export function sftConversation(trajectory: Trajectory, tools: FunctionTool[]): SftConversation {
  let last = trajectory.messages.length - 1;
  while (last >= 0 && trajectory.messages[last]!.role !== "assistant") last -= 1;
  const messages: TemplateMessage[] = trajectory.messages.slice(0, last + 1).map((message) => {
    const out: TemplateMessage = { role: message.role, content: message.content ?? "" };
    if (message.role === "assistant" && message.reasoning_content)
      out.reasoning_content = message.reasoning_content;
    if (message.tool_calls && message.tool_calls.length > 0)
      out.tool_calls = message.tool_calls.map((call) => ({
        id: call.id,
        type: "function" as const,
        function: { name: call.function.name, arguments: call.function.arguments },
      }));
    if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
    return out;
  });
  return {
    messages,
    tools,
    thinking: messages.some((message) => message.reasoning_content !== undefined),
  };
}
