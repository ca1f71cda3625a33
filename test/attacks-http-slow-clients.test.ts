import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createEpisode,
  endEpisodes,
  startRolloutServe,
  startServing,
  stopRolloutServe,
  type RolloutServe,
} from "./helpers/rollout-serve.js";

// attacks.md "Second review" B6 and H2/H4: what a slow or malformed client costs `rollout serve` and
// `serve --http` (both built on the same guard, src/core/http-guard.ts). The token is read from this variable.

const TOKEN = "b6-test-token";
const scratch = mkdtempSync(join(tmpdir(), "progagent-b6-"));
const mcpConfig = join(scratch, "mcp.json");
writeFileSync(mcpConfig, JSON.stringify({ mcpServers: {} }));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface ServerKind {
  name: string;
  start(args: string[], fileLimit?: number): Promise<RolloutServe>;
  /** A POST path whose body the server reads once the request is admitted. */
  bodyPath: string;
  /** An authorised request the server answers from its handler (proof the connection was served). */
  served(url: string): Promise<number>;
}

const kinds: ServerKind[] = [
  {
    name: "rollout serve",
    start: (args, fileLimit) =>
      startRolloutServe(["--auth-token-env", "B6_TOKEN", ...args], {
        env: { B6_TOKEN: TOKEN },
        ...(fileLimit === undefined ? {} : { fileLimit }),
      }),
    bodyPath: "/v1/episodes",
    served: async (url) =>
      (await call(url, "GET", "/openapi.json", undefined, 60_000, { authorization: `Bearer ${TOKEN}` }))
        .status,
  },
  {
    name: "serve --http",
    start: (args, fileLimit) =>
      startServing(
        ["serve", "--http", "--port", "0", "--config", mcpConfig, "--auth-token-env", "B6_TOKEN", ...args],
        /serving MCP \(Streamable HTTP\) at (\S+)/,
        { env: { B6_TOKEN: TOKEN }, ...(fileLimit === undefined ? {} : { fileLimit }) },
      ),
    bodyPath: "/mcp",
    // A request without a session is answered 400 by the MCP handler, past the token check.
    served: async (url) =>
      (
        await call(url, "POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "ping" }, 60_000, {
          authorization: `Bearer ${TOKEN}`,
          accept: "application/json, text/event-stream",
        })
      ).status,
  },
];

/**
 * Sends `text` on a new connection and waits until the server closes it or `deadlineMs` passes; the first line
 * of what came back, and whether the server closed the connection.
 */
function rawExchange(
  url: string,
  text: string,
  deadlineMs: number,
): Promise<{ status: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let received = "";
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ status: received.split("\r\n")[0] ?? "", closed: false });
    }, deadlineMs);
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ status: received.split("\r\n")[0] ?? "", closed: true });
    });
  });
}

/** Connections that send part of a request line and then nothing; the caller destroys them. */
async function slowloris(url: string, count: number): Promise<Socket[]> {
  const { hostname, port } = new URL(url);
  return await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(Number(port), hostname, () => {
            socket.write("GET /healthz HTTP/1.1\r\n");
            resolve(socket);
          });
          socket.on("error", () => resolve(socket));
        }),
    ),
  );
}

function head(url: string, path: string, headers: string[]): string {
  return [`POST ${path} HTTP/1.1`, `Host: ${new URL(url).host}`, ...headers, "", ""].join("\r\n");
}

describe.each(kinds)("B6 slow clients cost nothing ($name)", (kind) => {
  let service: RolloutServe;
  beforeAll(async () => {
    service = await kind.start([]);
  }, 90_000);
  afterAll(async () => {
    if (service) await stopRolloutServe(service.child);
  });

  it("answers a request without the token and closes it without reading its body", async () => {
    // Headers announcing a 1 MB body, 8 bytes of it, then nothing: the review saw such connections held for good.
    const request = head(service.url, kind.bodyPath, [
      "Content-Type: application/json",
      "Content-Length: 1000000",
    ]);
    const outcome = await rawExchange(service.url, `${request}{"task":`, 30_000);
    expect(outcome).toEqual({ status: "HTTP/1.1 401 Unauthorized", closed: true });
  }, 60_000);

  it("ends a request whose headers stall at their deadline (10 s by default) with 408", async () => {
    const outcome = await rawExchange(service.url, `POST ${kind.bodyPath} HTTP/1.1\r\n`, 30_000);
    expect(outcome).toEqual({ status: "HTTP/1.1 408 Request Timeout", closed: true });
  }, 60_000);
});

describe.each(kinds)("B6 body deadline and connection cap ($name)", (kind) => {
  let service: RolloutServe;
  beforeAll(async () => {
    service = await kind.start(["--body-timeout", "2"], 256);
  }, 90_000);
  afterAll(async () => {
    if (service) await stopRolloutServe(service.child);
  });

  it("ends an admitted request whose body stalls at --body-timeout with 408", async () => {
    const request = head(service.url, kind.bodyPath, [
      `Authorization: Bearer ${TOKEN}`,
      "Content-Type: application/json",
      "Content-Length: 1000",
    ]);
    const outcome = await rawExchange(service.url, `${request}{"task":`, 30_000);
    expect(outcome).toEqual({ status: "HTTP/1.1 408 Request Timeout", closed: true });
  }, 60_000);

  it("serves an authorised client beside 300 connections that never finish their headers, at 256 descriptors", async () => {
    // Past the descriptor limit the server could accept nobody: 230 such connections locked the review's client out.
    const sockets = await slowloris(service.url, 300);
    try {
      expect(await kind.served(service.url)).toBeLessThan(500);
      // The cap (a quarter of the 256 descriptors) closed the oldest idle connections to make room.
      await expect
        .poll(() => sockets.filter((socket) => !socket.destroyed && !socket.closed).length, {
          timeout: 10_000,
        })
        .toBeLessThanOrEqual(64);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 120_000);
});

describe("H2/H4 malformed requests are 4xx, never 500 (rollout serve)", () => {
  let service: RolloutServe;
  beforeAll(async () => {
    service = await startRolloutServe([]);
  }, 90_000);
  afterAll(async () => {
    if (service) await stopRolloutServe(service.child);
  });
  const deep = (levels: number): string => `${"[".repeat(levels)}${"]".repeat(levels)}`;

  it("answers bad percent-encoding in a path with 400", async () => {
    const answer = await call(service.url, "GET", "/v1/episodes/%E0%A4%A");
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/percent-encoding/);
  });

  it("answers JSON nested two million levels deep with 400, in a body or in a model's tool call", async () => {
    const id = await createEpisode(service.url);
    try {
      const body = `{"calls": [{"name": "list_files", "arguments": {"a": ${deep(2_000_000)}}}]}`;
      const nested = await call(service.url, "POST", `/v1/episodes/${id}/tool_calls`, body, 60_000);
      expect(nested.status).toBe(400);
      expect(nested.body.error.message).toMatch(/nested deeper than/);
      // In model output it is the model's mistake: a parse error it can read, the episode goes on.
      const text = `<tool_call>\n{"name": "list_files", "arguments": {"a": ${deep(2_000_000)}}}\n</tool_call>`;
      const completion = await call(service.url, "POST", `/v1/episodes/${id}/completion`, { text }, 60_000);
      expect(completion.status).toBe(200);
      expect(completion.body.done).toBe(false);
      expect(completion.body.parse_errors[0]).toMatch(/nested deeper than/);
    } finally {
      await endEpisodes(service.url, [id]);
    }
  }, 120_000);
});
