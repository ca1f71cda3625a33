import { z } from "zod";
import { toolInputJsonSchema, type ToolSpec } from "../runtime/index.js";
import type { Verdict } from "./define-task.js";

export const CLAIM_DONE_TOOL_NAME = "claim_done";

const answerDescription =
  "Your final answer, in exactly the format the task asks for (use an empty string if none).";

export const claimDoneInputSchema = z.object({ answer: z.string().describe(answerDescription) });
/** The paper's runtime names the argument `action`; it means the same and is recorded as the answer. */
export const claimDoneActionInputSchema = z.object({ action: z.string().describe(answerDescription) });

/** The meta-tool that ends an episode and returns the verifier's reward. */
export const CLAIM_DONE_SPEC: ToolSpec = {
  name: CLAIM_DONE_TOOL_NAME,
  description:
    "Finish the task. Call it once, when all required changes are made, with your final answer in the format the task asks for. The episode ends and the result is returned.",
  inputSchema: toolInputJsonSchema(claimDoneInputSchema),
};

/**
 * The answer in claim_done's arguments: `answer` or `action` (the same meaning); a value that is not a
 * string is recorded as its JSON. Neither, or two different ones, is an error the agent can correct.
 */
export function claimDoneAnswer(
  args: Record<string, unknown>,
  shown: "answer" | "action" = "answer",
): { ok: true; answer: string } | { ok: false; text: string } {
  const other = shown === "answer" ? "action" : "answer";
  const given = (["answer", "action"] as const).filter((key) => args[key] !== undefined);
  const text = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));
  if (given.length === 0)
    return {
      ok: false,
      text: `Error: ${CLAIM_DONE_TOOL_NAME} expects {"${shown}": string} with your final answer ("${other}" is accepted too).`,
    };
  if (given.length === 2 && text(args.answer) !== text(args.action))
    return {
      ok: false,
      text: `Error: ${CLAIM_DONE_TOOL_NAME} got different "answer" and "action"; send one of them.`,
    };
  return { ok: true, answer: text(args[given[0]!]) };
}

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
