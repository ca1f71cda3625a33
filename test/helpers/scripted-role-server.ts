import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoleRequest {
  messages: Array<{ role: string; content?: string | null; tool_calls?: unknown[]; tool_call_id?: string }>;
  tools?: Array<{ function: { name: string } }>;
}

/** An assistant reply calling one function, in OpenAI chat-completions form, with fixed usage. */
export function toolCallReply(
  name: string,
  args: Record<string, unknown>,
  usage = { prompt: 1_000, completion: 200 },
): unknown {
  return {
    choices: [
      {
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `call_${Math.random().toString(36).slice(2, 8)}`,
              type: "function",
              function: { name, arguments: JSON.stringify(args) },
            },
          ],
        },
        finish_reason: "tool_calls",
      },
    ],
    usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion },
  };
}

/**
 * An OpenAI-compatible /chat/completions endpoint that plays one role of the pipeline: each request is
 * answered by `respond` (which sees the whole conversation), recording every request.
 */
export interface RoleServer {
  baseUrl: string;
  requests: RoleRequest[];
  close(): Promise<void>;
}

export async function startRoleServer(
  respond: (request: RoleRequest, index: number) => unknown,
): Promise<RoleServer> {
  const requests: RoleRequest[] = [];
  const server: Server = createServer((request, response) => {
    let data = "";
    request.on("data", (chunk: Buffer) => (data += chunk.toString()));
    request.on("end", () => {
      const body = JSON.parse(data || "{}") as RoleRequest;
      requests.push(body);
      let reply: unknown;
      try {
        reply = respond(body, requests.length - 1);
      } catch (error) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: (error as Error).message }));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
