import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * What every progagent HTTP server (`rollout serve`, `serve --http`) needs against slow and hostile clients:
 * deadlines on headers and bodies, a cap on open connections that a flood of idle or half-sent connections
 * cannot use to lock out an authorised client, refusals that never wait for a body, and bounded body reads.
 */
export interface HttpGuardOptions {
  /**
   * Connections open at once. At the cap a new connection closes the oldest one that is not serving an admitted
   * request (one still sending headers, sending the body of a refused request, or idle between requests); when
   * every one is serving, the new one is closed. Default: `defaultMaxConnections(1024)`.
   */
  maxConnections?: number;
  /** A request's headers must arrive within this (default 10 s). */
  headersTimeoutMs?: number;
  /** A request's body must arrive within this once its headers did (default 60 s). */
  bodyTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this (default 5 s). */
  keepAliveTimeoutMs?: number;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

export interface GuardedHttpServer {
  readonly server: Server;
  readonly maxConnections: number;
  readonly bodyTimeoutMs: number;
  /** Connections open now. */
  readonly connectionCount: number;
  /**
   * Marks a request as admitted (its Host, Origin and token checked): its connection is not closed for a new one
   * until the response ends.
   */
  admit(request: IncomingMessage, response: ServerResponse): void;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** The soft limit of open files of this process (from /proc on Linux), or undefined when unknown. */
export function openFileLimit(): number | undefined {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((candidate) => candidate.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isSafeInteger(soft) && soft > 0 ? soft : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `wanted` connections, but at most a quarter of the open-file limit (the rest is for kernels, files and the
 * process itself: a server that runs out of descriptors cannot accept the client it evicts for), and at least 16.
 */
export function defaultMaxConnections(wanted: number): number {
  const files = openFileLimit();
  return Math.max(16, files === undefined ? wanted : Math.min(wanted, Math.floor(files / 4)));
}

export function createGuardedHttpServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options: HttpGuardOptions = {},
): GuardedHttpServer {
  const maxConnections = options.maxConnections ?? defaultMaxConnections(1024);
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      // Node's own deadline for a whole request, behind the body reader's: it also ends bodies nobody reads.
      requestTimeout: headersTimeoutMs + bodyTimeoutMs,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
    },
    handler,
  );
  /** Open connections, oldest first, with the number of admitted requests each is serving. */
  const connections = new Map<Socket, { admitted: number }>();
  const evictOne = (): boolean => {
    for (const [socket, state] of connections) {
      if (state.admitted > 0) continue;
      connections.delete(socket);
      socket.destroy();
      return true;
    }
    return false;
  };
  server.on("connection", (socket: Socket) => {
    if (connections.size >= maxConnections && !evictOne()) {
      socket.destroy();
      return;
    }
    connections.set(socket, { admitted: 0 });
    socket.once("close", () => connections.delete(socket));
  });
  return {
    server,
    maxConnections,
    bodyTimeoutMs,
    get connectionCount() {
      return connections.size;
    },
    admit(request, response) {
      const state = connections.get(request.socket);
      if (!state) return;
      state.admitted += 1;
      response.once("close", () => (state.admitted -= 1));
    },
    listen: (port, host) =>
      new Promise<AddressInfo>((resolve, reject) => {
        const onError = (error: Error): void => reject(error);
        server.once("error", onError);
        server.listen(port, host, () => {
          server.off("error", onError);
          resolve(server.address() as AddressInfo);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Answers and closes the connection without reading the request's body: for requests refused before their body
 * matters (no token, a foreign Host), so that a client cannot hold the connection by never finishing it.
 */
export function answerAndClose(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.shouldKeepAlive = false;
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(body)),
    ...headers,
    connection: "close",
  });
  response.end(body, () => response.socket?.destroy());
}

export type BodyOutcome =
  | { kind: "ok"; body: Buffer }
  /** Over `maxBytes`; `drained` when the rest was read and dropped, so the connection can serve the next request. */
  | { kind: "too-large"; bytes: number; drained: boolean }
  /** Not complete within the deadline: answer 408 and close. */
  | { kind: "timeout" }
  /** The client went away. */
  | { kind: "aborted" };

/**
 * Reads a request body of at most `maxBytes` within `timeoutMs`. A larger body is read and dropped up to
 * `drainLimitBytes` (default: none), so the keep-alive connection stays usable; past that it is `too-large`
 * without being drained, and the caller closes the connection.
 */
export function readRequestBody(
  request: IncomingMessage,
  limits: { maxBytes: number; timeoutMs: number; drainLimitBytes?: number },
): Promise<BodyOutcome> {
  const drainLimit = Math.max(limits.maxBytes, limits.drainLimitBytes ?? limits.maxBytes);
  return new Promise((resolve) => {
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > drainLimit)
      return resolve({ kind: "too-large", bytes: declared, drained: false });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: BodyOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.off("data", onData);
      if (outcome.kind !== "ok" && !(outcome.kind === "too-large" && outcome.drained)) request.pause();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ kind: "timeout" }), limits.timeoutMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limits.maxBytes) chunks.push(chunk);
      else chunks.length = 0;
      if (size > drainLimit) settle({ kind: "too-large", bytes: size, drained: false });
    };
    request.on("data", onData);
    request.once("error", () => settle({ kind: "aborted" }));
    request.once("close", () => {
      if (!request.complete) settle({ kind: "aborted" });
    });
    request.once("end", () =>
      settle(
        size > limits.maxBytes
          ? { kind: "too-large", bytes: size, drained: true }
          : { kind: "ok", body: Buffer.concat(chunks) },
      ),
    );
  });
}

/** A path segment percent-decoded, or undefined when its encoding is malformed (a 400, never a 500). */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
