import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { waitForProcessCount } from "./helpers/processes.js";

// `progagent serve --http` as a network server (issue 7 item 4) and the HTTP body limit (attacks.md M4).

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(projectRoot, "bin", "progagent.js");
const require = createRequire(import.meta.url);
const memoryServer = join(
  dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
  "dist",
  "index.js",
);
const conformance = join(
  dirname(require.resolve("@modelcontextprotocol/conformance/package.json")),
  "dist",
  "index.js",
);
const scratch = mkdtempSync(join(tmpdir(), "progagent-serve-http-test-"));
const servers: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise((done) => {
          if (server.exitCode !== null || server.signalCode !== null) return done(undefined);
          server.once("exit", done);
          server.kill("SIGTERM");
        }),
    ),
  );
  rmSync(scratch, { recursive: true, force: true });
});

function writeConfig(name: string, marker?: string): string {
  const path = join(scratch, `${name}.json`);
  const mcpServers = marker
    ? {
        memory: {
          command: process.execPath,
          args: [memoryServer, marker],
          env: { MEMORY_FILE_PATH: join(scratch, `${name}-memory.jsonl`) },
        },
      }
    : {};
  writeFileSync(path, JSON.stringify({ mcpServers }));
  return path;
}

async function startServer(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; port: number }> {
  const server = spawn(process.execPath, [cli, "serve", "--http", "--port", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  servers.push(server);
  const url = await new Promise<string>((done, fail) => {
    let buffer = "";
    const timer = setTimeout(() => fail(new Error(`no URL announced: ${buffer}`)), 60_000);
    server.stderr.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /serving MCP \(Streamable HTTP\) at (\S+)/.exec(buffer);
      if (match?.[1]) {
        clearTimeout(timer);
        done(match[1]);
      }
    });
    server.once("exit", (code) => fail(new Error(`server exited (${code}): ${buffer}`)));
  });
  return { url, port: Number(new URL(url).port) };
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function post(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  method = "POST",
): Promise<Reply> {
  return new Promise((done, fail) => {
    const request = httpRequest(
      url,
      {
        method,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          done({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.on("error", fail);
    request.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
});

/**
 * Writes raw HTTP/1.1 POSTs to /mcp down one TCP connection, all before reading, and returns each answer's status
 * and body (the last request should say `connection: close`, which ends the read).
 */
function sendOnOneConnection(
  url: string,
  requests: { body: string; headers: Record<string, string> }[],
): Promise<{ status: number; body: string }[]> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      fail(new Error("no answer to the pipelined requests within 60 s"));
    }, 60_000);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error) => {
      clearTimeout(deadline);
      fail(error);
    });
    socket.on("close", () => {
      clearTimeout(deadline);
      // latin1 keeps one character per byte, so content-length and chunk sizes count characters.
      done(splitHttpAnswers(Buffer.concat(chunks).toString("latin1")));
    });
    for (const { body, headers } of requests) {
      const lines = [
        "POST /mcp HTTP/1.1",
        `host: ${hostname}:${port}`,
        "content-type: application/json",
        "accept: application/json, text/event-stream",
        `content-length: ${Buffer.byteLength(body)}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    }
  });
}

/** Splits a stream of HTTP/1.1 answers (content-length or chunked bodies) into status and body. */
function splitHttpAnswers(text: string): { status: number; body: string }[] {
  const answers: { status: number; body: string }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) throw new Error(`an incomplete HTTP answer: ${JSON.stringify(rest.slice(0, 200))}`);
    const head = rest.slice(0, headEnd);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    rest = rest.slice(headEnd + 4);
    const length = /^content-length: *(\d+)$/im.exec(head);
    let body = "";
    if (length) {
      body = rest.slice(0, Number(length[1]));
      rest = rest.slice(Number(length[1]));
    } else if (/^transfer-encoding: *chunked$/im.test(head)) {
      for (;;) {
        const sizeEnd = rest.indexOf("\r\n");
        const size = parseInt(rest.slice(0, sizeEnd), 16);
        rest = rest.slice(sizeEnd + 2);
        if (size === 0) {
          rest = rest.slice(rest.indexOf("\r\n") + 2);
          break;
        }
        body += rest.slice(0, size);
        rest = rest.slice(size + 2);
      }
    } else {
      body = rest;
      rest = "";
    }
    answers.push({ status, body });
  }
  return answers;
}

function jsonRpcError(reply: Reply): { code: number; message: string } {
  const text = reply.body.startsWith("event:") ? (/^data: (.*)$/m.exec(reply.body)?.[1] ?? "{}") : reply.body;
  return (JSON.parse(text) as { error: { code: number; message: string } }).error;
}

async function openSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const reply = await post(url, initialize, headers);
  expect(reply.status).toBe(200);
  const id = reply.headers["mcp-session-id"];
  expect(typeof id).toBe("string");
  await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
    ...headers,
    "mcp-session-id": String(id),
    "mcp-protocol-version": "2025-06-18",
  });
  return String(id);
}

function callCode(url: string, session: string, code: string, id = 2): Promise<Reply> {
  return post(
    url,
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "programmatic_tool_call", arguments: { code } },
    }),
    { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
  );
}

describe("serve --http as a network server", () => {
  it("refuses a foreign Host or Origin (DNS rebinding) and passes the conformance scenario", async () => {
    const { url, port } = await startServer(["--config", writeConfig("rebinding")]);
    const rebound = await post(url, initialize, { host: "evil.example", origin: "http://evil.example" });
    expect(rebound.status).toBe(403);
    expect(rebound.headers["mcp-session-id"]).toBeUndefined();
    expect(jsonRpcError(rebound).message).toContain("DNS rebinding");
    const foreignOrigin = await post(url, initialize, { origin: "http://evil.example" });
    expect(foreignOrigin.status).toBe(403);
    const foreignPort = await post(url, initialize, { host: `127.0.0.1:${port + 1}` });
    expect(foreignPort.status).toBe(403);
    const local = await post(url, initialize, {
      host: `localhost:${port}`,
      origin: `http://localhost:${port}`,
    });
    expect(local.status).toBe(200);

    const run = spawnSync(
      process.execPath,
      [conformance, "server", "--url", url, "--scenario", "dns-rebinding-protection"],
      { encoding: "utf8", timeout: 120_000, cwd: scratch },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toMatch(/\[localhost-host-rebinding-rejected\s*\]\s*\S*SUCCESS/);
    expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    expect(run.status).toBe(0);
  });

  it("requires the bearer token named by --auth-token-env, and starts no session without it", async () => {
    const { url } = await startServer(
      ["--config", writeConfig("auth"), "--auth-token-env", "TEST_SERVE_TOKEN"],
      {
        TEST_SERVE_TOKEN: "s3cret-token",
      },
    );
    const missing = await post(url, initialize);
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toContain("Bearer");
    expect(missing.headers["mcp-session-id"]).toBeUndefined();
    const wrong = await post(url, initialize, { authorization: "Bearer not-the-token" });
    expect(wrong.status).toBe(401);
    const session = await openSession(url, { authorization: "Bearer s3cret-token" });
    const withoutToken = await callCode(url, session, "print(1)");
    expect(withoutToken.status).toBe(401);
  });

  it("caps open sessions with a clear JSON-RPC error (--max-sessions)", async () => {
    const { url } = await startServer(["--config", writeConfig("cap"), "--max-sessions", "2"]);
    const first = await openSession(url);
    await openSession(url);
    const full = await post(url, initialize);
    expect(full.status).toBe(503);
    expect(jsonRpcError(full).message).toMatch(/Server full: 2 sessions are open \(--max-sessions 2\)/);
    const ended = await post(
      url,
      "",
      { "mcp-session-id": first, "mcp-protocol-version": "2025-06-18" },
      "DELETE",
    );
    expect(ended.status).toBe(200);
    await openSession(url);
  });

  it("ends an idle session with its kernel and upstream servers (--session-idle-timeout)", async () => {
    const marker = `--upstream-marker-${process.pid}-idle`;
    const { url } = await startServer([
      "--config",
      writeConfig("idle", marker),
      "--session-idle-timeout",
      "1",
    ]);
    const session = await openSession(url);
    expect(await waitForProcessCount(marker, 1)).toBe(1);
    const started = await callCode(
      url,
      session,
      "import subprocess\nsubprocess.Popen(['sleep', '331.75'])\nprint('started')",
    );
    expect(started.body).toContain("started");
    expect(await waitForProcessCount("sleep 331.75", 1)).toBe(1);
    // Nothing is sent now: the session must end by itself, kernel and upstream server included.
    expect(await waitForProcessCount("sleep 331.75", 0, 30_000)).toBe(0);
    expect(await waitForProcessCount(marker, 0, 30_000)).toBe(0);
    const after = await callCode(url, session, "print(1)");
    expect(after.status).toBe(404);
    expect(jsonRpcError(after).message).toContain("Unknown session");
  });

  it("answers malformed JSON-RPC with -32700", async () => {
    const { url } = await startServer(["--config", writeConfig("malformed")]);
    const malformed = await post(url, "{not json");
    expect(malformed.status).toBe(400);
    expect(jsonRpcError(malformed).code).toBe(-32700);
    expect((await post(url, initialize)).status).toBe(200);
  });

  it("M4: answers a body over 8 MiB with 413 and the keep-alive connection stays usable", async () => {
    const { url } = await startServer(["--config", writeConfig("body")]);
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { padding: "x".repeat(9 * 1024 * 1024) },
    });
    // Both requests go down one connection before any answer is read (pipelined), so the second one can only be
    // answered if the server read past the oversized body and kept the connection: no idle gap, no timing.
    const answers = await sendOnOneConnection(url, [
      { body: big, headers: {} },
      { body: initialize, headers: { connection: "close" } },
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([413, 200]);
    expect(answers[0]!.body).toContain("limited to 8388608 bytes (8 MiB)");
    expect(answers[1]!.body).toContain('"result"');
  });

  it("fails at start with one line and a usage exit code for a bad --port or a missing --interpreter", () => {
    const config = writeConfig("flags");
    const badPort = spawnSync(
      process.execPath,
      [cli, "serve", "--config", config, "--http", "--port", "99999"],
      {
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(badPort.status).toBe(2);
    expect(badPort.stderr.trim()).toBe(
      "progagent: --port expects a non-negative integer <= 65535, got '99999' [INVALID_ARGUMENT]",
    );
    const missing = spawnSync(
      process.execPath,
      [
        cli,
        "serve",
        "--config",
        config,
        "--http",
        "--port",
        "0",
        "--interpreter",
        join(scratch, "no-python"),
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain("--interpreter");
    expect(missing.stderr).toContain("is not an executable file");
  });
});
