import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import { rolloutOpenApiDocument } from "./rollout-openapi.js";
import { RolloutError } from "./rollout-answers.js";
import {
  completionBodySchema,
  createEpisodeBodySchema,
  detokenizeBodySchema,
  tokenizeBodySchema,
  toolCallsBodySchema,
} from "./rollout-bodies.js";
import type { RolloutService } from "./rollout-service.js";

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
}

export interface RolloutHttpServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Serves a rollout service over HTTP JSON. Binds loopback by default and checks the Host header. */
export async function serveRolloutHttp(
  service: RolloutService,
  options: RolloutHttpOptions = {},
): Promise<RolloutHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const token = options.authToken ? Buffer.from(options.authToken) : undefined;
  let allowedHosts = new Set<string>();

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, ERROR_CODES.REQUEST_INVALID, errorMessage(error));
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 70_000;
  server.requestTimeout = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const hostHeader = (request.headers.host ?? "").toLowerCase();
    if (!allowedHosts.has(hostHeader)) {
      await discardBody(request);
      return sendError(
        response,
        421,
        ERROR_CODES.HOST_NOT_ALLOWED,
        `Host '${hostHeader}' is not served here (DNS rebinding protection); use one of ${[...allowedHosts].join(", ")}`,
      );
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigin(origin, allowedHosts)) {
      await discardBody(request);
      return sendError(response, 403, ERROR_CODES.HOST_NOT_ALLOWED, `Origin '${origin}' is not allowed`);
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    const path = url.pathname;
    const method = request.method ?? "GET";
    if (path === "/healthz" && method === "GET") {
      await discardBody(request);
      return sendJson(response, 200, {
        ok: true,
        live: service.stats.live,
        max_episodes: service.maxEpisodes,
      });
    }
    if (token && !authorized(request.headers.authorization, token)) {
      await discardBody(request);
      response.setHeader("WWW-Authenticate", 'Bearer realm="progagent"');
      return sendError(response, 401, ERROR_CODES.UNAUTHORIZED, "missing or wrong bearer token");
    }
    if (path === "/metrics" && method === "GET") {
      await discardBody(request);
      response.writeHead(200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" });
      response.end(prometheusText(service));
      return;
    }
    if (path === "/openapi.json" && method === "GET") {
      await discardBody(request);
      return sendJson(response, 200, rolloutOpenApiDocument());
    }
    if (path === "/v1/tasks" && method === "GET") {
      await discardBody(request);
      return sendJson(response, 200, { tasks: options.listTasks ? await options.listTasks() : [] });
    }
    if (path === "/v1/episodes" && method === "POST") {
      const body = await readJson(request, response, maxBodyBytes, createEpisodeBodySchema);
      if (body === undefined) return;
      return await answer(response, 201, () => service.create(body));
    }
    if (path === "/v1/tokenize" && method === "POST") {
      const body = await readJson(request, response, maxBodyBytes, tokenizeBodySchema);
      if (body === undefined) return;
      return await answer(response, 200, async () => ({
        token_ids: await service.tokenize(body.text, body.tokenizer),
      }));
    }
    if (path === "/v1/detokenize" && method === "POST") {
      const body = await readJson(request, response, maxBodyBytes, detokenizeBodySchema);
      if (body === undefined) return;
      return await answer(response, 200, async () => ({
        text: await service.detokenize(body.token_ids, body.tokenizer),
      }));
    }
    const match = /^\/v1\/episodes\/([^/]+)(?:\/(tool_calls|completion))?$/.exec(path);
    if (match) {
      const id = decodeURIComponent(match[1] ?? "");
      const action = match[2];
      if (action === "tool_calls" && method === "POST") {
        const body = await readJson(request, response, maxBodyBytes, toolCallsBodySchema);
        if (body === undefined) return;
        return await answer(response, 200, () => service.toolCalls(id, body));
      }
      if (action === "completion" && method === "POST") {
        const body = await readJson(request, response, maxBodyBytes, completionBodySchema);
        if (body === undefined) return;
        return await answer(response, 200, () => service.completion(id, body));
      }
      if (action === undefined && method === "GET") {
        await discardBody(request);
        return await answer(response, 200, () => Promise.resolve(service.describe(id)));
      }
      if (action === undefined && method === "DELETE") {
        await discardBody(request);
        return await answer(response, 200, async () => {
          const final = service.describe(id);
          await service.remove(id);
          return { ...final, deleted: true };
        });
      }
      await discardBody(request);
      return sendError(response, 405, ERROR_CODES.NOT_FOUND, `${method} is not allowed on ${path}`);
    }
    await discardBody(request);
    return sendError(response, 404, ERROR_CODES.NOT_FOUND, `no route ${method} ${path}; see /openapi.json`);
  };

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once("error", onError);
    server.listen(options.port ?? 8700, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const port = address.port;
  const names = LOOPBACK.has(host)
    ? ["127.0.0.1", "localhost", "[::1]"]
    : [host.includes(":") ? `[${host}]` : host];
  allowedHosts = new Set(
    [...names, ...(options.allowedHosts ?? [])].map((name) => `${name}:${port}`.toLowerCase()),
  );
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
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

/** Reads a JSON body within the cap and validates it; on failure answers the error and returns undefined. */
async function readJson<T>(
  request: IncomingMessage,
  response: ServerResponse,
  maxBodyBytes: number,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > maxBodyBytes) {
    response.setHeader("Connection", "close");
    sendError(response, 413, ERROR_CODES.REQUEST_TOO_LARGE, `request body over ${maxBodyBytes} bytes`);
    request.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBodyBytes) tooLarge = true;
    else chunks.push(buffer);
  }
  if (tooLarge) {
    response.setHeader("Connection", "close");
    sendError(response, 413, ERROR_CODES.REQUEST_TOO_LARGE, `request body over ${maxBodyBytes} bytes`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    sendError(response, 400, ERROR_CODES.REQUEST_INVALID, `the body is not JSON: ${errorMessage(error)}`);
    return undefined;
  }
  const parsed = schema.safeParse(value);
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

async function discardBody(request: IncomingMessage): Promise<void> {
  if (request.readableEnded) return;
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 1024 * 1024) {
      request.destroy();
      return;
    }
  }
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
  sendJson(response, status, { error: { code, message } });
}

/** Prometheus text exposition of the service's counters, gauges and the step-latency histogram. */
export function prometheusText(service: RolloutService): string {
  const stats = service.stats;
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string, samples: Array<[string, number]>): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
  };
  metric("progagent_rollout_episodes_live", "gauge", "Live episodes.", [["", stats.live]]);
  metric("progagent_rollout_episodes_max", "gauge", "Maximum live episodes.", [["", service.maxEpisodes]]);
  metric("progagent_rollout_episodes_created_total", "counter", "Episodes created.", [["", stats.created]]);
  metric(
    "progagent_rollout_episodes_finished_total",
    "counter",
    "Episodes ended, by reason.",
    [...stats.endReasons].map(([reason, count]) => [`{reason="${reason}"}`, count]),
  );
  metric(
    "progagent_rollout_rejected_total",
    "counter",
    "Episode creations refused because the service was full.",
    [["", stats.rejected]],
  );
  metric("progagent_rollout_tool_calls_total", "counter", "Tool calls dispatched.", [["", stats.toolCalls]]);
  metric(
    "progagent_rollout_rewards_total",
    "counter",
    "Finished episodes by reward.",
    [...stats.rewardsByValue].map(([reward, count]) => [`{reward="${reward}"}`, count]),
  );
  metric("progagent_rollout_reward_sum", "counter", "Sum of rewards of finished episodes.", [
    ["", stats.rewardSum],
  ]);
  metric("progagent_rollout_history_bytes", "gauge", "Bytes of history the live episodes retain.", [
    ["", service.historyBytes],
  ]);
  metric("progagent_rollout_history_bytes_max", "gauge", "The history budget of all episodes.", [
    ["", service.limits.maxTotalHistoryBytes],
  ]);
  const tokenizer = service.tokenizerLoad;
  metric("progagent_rollout_tokenizer_jobs", "gauge", "Tokenizer jobs on its threads, by state.", [
    ['{state="running"}', tokenizer.running],
    ['{state="waiting"}', tokenizer.waiting],
  ]);
  metric("progagent_rollout_tokenizer_threads", "gauge", "Tokenizer threads started.", [
    ["", tokenizer.threads],
  ]);
  const histogram = stats.stepLatency;
  lines.push(
    "# HELP progagent_rollout_step_seconds Latency of tool_calls and completion steps.",
    "# TYPE progagent_rollout_step_seconds histogram",
  );
  let cumulative = 0;
  histogram.buckets.forEach((bound, index) => {
    cumulative += histogram.counts[index] ?? 0;
    lines.push(`progagent_rollout_step_seconds_bucket{le="${bound}"} ${cumulative}`);
  });
  lines.push(
    `progagent_rollout_step_seconds_bucket{le="+Inf"} ${histogram.count}`,
    `progagent_rollout_step_seconds_sum ${histogram.sum}`,
    `progagent_rollout_step_seconds_count ${histogram.count}`,
  );
  return `${lines.join("\n")}\n`;
}
