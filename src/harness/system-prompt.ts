import { CLAIM_DONE_SPEC, type HarnessMode } from "../envs/index.js";
import {
  PTC_TOOL_NAME,
  renderPtcToolDescription,
  toFunctionTool,
  toolInputJsonSchema,
  ptcInputSchema,
  type ToolSpec,
} from "../runtime/index.js";
import type { FunctionTool } from "./model-client.js";

/** The system prompt of a mode. PTC documents the environment tools as Python; DTC offers them as functions. */
export function renderSystemPrompt(
  mode: HarnessMode,
  environmentTools: readonly ToolSpec[],
  timeoutSeconds: number,
): string {
  const common = [
    "You are an agent working in a business environment through tools. Complete the user's task fully and accurately.",
    "Inspect the data and the workspace documents before acting; documents may contain rules that change the answer.",
    `When the task is complete, call ${CLAIM_DONE_SPEC.name} once with your final answer in exactly the requested format.`,
  ];
  if (mode === "dtc") return common.join("\n");
  const ptc = [
    "",
    `Use ${PTC_TOOL_NAME} to run Python code that calls the environment tools; process data in code and print only what you need.`,
    mode === "hybrid"
      ? "You may also call the environment tools directly as functions."
      : "The environment tools cannot be called directly; call them from code.",
    "",
    renderPtcToolDescription(environmentTools, { timeoutSeconds }),
  ];
  return [...common, ...ptc].join("\n");
}

/** The function tools a mode offers the model. */
export function functionToolsFor(mode: HarnessMode, environmentTools: readonly ToolSpec[]): FunctionTool[] {
  const tools: FunctionTool[] = [];
  if (mode !== "ptc") tools.push(...environmentTools.map((spec) => toFunctionTool(spec)));
  if (mode !== "dtc") {
    tools.push(
      toFunctionTool({
        name: PTC_TOOL_NAME,
        description:
          "Run Python code in the persistent sandboxed kernel (see the system prompt for the available tools).",
        inputSchema: toolInputJsonSchema(ptcInputSchema),
      }),
    );
  }
  tools.push(toFunctionTool(CLAIM_DONE_SPEC));
  return tools;
}

/** The message a PTC-mode agent gets for a direct call to an environment tool. */
export function refusedDirectCallMessage(name: string, argumentsJson: string): string {
  let example = "...";
  try {
    const parsed = JSON.parse(argumentsJson) as Record<string, unknown>;
    example = Object.entries(parsed)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(", ");
  } catch {
    // keep the placeholder
  }
  return (
    `Error: '${name}' cannot be called directly in this mode. Call it from code with ${PTC_TOOL_NAME}, for example:\n` +
    `result = tools["${name}"](${example})\nprint(result)`
  );
}
