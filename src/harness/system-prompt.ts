import { CLAIM_DONE_SPEC, type HarnessMode } from "../envs/index.js";
import { PTC_TOOL_NAME, renderPtcToolDescription, type ToolSpec } from "../runtime/index.js";

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
