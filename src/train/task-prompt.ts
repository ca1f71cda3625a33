import { taskToolDefinitions, type HarnessMode, type TaskDefinition } from "../envs/index.js";
import {
  functionToolsFor,
  renderSystemPrompt,
  type ChatMessage,
  type FunctionTool,
} from "../harness/index.js";
import { toolInputJsonSchema, type ToolSpec } from "../runtime/index.js";

/** The tool specs a task's episode exposes (the same fields the harness reads from the episode's endpoints). */
export function taskToolSpecs(task: TaskDefinition): ToolSpec[] {
  return taskToolDefinitions(task).map((definition) => ({
    name: definition.name,
    description: definition.description,
    inputSchema: toolInputJsonSchema(definition.inputSchema),
    kind: definition.kind,
  }));
}

/** The system and user messages and the function tools the harness sends at the start of an episode. */
export function taskPrompt(
  task: TaskDefinition,
  mode: HarnessMode,
  timeoutSeconds = 60,
): { messages: ChatMessage[]; tools: FunctionTool[] } {
  const specs = taskToolSpecs(task);
  return {
    messages: [
      { role: "system", content: renderSystemPrompt(mode, specs, timeoutSeconds) },
      { role: "user", content: task.instruction },
    ],
    tools: functionToolsFor(mode, specs),
  };
}
