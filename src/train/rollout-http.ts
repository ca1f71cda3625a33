import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import {
  ERROR_CODES,
  ProgAgentError,
  answerAndClose,
  createGuardedHttpServer,
  decodePathSegment,
  defaultMaxConnections,
  errorMessage,
  parseJsonBounded,
  readRequestBody,
} from "../core/index.js";
import { rolloutOpenApiDocument } from "./rollout-openapi.js";
import { RolloutError } from "./rollout-answers.js";
import {
  completionBodySchema,
  createEpisodeBodySchema,
  detokenizeBodySchema,
  tokenizeBodySchema,
  toolCallsBodySchema,
} from "./rollout-bodies.js";
import { prometheusText } from "./rollout-metrics.js";
import type { RolloutService } from "./rollout-service.js";

export { prometheusText } from "./rollout-metrics.js";

export interface RolloutHttpOptions {
  host?: string;
  port?: number;
  /** When set, every request but `/healthz` needs `Authorization: Bearer <token>`. */
  authToken?: string;
  /** Request bodies above this are refused with 413 (default 16 MiB: a 1M-token id list fits). */
  maxBodyBytes?: number;
  /** Host header values accepted besides the bound loopback address (e.g. a node's DNS name). */
  allowedHosts?: readonly string[];
  /** Task ids for `GET /v1/tasks`. */
  listTasks?: () => Promise<Array<{ id: string; domain: string }>>;
  /**
   * Connections open at once (default: two per episode the service holds plus 64, at most a quarter of the
   * open-file limit); a new one closes the oldest that serves no admitted request.
   */
  maxConnections?: number;
  /** A request's headers must arrive within this (default 10 s). */
  headersTimeoutMs?: number;
  /** A request's body must arrive within this once its headers did (default 60 s). */
  bodyTimeoutMs?: number;
}

export interface RolloutHttpServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
/** An oversized body is read and dropped up to this much, so that the keep-alive connection stays usable. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Serves a rollout service over HTTP JSON. Binds loopback by default and checks the Host header. */
export async function serveRolloutHttp(
  service: RolloutService,
  options: RolloutHttpOptions = {},
): Promise<RolloutHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const token = options.authToken ? Buffer.from(options.authToken) : undefined;
  let allowedHosts = new Set<string>();

  const guard = createGuardedHttpServer(
    (request, response) => {
      void handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendError(response, 500, "INTERNAL", errorMessage(error));
        else response.destroy();
      });
    },
    {
      maxConnections: options.maxConnections ?? defaultMaxConnections(2 * service.maxEpisodes + 64),
      ...(options.headersTimeoutMs === undefined ? {} : { headersTimeoutMs: options.headersTimeoutMs }),
      ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.bodyTimeoutMs }),
      // Trainers keep connections open between steps; an idle one still gives way to a new client at the cap.
      keepAliveTimeoutMs: 65_000,
    },
  );

  const json = <T>(request: IncomingMessage, response: ServerResponse, schema: z.ZodType<T>) =>
    readJson(request, response, { maxBodyBytes, timeoutMs: guard.bodyTimeoutMs }, schema);

  /** Host, Origin and the token, checked on headers alone: a refused request's body is never read. */
  const refused = (request: IncomingMessage, response: ServerResponse, path: string): boolean => {
    const hostHeader = (request.headers.host ?? "").toLowerCase();
    if (!allowedHosts.has(hostHeader)) {
      refuse(
        response,
        421,
        ERROR_CODES.HOST_NOT_ALLOWED,
        `Host '${hostHeader.slice(0, 200)}' is not served here (DNS rebinding protection); use one of ${[...allowedHosts].join(", ")}`,
      );
      return true;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigin(origin, allowedHosts)) {
      refuse(response, 403, ERROR_CODES.HOST_NOT_ALLOWED, `Origin '${origin.slice(0, 200)}' is not allowed`);
      return true;
    }
    if (path === "/healthz" || !token || authorized(request.headers.authorization, token)) return false;
    refuse(response, 401, ERROR_CODES.UNAUTHORIZED, "missing or wrong bearer token", {
      "WWW-Authenticate": 'Bearer realm="progagent"',
    });
    return true;
  };

  const routes: Record<string, Route> = {
    "GET /healthz": async (_request, response) =>
      sendJson(response, 200, { ok: true, live: service.stats.live, max_episodes: service.maxEpisodes }),
    "GET /metrics": async (_request, response) => {
      response.writeHead(200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" });
      response.end(prometheusText(service));
    },
    "GET /openapi.json": async (_request, response) => sendJson(response, 200, rolloutOpenApiDocument()),
    "GET /v1/tasks": async (_request, response) =>
      sendJson(response, 200, { tasks: options.listTasks ? await options.listTasks() : [] }),
    "POST /v1/episodes": async (request, response) => {
      const body = await json(request, response, createEpisodeBodySchema);
      if (body !== undefined) await answer(response, 201, () => service.create(body));
    },
    "POST /v1/tokenize": async (request, response) => {
      const body = await json(request, response, tokenizeBodySchema);
      if (body !== undefined)
        await answer(response, 200, async () => ({
          token_ids: await service.tokenize(body.text, body.tokenizer),
        }));
    },
    "POST /v1/detokenize": async (request, response) => {
      const body = await json(request, response, detokenizeBodySchema);
      if (body !== undefined)
        await answer(response, 200, async () => ({
          text: await service.detokenize(body.token_ids, body.tokenizer),
        }));
    },
  };

  const episodeRoute = async (
    request: IncomingMessage,
    response: ServerResponse,
    id: string,
    action: string | undefined,
    path: string,
  ): Promise<void> => {
    const method = request.method ?? "GET";
    if (action === "tool_calls" && method === "POST") {
      const body = await json(request, response, toolCallsBodySchema);
      if (body !== undefined) await answer(response, 200, () => service.toolCalls(id, body));
    } else if (action === "completion" && method === "POST") {
      const body = await json(request, response, completionBodySchema);
      if (body !== undefined) await answer(response, 200, () => service.completion(id, body));
    } else if (action === undefined && method === "GET") {
      await answer(response, 200, () => Promise.resolve(service.describe(id)));
    } else if (action === undefined && method === "DELETE") {
      await answer(response, 200, async () => {
        const final = service.describe(id);
        await service.remove(id);
        return { ...final, deleted: true };
      });
    } else sendError(response, 405, ERROR_CODES.NOT_FOUND, `${method} is not allowed on ${path}`);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (refused(request, response, path)) return;
    guard.admit(request, response);
    const method = request.method ?? "GET";
    const route = routes[`${method} ${path}`];
    if (route) return await route(request, response);
    const match = /^\/v1\/episodes\/([^/]+)(?:\/(tool_calls|completion))?$/.exec(path);
    if (!match)
      return sendError(response, 404, ERROR_CODES.NOT_FOUND, `no route ${method} ${path}; see /openapi.json`);
    const id = decodePathSegment(match[1] ?? "");
    if (id === undefined)
      return sendError(
        response,
        400,
        ERROR_CODES.REQUEST_INVALID,
        `the episode id in ${path} is not valid percent-encoding`,
      );
    await episodeRoute(request, response, id, match[2], path);
  };

  const address = await guard.listen(options.port ?? 8700, host);
  const port = address.port;
  const names = LOOPBACK.has(host)
    ? ["127.0.0.1", "localhost", "[::1]"]
    : [host.includes(":") ? `[${host}]` : host];
  allowedHosts = new Set(
    [...names, ...(options.allowedHosts ?? [])].map((name) => `${name}:${port}`.toLowerCase()),
  );
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { url: `http://${shownHost}:${port}`, server: guard.server, close: () => guard.close() };
}

function allowedOrigin(origin: string, allowedHosts: ReadonlySet<string>): boolean {
  try {
    const parsed = new URL(origin);
    return parsed.protocol === "http:" && allowedHosts.has(parsed.host.toLowerCase());
  } catch {
    return false;
  }
}

function authorized(header: string | undefined, token: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].trim());
  return given.length === token.length && timingSafeEqual(given, token);
}

async function answer(response: ServerResponse, status: number, run: () => Promise<unknown>): Promise<void> {
  try {
    sendJson(response, status, await run());
  } catch (error) {
    if (error instanceof RolloutError) {
      if (error.retryAfterSeconds !== undefined)
        response.setHeader("Retry-After", String(error.retryAfterSeconds));
      return sendError(response, error.status, error.code, error.message);
    }
    if (error instanceof ProgAgentError && error.category === "user")
      return sendError(response, 400, error.code, error.message);
    return sendError(
      response,
      500,
      error instanceof ProgAgentError ? error.code : "INTERNAL",
      errorMessage(error),
    );
  }
}

/**
 * Reads a JSON body within the size cap and the body deadline, refuses nesting too deep to walk, and validates
 * it; on failure answers the error and returns undefined.
 */
async function readJson<T>(
  request: IncomingMessage,
  response: ServerResponse,
  limits: { maxBodyBytes: number; timeoutMs: number },
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const outcome = await readRequestBody(request, {
    maxBytes: limits.maxBodyBytes,
    timeoutMs: limits.timeoutMs,
    drainLimitBytes: DRAIN_LIMIT_BYTES,
  });
  if (outcome.kind === "aborted") {
    response.destroy();
    return undefined;
  }
  if (outcome.kind === "timeout") {
    refuse(
      response,
      408,
      ERROR_CODES.TIMEOUT,
      `the request body did not arrive within ${limits.timeoutMs / 1000} s`,
    );
    return undefined;
  }
  if (outcome.kind === "too-large") {
    const message = `request body over ${limits.maxBodyBytes} bytes`;
    if (outcome.drained) sendError(response, 413, ERROR_CODES.REQUEST_TOO_LARGE, message);
    else refuse(response, 413, ERROR_CODES.REQUEST_TOO_LARGE, message);
    return undefined;
  }
  const value = parseJsonBounded(outcome.body.toString("utf8"));
  if (!value.ok) {
    sendError(response, 400, ERROR_CODES.REQUEST_INVALID, `the body is not JSON: ${value.message}`);
    return undefined;
  }
  const parsed = schema.safeParse(value.value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
      .join("; ");
    sendError(response, 400, ERROR_CODES.REQUEST_INVALID, `invalid request: ${issues}`);
    return undefined;
  }
  return parsed.data;
}

function errorText(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** Answers an error and closes the connection without reading more of the request. */
function refuse(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  answerAndClose(response, status, errorText(code, message), headers);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(errorText(code, message)),
  });
  response.end(errorText(code, message));
}
