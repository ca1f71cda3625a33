import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createStdioServerTransport, findRequestId } from "./stdio-server-transport.js";

function harness(maxMessageBytes: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const received: JSONRPCMessage[] = [];
  const replies: Array<{ id: unknown; error?: { code: number; message: string } }> = [];
  let pending = "";
  output.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      replies.push(JSON.parse(pending.slice(0, newline)) as (typeof replies)[number]);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
  });
  const transport = createStdioServerTransport({ input, output, maxMessageBytes });
  transport.onmessage = (message) => received.push(message);
  return { input, transport, received, replies };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("stdio server transport", () => {
  it("answers an oversized line with its id and the limit, then goes on reading", async () => {
    const { input, transport, received, replies } = harness(1024);
    await transport.start();
    const big = JSON.stringify({
      method: "tools/call",
      params: { arguments: { code: "x".repeat(5000) } },
      jsonrpc: "2.0",
      id: 7,
    });
    // Arrives in pieces, as a pipe delivers it.
    for (let offset = 0; offset < big.length; offset += 333) input.write(big.slice(offset, offset + 333));
    input.write(`\n${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping" })}\n`);
    await flush();
    expect(replies).toHaveLength(1);
    expect(replies[0]!.id).toBe(7);
    expect(replies[0]!.error!.message).toMatch(/Request too large: \d+ bytes; .* limited to 1024 bytes/);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 8, method: "ping" }]);
  });

  it("answers unparsable lines with -32700 and non-JSON-RPC ones with -32600", async () => {
    const { input, transport, received, replies } = harness(1024);
    await transport.start();
    input.write('{not json\n{"hello": 1, "id": 3}\n');
    await flush();
    expect(replies.map((reply) => [reply.id, reply.error!.code])).toEqual([
      [null, -32700],
      [3, -32600],
    ]);
    expect(received).toEqual([]);
  });

  it("finds the id at the head or the tail of a request", () => {
    expect(findRequestId('{"jsonrpc":"2.0","id":"a-1","method":"x"', "")).toBe("a-1");
    expect(findRequestId('{"method":"x","params":{"id":5', ',"jsonrpc":"2.0","id":12}')).toBe(12);
    expect(findRequestId('{"method":"x"', '"params":{"id":5}}')).toBeUndefined();
  });
});
