import {
  interfaceProfile,
  modeToolSpecs,
  taskToolDefinitions,
  type HarnessMode,
  type InterfaceProfileName,
  type TaskDefinition,
} from "../envs/index.js";
import { renderSystemPrompt, type ChatMessage, type FunctionTool } from "../harness/index.js";
import { toFunctionTool, toolInputJsonSchema, type ToolSpec } from "../runtime/index.js";

/** The tool specs a task's episode exposes (the same fields the harness reads from the episode's endpoints). */
export function taskToolSpecs(task: TaskDefinition): ToolSpec[] {
  return taskToolDefinitions(task).map((definition) => ({
    name: definition.name,
    description: definition.description,
    inputSchema: toolInputJsonSchema(definition.inputSchema),
    kind: definition.kind,
  }));
}

/**
 * The system and user messages and the function tools the harness sends at the start of an episode, without
 * opening one: the same `modeToolSpecs` the episode driver offers and the same system prompt.
 */
export function taskPrompt(
  task: TaskDefinition,
  mode: HarnessMode,
  timeoutSeconds = 60,
  options: { interface?: InterfaceProfileName; terminal?: boolean } = {},
): { messages: ChatMessage[]; tools: FunctionTool[] } {
  const specs = taskToolSpecs(task);
  const profile = interfaceProfile(options.interface);
  const terminal = options.terminal ?? profile.terminalByDefault;
  const tools = modeToolSpecs(specs, {
    mode,
    timeoutMs: timeoutSeconds * 1000,
    ptcDocumentation: "system_prompt",
    interface: profile.name,
    terminal,
  });
  return {
    messages: [
      { role: "system", content: renderSystemPrompt(mode, specs, timeoutSeconds, { profile, terminal }) },
      { role: "user", content: task.instruction },
    ],
    tools: tools.map((spec) => toFunctionTool(spec)),
  };
}
