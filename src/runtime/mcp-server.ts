import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, errorMessage } from "../core/index.js";
import { toMcpTool } from "./render-tool.js";
import { textResult, type ToolCallResult, type ToolSpec } from "./tool-types.js";

/** A tool served over MCP: its spec and a call that turns any failure into a readable result. */
export interface ServedTool {
  spec: ToolSpec;
  call(args: Record<string, unknown>, options: { signal: AbortSignal }): Promise<ToolCallResult>;
}

/** One MCP session's resources: its server and whatever it owns (a kernel, an episode). */
export interface McpSession {
  server: Server;
  dispose(): Promise<void>;
}

/** A low-level MCP server listing and calling the given tools; it keeps serving after any bad request. */
export function createMcpToolServer(options: {
  name: string;
  version: string;
  tools: () => readonly ServedTool[];
}): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: options.tools().map((tool) => toMcpTool(tool.spec)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tools = options.tools();
    const tool = tools.find((candidate) => candidate.spec.name === request.params.name);
    if (!tool) {
      return textResult(
        `Unknown tool '${request.params.name}'. Available tools: ${tools.map((candidate) => candidate.spec.name).join(", ")}`,
        true,
      ) as CallToolResult;
    }
    try {
      return (await tool.call(request.params.arguments ?? {}, { signal: extra.signal })) as CallToolResult;
    } catch (error) {
      return textResult(`Error: ${errorMessage(error)}`, true) as CallToolResult;
    }
  });
  return server;
}

/** Serves one session over stdio until the client disconnects or the signal aborts. */
export async function serveStdio(
  createSession: () => Promise<McpSession>,
  signal?: AbortSignal,
): Promise<void> {
  const session = await createSession();
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await session.server.connect(transport);
  await closed;
  await session.server.close().catch(() => undefined);
  await session.dispose();
}

export interface HttpServerHandle {
  readonly url: string;
  readonly sessionCount: number;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Serves Streamable HTTP on 127.0.0.1 at /mcp. Every MCP session gets its own resources from
 * createSession (one kernel each), ended on DELETE, on idle timeout, or when the server closes.
 */
export async function serveHttp(
  createSession: () => Promise<McpSession>,
  options: { port: number; host?: string; idleTimeoutMs?: number },
): Promise<HttpServerHandle> {
  const logger = createLogger();
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; session: McpSession; lastUsed: number }
  >();
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const endSession = async (id: string): Promise<void> => {
    const entry = sessions.get(id);
    if (!entry) return;
    sessions.delete(id);
    await entry.transport.close().catch(() => undefined);
    await entry.session
      .dispose()
      .catch((error: unknown) => logger.warn(`disposing session ${id}: ${errorMessage(error)}`));
  };
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, entry] of sessions) if (now - entry.lastUsed > idleTimeoutMs) void endSession(id);
    },
    Math.min(idleTimeoutMs, 60_000),
  );
  sweeper.unref();

  const readBody = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > 8 * 1024 * 1024) throw new Error("request body larger than 8 MiB");
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString("utf8");
    return text.length > 0 ? (JSON.parse(text) as unknown) : undefined;
  };

  const sendError = (response: ServerResponse, status: number, message: string): void => {
    if (response.headersSent) return;
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== "/mcp") return sendError(response, 404, "not found: the MCP endpoint is /mcp");
    const sessionId = request.headers["mcp-session-id"];
    const id = Array.isArray(sessionId) ? sessionId[0] : sessionId;
    const body = request.method === "POST" ? await readBody(request) : undefined;
    if (id && sessions.has(id)) {
      const entry = sessions.get(id)!;
      entry.lastUsed = Date.now();
      await entry.transport.handleRequest(request, response, body);
      if (request.method === "DELETE") await endSession(id);
      return;
    }
    if (request.method !== "POST" || !isInitializeRequest(body)) {
      return sendError(
        response,
        400,
        id ? `unknown session '${id}'` : "no session: send an initialize request first",
      );
    }
    const session = await createSession();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (newId) => {
        sessions.set(newId, { transport, session, lastUsed: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) void endSession(transport.sessionId);
    };
    await session.server.connect(transport);
    await transport.handleRequest(request, response, body);
    if (!transport.sessionId) await session.dispose();
  };

  const httpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => sendError(response, 400, errorMessage(error)));
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = httpServer.address() as AddressInfo;
  const close = async (): Promise<void> => {
    clearInterval(sweeper);
    await Promise.all([...sessions.keys()].map((id) => endSession(id)));
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  return {
    url: `http://${address.address}:${address.port}/mcp`,
    get sessionCount() {
      return sessions.size;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
