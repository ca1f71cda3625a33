import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedReply {
  status?: number;
  /** The assistant message (OpenAI format) or a raw body for error statuses. */
  body?: unknown;
  delayMs?: number;
  headers?: Record<string, string>;
}

/** An OpenAI-compatible /chat/completions endpoint that answers from a script, recording every request. */
export interface ScriptedOpenAiServer {
  baseUrl: string;
  requests: Array<Record<string, unknown>>;
  push(...replies: ScriptedReply[]): void;
  /** Forgets unused replies and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export function assistantToolCall(
  name: string,
  args: string | Record<string, unknown>,
  id = `call_${Math.random().toString(36).slice(2, 8)}`,
): ScriptedReply {
  return {
    body: {
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id,
                type: "function",
                function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
              },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    },
  };
}

/** A plain text reply (what a model says to a one-token check, for example). */
export function assistantText(content: string): ScriptedReply {
  return {
    body: {
      choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 1 },
    },
  };
}

export async function startScriptedOpenAiServer(): Promise<ScriptedOpenAiServer> {
  const queue: ScriptedReply[] = [];
  const requests: Array<Record<string, unknown>> = [];
  const server: Server = createServer((request, response) => {
    let data = "";
    request.on("data", (chunk: Buffer) => (data += chunk.toString()));
    request.on("end", () => {
      requests.push(JSON.parse(data || "{}") as Record<string, unknown>);
      const reply = queue.shift() ?? { status: 500, body: { error: "script exhausted" } };
      const send = (): void => {
        if (response.destroyed) return;
        response.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        response.end(JSON.stringify(reply.body ?? {}));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...replies) => queue.push(...replies),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
