import { INTERFACE_PROFILES, type InterfaceProfileName } from "./names.js";
import { z } from "zod";
import { toolInputJsonSchema, type ToolSpec } from "../runtime/index.js";
import { CLAIM_DONE_SPEC, CLAIM_DONE_TOOL_NAME, claimDoneActionInputSchema } from "./claim-done.js";
import { TERMINAL_TOOL_NAME, terminalInputSchema } from "./terminal.js";

/**
 * How the meta-tools are presented. `default` is progagent's own; `paper` renders them as the authors'
 * runtime presented them to the models it trained, as far as the paper and its code record it:
 * `programmatic_tool_call{code}`, `terminal{command}` (ls, find, cat in the workspace) and
 * `claim_done{action}`, environment tools documented but not callable in PTC mode, 10 s per execution in
 * training and 60 s in evaluation.
 */
export { INTERFACE_PROFILES, type InterfaceProfileName };
export const interfaceProfileNameSchema = z.enum(INTERFACE_PROFILES);

export interface InterfaceProfile {
  readonly name: InterfaceProfileName;
  /** The argument claim_done shows; both `answer` and `action` are accepted in every profile. */
  readonly claimDoneArgument: "answer" | "action";
  readonly claimDone: ToolSpec;
  readonly terminal: ToolSpec;
  /** Whether terminal is offered without being asked for (the paper's models always had it). */
  readonly terminalByDefault: boolean;
  /** Per-execution deadlines. */
  readonly executionTimeoutMs: { readonly training: number; readonly evaluation: number };
}

const DEFAULT_PROFILE: InterfaceProfile = {
  name: "default",
  claimDoneArgument: "answer",
  claimDone: CLAIM_DONE_SPEC,
  terminal: {
    name: TERMINAL_TOOL_NAME,
    description:
      "List and read workspace files: one ls, find or cat command with ordinary flags on paths inside the workspace. There is no shell (no pipes, redirection, ';', '&&', '$(...)' or globs); the output is returned like a code execution's.",
    inputSchema: toolInputJsonSchema(terminalInputSchema),
  },
  terminalByDefault: false,
  executionTimeoutMs: { training: 60_000, evaluation: 60_000 },
};

const PAPER_PROFILE: InterfaceProfile = {
  name: "paper",
  claimDoneArgument: "action",
  claimDone: {
    name: CLAIM_DONE_TOOL_NAME,
    description:
      "Claim that the task is done. Call it once at the end with your final answer as `action`; the episode ends and the reward is returned.",
    inputSchema: toolInputJsonSchema(claimDoneActionInputSchema),
  },
  terminal: {
    name: TERMINAL_TOOL_NAME,
    description:
      "Run a terminal command in the workspace. Only ls, find and cat are available, on paths inside the workspace.",
    inputSchema: toolInputJsonSchema(terminalInputSchema),
  },
  terminalByDefault: true,
  executionTimeoutMs: { training: 10_000, evaluation: 60_000 },
};

export function interfaceProfile(name: InterfaceProfileName = "default"): InterfaceProfile {
  return name === "paper" ? PAPER_PROFILE : DEFAULT_PROFILE;
}
