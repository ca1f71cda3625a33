import {
  canonicalPythonJson,
  parsePythonJson,
  pythonJsonDumps,
  toPythonJsonValue,
} from "../chat-template/index.js";
import type { SftConversation } from "./sft-conversation.js";

/** One ms-swift agent SFT row: tools as a JSON string, tool_call / tool_response roles, reasoning in content. */
export interface MsSwiftRow {
  tools: string;
  messages: Array<{ role: "system" | "user" | "assistant" | "tool_call" | "tool_response"; content: string }>;
}

/** Where an ms-swift row cannot render like the model's own template, and why. */
export interface MsSwiftDifference {
  message: number;
  reason: "arguments_reserialised" | "arguments_unparseable";
  detail: string;
}

/** Qwen3's template puts reasoning in a think block; with no reasoning, only the last message gets an empty one. */
function thinkBlock(reasoning: string | undefined, isLast: boolean): string {
  if (reasoning) return `<think>\n${reasoning.replace(/^\n+|\n+$/g, "")}\n</think>\n\n`;
  return isLast ? "<think>\n\n</think>\n\n" : "";
}

/**
 * Converts a conversation to ms-swift's agent format so that ms-swift's Qwen3 template with the `hermes` agent
 * template (and `--add_non_thinking_prefix false`) renders the text Qwen3's own chat template renders:
 * - hermes joins assistant text and the following tool call with no separator where Qwen3 puts `\n`, so the
 *   `\n` is appended to the assistant content;
 * - reasoning goes into content as Qwen3 renders it (`<think>\n...\n</think>\n\n`), and the last assistant turn
 *   without reasoning gets the empty think block Qwen3 gives it;
 * - ms-swift re-serialises every call as json.dumps({"name", "arguments": json.loads(arguments)}): calls whose
 *   argument string is not already in that form train on the re-serialised text, and are reported.
 */
export function toMsSwiftRow(conversation: SftConversation): {
  row: MsSwiftRow;
  differences: MsSwiftDifference[];
} {
  const messages: MsSwiftRow["messages"] = [];
  const differences: MsSwiftDifference[] = [];
  const lastAssistant = conversation.messages.map((message) => message.role).lastIndexOf("assistant");
  conversation.messages.forEach((message, index) => {
    if (message.role === "system" || message.role === "user") {
      messages.push({ role: message.role, content: message.content ?? "" });
      return;
    }
    if (message.role === "tool") {
      messages.push({ role: "tool_response", content: message.content ?? "" });
      return;
    }
    // Qwen3 strips leading newlines of content after a think block.
    const think = thinkBlock(message.reasoning_content, index === lastAssistant);
    const text = think ? (message.content ?? "").replace(/^\n+/, "") : (message.content ?? "");
    const calls = message.tool_calls ?? [];
    const content = think + text + (calls.length > 0 && text.length > 0 ? "\n" : "");
    if (content.length > 0 || calls.length === 0) messages.push({ role: "assistant", content });
    for (const call of calls) {
      const canonical = canonicalPythonJson(call.function.arguments);
      if (canonical === undefined) {
        differences.push({
          message: index,
          reason: "arguments_unparseable",
          detail: `${call.function.name}: arguments are not JSON; ms-swift falls back to ast.literal_eval or fails`,
        });
      } else if (canonical !== call.function.arguments) {
        differences.push({
          message: index,
          reason: "arguments_reserialised",
          detail: `${call.function.name}: ms-swift trains on ${canonical.slice(0, 80)} instead of the model's ${call.function.arguments.slice(0, 80)}`,
        });
      }
      const argumentsValue =
        canonical === undefined ? call.function.arguments : parsePythonJson(call.function.arguments);
      const payload = new Map([
        ["name", toPythonJsonValue(call.function.name)],
        ["arguments", argumentsValue],
      ]);
      messages.push({ role: "tool_call", content: pythonJsonDumps(payload) });
    }
  });
  return { row: { tools: JSON.stringify(conversation.tools), messages }, differences };
}

/**
 * The text ms-swift renders for a row with its Qwen3 template and the hermes agent template (swift backend,
 * training), as read from ms-swift's source (swift/template/base.py, swift/agent_template/hermes.py): used to
 * check that the export trains what the model's own template renders.
 */
export function msSwiftText(row: MsSwiftRow): string {
  const tools = (JSON.parse(row.tools) as unknown[]).map((tool) => pythonJsonDumps(toPythonJsonValue(tool)));
  const system = row.messages[0]?.role === "system" ? row.messages[0].content : "";
  const rest = row.messages[0]?.role === "system" ? row.messages.slice(1) : row.messages;
  let text =
    `<|im_start|>system\n${system}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n` +
    `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${tools.join("\n")}\n</tools>\n\n` +
    `For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n` +
    `<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n`;
  // Merge consecutive tool_call messages into the assistant turn before them (no separator), as ms-swift does.
  type Turn = { role: "user" | "assistant" | "tool"; parts: string[] };
  const turns: Turn[] = [];
  for (let index = 0; index < rest.length; index += 1) {
    const message = rest[index]!;
    if (message.role === "tool_call") {
      const calls: string[] = [];
      while (index < rest.length && rest[index]!.role === "tool_call") {
        const parsed = parsePythonJson(rest[index]!.content);
        calls.push(`<tool_call>\n${pythonJsonDumps(parsed)}\n</tool_call>`);
        index += 1;
      }
      index -= 1;
      const previous = turns.at(-1);
      if (previous?.role === "assistant") previous.parts.push(calls.join("\n"));
      else turns.push({ role: "assistant", parts: [calls.join("\n")] });
    } else if (message.role === "tool_response") {
      const previous = turns.at(-1);
      const block = `<tool_response>\n${message.content}\n</tool_response>`;
      if (previous?.role === "tool") previous.parts.push(block);
      else turns.push({ role: "tool", parts: [block] });
    } else {
      turns.push({ role: message.role === "assistant" ? "assistant" : "user", parts: [message.content] });
    }
  }
  for (const turn of turns) {
    if (turn.role === "user")
      text += `<|im_start|>user\n${turn.parts.join("")}<|im_end|>\n<|im_start|>assistant\n`;
    else if (turn.role === "tool")
      text += `<|im_start|>user\n${turn.parts.join("\n")}<|im_end|>\n<|im_start|>assistant\n`;
    else {
      text += turn.parts.join("");
      // chat_sep between rounds, the suffix after the last one: both <|im_end|>\n; before tool responses the
      // hermes template opens the user turn itself, after the same <|im_end|>\n.
      text += "<|im_end|>\n";
    }
  }
  return text;
}

/**
 * One ms-swift GRPO row (`export rl --format ms-swift`): the episode's opening messages and tools (the trainer
 * encodes the rollout's messages with the row's tools, so they must be the episode's), `extra_info` naming the
 * instance (the plugin's scheduler opens the episode from it) and `env_config` naming the plugin's gym Env.
 */
export interface MsSwiftRlRow {
  messages: Array<{ role: string; content: string }>;
  tools: string;
  extra_info: { task: string; scale: string; seed: number; harness: string; split: string; index: number };
  env_config: { name: "progagent" };
}
