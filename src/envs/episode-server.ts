import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../core/index.js";
import { mcpServerModule, mcpTypesModule, textResult, toMcpTool, type McpSession } from "../runtime/index.js";
import { CLAIM_DONE_TOOL_NAME } from "./claim-done.js";
import { createEpisodeDriver, type EpisodeDriver, type EpisodeDriverOptions } from "./episode-driver.js";
import type { Episode } from "./episode.js";

/** The name of the MCP prompt that carries the episode's task. */
export const EPISODE_PROMPT_NAME = "task";

/** What an MCP client needs to run the episode: the task's instruction and how to end it. */
export function episodeInstructions(driver: EpisodeDriver): string {
  return [
    driver.episode.instruction,
    "",
    `Work with the tools of this server. When the task is complete, call ${CLAIM_DONE_TOOL_NAME} once with your final answer in exactly the requested format; the episode then ends and the reply gives the reward.`,
  ].join("\n");
}

/**
 * An MCP server over one episode's driver: the task as the server's `instructions` and as the prompt
 * `task`, the mode's tools, and every call dispatched through the driver.
 */
export function createEpisodeMcpServer(driver: EpisodeDriver): Server {
  const task = driver.episode.task;
  const instructions = episodeInstructions(driver);
  const { Server } = mcpServerModule();
  const { CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema } =
    mcpTypesModule();
  const server = new Server(
    { name: `progagent-env-${task.id}`, version: "0.1.0" },
    { capabilities: { tools: {}, prompts: {} }, instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: driver.tools.map((spec) => toMcpTool(spec)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    try {
      const outcome = await driver.call(request.params.name, request.params.arguments ?? {}, {
        signal: extra.signal,
      });
      return outcome.result as CallToolResult;
    } catch (error) {
      return textResult(`Error: ${errorMessage(error)}`, true) as CallToolResult;
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [
      { name: EPISODE_PROMPT_NAME, description: `The task of this episode (${task.id}): ${task.summary}` },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request): GetPromptResult => {
    if (request.params.name !== EPISODE_PROMPT_NAME)
      throw new Error(
        `unknown prompt '${request.params.name}': this server has one prompt, '${EPISODE_PROMPT_NAME}'`,
      );
    return {
      description: `The task of this episode (${task.id})`,
      messages: [{ role: "user", content: { type: "text", text: instructions } }],
    };
  });
  return server;
}

/** An MCP session serving one episode; it owns the episode. */
export function episodeMcpSession(
  episode: Episode,
  mode: EpisodeDriverOptions["mode"],
  options: Omit<EpisodeDriverOptions, "mode" | "ptcDocumentation"> = {},
): McpSession {
  const driver = createEpisodeDriver(episode, { ...options, mode });
  return { server: createEpisodeMcpServer(driver), dispose: () => driver.dispose() };
}
