import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../core/index.js";
import { textResult, toMcpTool, type McpSession } from "../runtime/index.js";
import { createEpisodeDriver, type EpisodeDriver, type EpisodeDriverOptions } from "./episode-driver.js";
import type { Episode } from "./episode.js";

/** An MCP server over one episode's driver: it lists the mode's tools and dispatches every call through the driver. */
export function createEpisodeMcpServer(driver: EpisodeDriver): Server {
  const server = new Server(
    { name: `progagent-env-${driver.episode.task.id}`, version: "0.1.0" },
    { capabilities: { tools: {} } },
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
