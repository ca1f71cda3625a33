import { z } from "zod";
import { toolInputJsonSchema, type ToolSpec } from "../runtime/index.js";
import type { Verdict } from "./define-task.js";

export const CLAIM_DONE_TOOL_NAME = "claim_done";

export const claimDoneInputSchema = z.object({
  answer: z
    .string()
    .describe("Your final answer, in exactly the format the task asks for (use an empty string if none)."),
});

/** The meta-tool that ends an episode and returns the verifier's reward. */
export const CLAIM_DONE_SPEC: ToolSpec = {
  name: CLAIM_DONE_TOOL_NAME,
  description:
    "Finish the task. Call it once, when all required changes are made, with your final answer in the format the task asks for. The episode ends and the result is returned.",
  inputSchema: toolInputJsonSchema(claimDoneInputSchema),
};

/** The verdict as the agent reads it. */
export function formatVerdict(verdict: Verdict): string {
  const lines = [`Episode finished. Reward: ${verdict.reward}`];
  for (const check of verdict.checks)
    lines.push(`- [${check.passed ? "pass" : "FAIL"}] ${check.id}: ${check.message}`);
  if (verdict.error) lines.push(`Verifier error: ${verdict.error}`);
  return lines.join("\n");
}
