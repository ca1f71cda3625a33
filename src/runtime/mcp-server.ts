import { DEFAULT_MAX_SESSIONS } from "./limits.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ERROR_CODES,
  ProgAgentError,
  answerAndClose,
  createGuardedHttpServer,
  createLogger,
  defaultMaxConnections,
  errorMessage,
  parseJsonBounded,
  readRequestBody,
} from "../core/index.js";
import { mcpServerModule, mcpStreamableHttpModule, mcpTypesModule } from "./mcp-sdk.js";
import { toMcpTool } from "./render-tool.js";
import { MAX_REQUEST_BYTES, createStdioServerTransport } from "./stdio-server-transport.js";
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
  const { Server } = mcpServerModule();
  const { CallToolRequestSchema, ListToolsRequestSchema } = mcpTypesModule();
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
  const transport = createStdioServerTransport();
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

export interface HttpServeOptions {
  port: number;
  /** A loopback address (default 127.0.0.1): the server is for local clients. */
  host?: string;
  /** A session without a request for this long is ended with its kernel and upstream servers (default 30 min). */
  idleTimeoutMs?: number;
  /** Sessions open at once (default 32); an initialize beyond it gets a JSON-RPC error. */
  maxSessions?: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  authToken?: string;
  /** Largest request body (default 8 MiB). */
  maxBodyBytes?: number;
  /**
   * Connections open at once (default: four per session plus 16, at most a quarter of the open-file limit); a new
   * one closes the oldest that serves no admitted request, so idle or half-sent connections cannot lock clients out.
   */
  maxConnections?: number;
  /** A request's headers must arrive within this (default 10 s). */
  headersTimeoutMs?: number;
  /** A request's body must arrive within this once its headers did (default 60 s). */
  bodyTimeoutMs?: number;
}

export { DEFAULT_MAX_SESSIONS };
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
/** An oversized body is read and dropped up to this much so that the keep-alive connection stays usable. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

type BodyOutcome =
  | { kind: "ok"; body: unknown }
  | { kind: "too-large"; bytes: number; drained: boolean }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "parse-error"; message: string };

/** A JSON-RPC body within the size cap and the deadline; an empty body is undefined. */
async function readBody(request: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<BodyOutcome> {
  const outcome = await readRequestBody(request, { maxBytes, timeoutMs, drainLimitBytes: DRAIN_LIMIT_BYTES });
  if (outcome.kind !== "ok") return outcome;
  const text = outcome.body.toString("utf8");
  if (text.trim().length === 0) return { kind: "ok", body: undefined };
  const parsed = parseJsonBounded(text);
  return parsed.ok ? { kind: "ok", body: parsed.value } : { kind: "parse-error", message: parsed.message };
}

function requestId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function sameToken(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Serves Streamable HTTP on a loopback address at /mcp. Every MCP session gets its own resources from
 * createSession (one kernel each), ended on DELETE, on idle timeout, or when the server closes. Requests
 * whose Host or Origin is not this server's loopback address are refused (DNS rebinding), as are requests
 * without the bearer token when one is set.
 */
export async function serveHttp(
  createSession: () => Promise<McpSession>,
  options: HttpServeOptions,
): Promise<HttpServerHandle> {
  const bindHost = options.host ?? "127.0.0.1";
  if (!["127.0.0.1", "::1", "localhost"].includes(bindHost)) {
    throw new ProgAgentError(`the MCP HTTP server binds a loopback address only, not '${bindHost}'`, {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  }
  const logger = createLogger();
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; session: McpSession; lastUsed: number; active: number }
  >();
  let creating = 0;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_REQUEST_BYTES;
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
      for (const [id, entry] of sessions)
        if (entry.active === 0 && now - entry.lastUsed > idleTimeoutMs) void endSession(id);
    },
    Math.min(Math.max(idleTimeoutMs / 4, 250), 30_000),
  );
  sweeper.unref();
  let allowedHosts = new Set<string>();

  const sendError = (
    response: ServerResponse,
    status: number,
    code: number,
    message: string,
    id: string | number | null = null,
    headers: Record<string, string> = {},
  ): void => {
    if (response.headersSent) {
      if (!response.writableEnded) response.end();
      return;
    }
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
  };

  /** Answers a JSON-RPC error and closes the connection without reading the request's body. */
  const refuseUnread = (
    response: ServerResponse,
    status: number,
    code: number,
    message: string,
    headers: Record<string, string> = {},
  ): void =>
    answerAndClose(
      response,
      status,
      JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
      headers,
    );

  /**
   * Refuses what must not reach a session: foreign Host/Origin (DNS rebinding), a missing token, other paths. A
   * refused request is answered on its headers alone and its connection closed: its body is never waited for.
   */
  const refuse = (request: IncomingMessage, response: ServerResponse): boolean => {
    const host = (request.headers.host ?? "").toLowerCase();
    if (!allowedHosts.has(host)) {
      refuseUnread(
        response,
        403,
        -32000,
        `Forbidden: Host '${host.slice(0, 200)}' is not this server's loopback address (DNS rebinding protection)`,
      );
      return true;
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      let originHost: string | undefined;
      try {
        const parsed = new URL(origin);
        originHost = parsed.protocol === "http:" ? parsed.host.toLowerCase() : undefined;
      } catch {
        originHost = undefined;
      }
      if (!originHost || !allowedHosts.has(originHost)) {
        refuseUnread(
          response,
          403,
          -32000,
          `Forbidden: Origin '${origin.slice(0, 200)}' is not this server's loopback address (DNS rebinding protection)`,
        );
        return true;
      }
    }
    if (options.authToken !== undefined) {
      const header = request.headers.authorization ?? "";
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match || !sameToken(match[1]!, options.authToken)) {
        refuseUnread(response, 401, -32000, "Unauthorized: send 'Authorization: Bearer <token>'", {
          "www-authenticate": 'Bearer realm="progagent"',
        });
        return true;
      }
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== "/mcp") {
      refuseUnread(response, 404, -32000, "Not found: the MCP endpoint is /mcp");
      return true;
    }
    return false;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (refuse(request, response)) return;
    httpServer.admit(request, response);
    const sessionId = request.headers["mcp-session-id"];
    const id = Array.isArray(sessionId) ? sessionId[0] : sessionId;
    let body: unknown;
    if (request.method === "POST") {
      const outcome = await readBody(request, maxBodyBytes, httpServer.bodyTimeoutMs);
      if (outcome.kind === "aborted") return void response.destroy();
      if (outcome.kind === "timeout")
        return refuseUnread(
          response,
          408,
          -32600,
          `Request timeout: the body did not arrive within ${httpServer.bodyTimeoutMs / 1000} s`,
        );
      if (outcome.kind === "too-large") {
        const limitMiB = maxBodyBytes / 1024 / 1024;
        const message = `Request too large: ${outcome.bytes} bytes; one MCP request is limited to ${maxBodyBytes} bytes (${limitMiB} MiB)`;
        // A drained body leaves the keep-alive connection usable; an enormous one closes it after the answer.
        if (!outcome.drained) return refuseUnread(response, 413, -32600, message);
        return sendError(response, 413, -32600, message);
      }
      if (outcome.kind === "parse-error") {
        return sendError(response, 400, -32700, `Parse error: ${outcome.message}`);
      }
      body = outcome.body;
    }
    const existing = id ? sessions.get(id) : undefined;
    if (existing) {
      existing.active += 1;
      existing.lastUsed = Date.now();
      response.once("close", () => {
        existing.active -= 1;
        existing.lastUsed = Date.now();
      });
      await existing.transport.handleRequest(request, response, body);
      if (request.method === "DELETE") await endSession(id!);
      return;
    }
    if (request.method !== "POST" || !mcpTypesModule().isInitializeRequest(body)) {
      return sendError(
        response,
        id ? 404 : 400,
        -32000,
        id
          ? `Unknown session '${id.slice(0, 100)}': it ended (DELETE or idle timeout); initialize a new one`
          : "No session: send an initialize request first",
        requestId(body),
      );
    }
    if (sessions.size + creating >= maxSessions) {
      return sendError(
        response,
        503,
        -32000,
        `Server full: ${maxSessions} sessions are open (--max-sessions ${maxSessions}). End one with DELETE, or wait for idle sessions to time out (${Math.round(idleTimeoutMs / 1000)} s).`,
        requestId(body),
      );
    }
    // Counted until the session is registered, so that concurrent initializes cannot overshoot the cap.
    creating += 1;
    try {
      const session = await createSession();
      const transport: StreamableHTTPServerTransport =
        new (mcpStreamableHttpModule().StreamableHTTPServerTransport)({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (newId) => {
            const entry = { transport, session, lastUsed: Date.now(), active: 1 };
            sessions.set(newId, entry);
            response.once("close", () => {
              entry.active -= 1;
              entry.lastUsed = Date.now();
            });
          },
        });
      transport.onclose = () => {
        if (transport.sessionId) void endSession(transport.sessionId);
      };
      await session.server.connect(transport);
      await transport.handleRequest(request, response, body);
      if (!transport.sessionId) await session.dispose();
    } finally {
      creating -= 1;
    }
  };

  const httpServer = createGuardedHttpServer(
    (request, response) => {
      handle(request, response).catch((error: unknown) =>
        sendError(response, 500, -32603, `Internal error: ${errorMessage(error)}`),
      );
    },
    {
      maxConnections: options.maxConnections ?? defaultMaxConnections(4 * maxSessions + 16),
      ...(options.headersTimeoutMs === undefined ? {} : { headersTimeoutMs: options.headersTimeoutMs }),
      ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.bodyTimeoutMs }),
    },
  );
  const address = await httpServer.listen(options.port, bindHost);
  allowedHosts = new Set(LOOPBACK_NAMES.map((name) => `${name}:${address.port}`));
  const close = async (): Promise<void> => {
    clearInterval(sweeper);
    await Promise.all([...sessions.keys()].map((id) => endSession(id)));
    await httpServer.close();
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
