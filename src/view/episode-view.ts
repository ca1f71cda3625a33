import type { EpisodeSummary } from "./episode-summary.js";
import type { ValidationRowView } from "./validation-source.js";

/**
 * One episode as the page receives it. `trajectory` is the line as written (an eval trajectory, a rollout
 * record) or converted to the same shape (an SFT row), never validated beyond that: fields may be absent or of
 * another type (another schema version), and every string is model or tool output, shown as text only.
 */
export interface ViewEpisode {
  key: string;
  summary: EpisodeSummary;
  sourceLabel: string;
  /** The run was made with --reveal-verdict; otherwise check messages (expected values) were removed. */
  revealVerdict: boolean;
  warning: string | null;
  trajectory: Record<string, unknown> | null;
  validation: ValidationRowView | null;
}

type Message = Record<string, unknown>;

/** Removes the verifier's check messages (they hold expected values) unless the run revealed them. */
export function withVerdictPolicy(
  trajectory: Record<string, unknown>,
  revealVerdict: boolean,
): Record<string, unknown> {
  if (revealVerdict || !Array.isArray(trajectory.checks)) return trajectory;
  return {
    ...trajectory,
    checks: trajectory.checks.map((check: unknown) =>
      typeof check === "object" && check !== null ? { ...check, message: null } : check,
    ),
  };
}

const THINK = /^<think>\n?([\s\S]*?)\n?<\/think>\n*/;

/**
 * An SFT row's conversation in the trajectory's message shape: ms-swift's `tool_call` / `tool_response`
 * messages become the assistant's tool calls and tool messages, reasoning written as `<think>` moves to
 * `reasoning_content`; OpenAI and verl rows are already in that shape.
 */
export function sftRowAsTrajectory(row: Record<string, unknown>): Record<string, unknown> {
  const source = Array.isArray(row.messages) ? (row.messages as Message[]) : [];
  const messages: Message[] = [];
  let callIndex = 0;
  for (const message of source) {
    const role = message.role;
    if (role === "tool_call") {
      let last = messages[messages.length - 1];
      if (last?.role !== "assistant") {
        last = { role: "assistant", content: "" };
        messages.push(last);
      }
      const call = parseCall(message.content);
      const calls = Array.isArray(last.tool_calls) ? (last.tool_calls as unknown[]) : [];
      last.tool_calls = [
        ...calls,
        {
          id: `call_${callIndex++}`,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        },
      ];
      continue;
    }
    if (role === "tool_response") {
      messages.push({ role: "tool", content: message.content });
      continue;
    }
    if (
      role === "assistant" &&
      typeof message.content === "string" &&
      message.reasoning_content === undefined
    ) {
      const think = THINK.exec(message.content);
      if (think) {
        messages.push({
          ...message,
          reasoning_content: think[1],
          content: message.content.slice(think[0].length),
        });
        continue;
      }
    }
    messages.push(message);
  }
  let tools: unknown = row.tools;
  if (typeof tools === "string") {
    try {
      tools = JSON.parse(tools);
    } catch {
      tools = undefined;
    }
  }
  return {
    task: row.task,
    scale: row.scale,
    harness: row.harness,
    episodeId: row.episode_id,
    runId: row.run_id,
    messages,
    ...(Array.isArray(tools) ? { tools } : {}),
  };
}

function parseCall(content: unknown): { name: string; arguments: string } {
  if (typeof content !== "string") return { name: "?", arguments: "" };
  try {
    const value = JSON.parse(content) as { name?: unknown; arguments?: unknown };
    return {
      name: typeof value.name === "string" ? value.name : "?",
      arguments:
        typeof value.arguments === "string" ? value.arguments : JSON.stringify(value.arguments ?? {}),
    };
  } catch {
    return { name: "?", arguments: content };
  }
}
