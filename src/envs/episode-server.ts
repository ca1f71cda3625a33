import { z } from "zod";
import {
  createMcpToolServer,
  ptcServedTool,
  textResult,
  type McpSession,
  type ServedTool,
} from "../runtime/index.js";
import { CLAIM_DONE_SPEC, claimDoneInputSchema, formatVerdict } from "./claim-done.js";
import type { Episode } from "./episode.js";

export const HARNESS_MODES = ["dtc", "ptc", "hybrid"] as const;
export const harnessModeSchema = z.enum(HARNESS_MODES);
export type HarnessMode = z.infer<typeof harnessModeSchema>;

/**
 * The tools one episode offers in a mode: DTC the task's tools, PTC `programmatic_tool_call`, hybrid both;
 * `claim_done` always.
 */
export function episodeServedTools(
  episode: Episode,
  mode: HarnessMode,
  options: { timeoutMs?: number } = {},
): ServedTool[] {
  const over = textResult("The episode is over: claim_done was already called.", true);
  const tools: ServedTool[] = [];
  if (mode !== "ptc") {
    for (const endpoint of episode.endpoints) {
      tools.push({
        spec: endpoint,
        call: async (args, callOptions) =>
          episode.finished ? over : await episode.callTool(endpoint.name, args, callOptions),
      });
    }
  }
  if (mode !== "dtc") {
    const ptc = ptcServedTool(
      { router: episode.router, run: (code, runOptions) => episode.execute(code, runOptions) },
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    );
    tools.push({
      spec: ptc.spec,
      call: async (args, callOptions) => (episode.finished ? over : await ptc.call(args, callOptions)),
    });
  }
  tools.push({
    spec: CLAIM_DONE_SPEC,
    async call(args) {
      if (episode.finished) return over;
      const parsed = claimDoneInputSchema.safeParse(args);
      if (!parsed.success)
        return textResult('Invalid arguments for claim_done: expected {"answer": string}.', true);
      return textResult(formatVerdict(await episode.finish(parsed.data.answer)));
    },
  });
  return tools;
}

/** An MCP session serving one episode. */
export function episodeMcpSession(
  episode: Episode,
  mode: HarnessMode,
  options: { timeoutMs?: number } = {},
): McpSession {
  const tools = episodeServedTools(episode, mode, options);
  return {
    server: createMcpToolServer({
      name: `progagent-env-${episode.task.id}`,
      version: "0.1.0",
      tools: () => tools,
    }),
    dispose: () => episode.dispose(),
  };
}
