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

/**
 * The verdict as the agent reads it: the reward and which checks passed or failed. Check messages often carry
 * the expected values (an answer key), so they are shown only with `reveal` (debugging); the trajectory keeps
 * the full verdict either way.
 */
export function formatVerdict(verdict: Verdict, options: { reveal?: boolean } = {}): string {
  const lines = [`Episode finished. Reward: ${verdict.reward}`];
  for (const check of verdict.checks) {
    const mark = `- [${check.passed ? "pass" : "FAIL"}] ${check.id}`;
    lines.push(options.reveal ? `${mark}: ${check.message}` : mark);
  }
  if (verdict.error)
    lines.push(options.reveal ? `Verifier error: ${verdict.error}` : "Verifier error (recorded).");
  return lines.join("\n");
}
