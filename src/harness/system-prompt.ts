import {
  TERMINAL_TOOL_NAME,
  interfaceProfile,
  type HarnessMode,
  type InterfaceProfile,
} from "../envs/index.js";
import { PTC_TOOL_NAME, renderPtcToolDescription, type ToolSpec } from "../runtime/index.js";

export interface SystemPromptOptions {
  /** How the meta-tools are presented (default: progagent's own). */
  profile?: InterfaceProfile;
  /** Whether `terminal` is offered. */
  terminal?: boolean;
}

/** The system prompt of a mode. PTC documents the environment tools as Python; DTC offers them as functions. */
export function renderSystemPrompt(
  mode: HarnessMode,
  environmentTools: readonly ToolSpec[],
  timeoutSeconds: number,
  options: SystemPromptOptions = {},
): string {
  const profile = options.profile ?? interfaceProfile("default");
  if (profile.name === "paper")
    return renderPaperSystemPrompt(
      mode,
      environmentTools,
      timeoutSeconds,
      profile,
      options.terminal === true,
    );
  const common = [
    "You are an agent working in a business environment through tools. Complete the user's task fully and accurately.",
    "Inspect the data and the workspace documents before acting; documents may contain rules that change the answer.",
    `When the task is complete, call ${profile.claimDone.name} once with your final answer in exactly the requested format.`,
    ...(options.terminal
      ? [
          `${TERMINAL_TOOL_NAME} runs one ls, find or cat command on workspace paths (no shell) to list and read files.`,
        ]
      : []),
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

/**
 * The system prompt of the `paper` profile: the three meta-tools the paper's models were trained with, by
 * name and argument, then the environment tools as Python documentation (PTC: documentation only).
 */
function renderPaperSystemPrompt(
  mode: HarnessMode,
  environmentTools: readonly ToolSpec[],
  timeoutSeconds: number,
  profile: InterfaceProfile,
  terminal: boolean,
): string {
  const lines = [
    "You are an agent that completes the user's task in an environment through tools. Complete it fully and accurately.",
    "",
    "# Meta-tools",
  ];
  if (mode !== "dtc")
    lines.push(
      `- ${PTC_TOOL_NAME}(code): run Python code in a persistent, sandboxed kernel; call the environment tools from code as tools["name"](**kwargs). Only what the code prints is returned. Each execution is limited to ${timeoutSeconds} s.`,
    );
  if (terminal) lines.push(`- ${TERMINAL_TOOL_NAME}(command): run ls, find or cat inside the workspace.`);
  lines.push(
    `- ${profile.claimDone.name}(${profile.claimDoneArgument}): claim that the task is done, with your final answer as ${profile.claimDoneArgument}; the episode ends and the reward is returned.`,
  );
  if (mode === "dtc") {
    lines.push("", "Call the environment tools directly as functions.");
    return lines.join("\n");
  }
  lines.push(
    "",
    "# Environment tools",
    mode === "ptc"
      ? `The environment tools below are documentation: they cannot be called directly (a direct call is refused); call them from code with ${PTC_TOOL_NAME}.`
      : `Call the environment tools directly as functions, or from code with ${PTC_TOOL_NAME}.`,
    "",
    renderPtcToolDescription(environmentTools, { timeoutSeconds }),
  );
  return lines.join("\n");
}
