import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";
import { mcpTypesModule } from "./mcp-sdk.js";

/** The largest MCP message the servers read (stdio line or HTTP body): 8 MiB. */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/** How much of an oversized line is kept to find its JSON-RPC id (the SDK writes the id last). */
const ID_WINDOW_BYTES = 1024;

export interface StdioServerTransportOptions {
  input?: Readable;
  output?: Writable;
  maxMessageBytes?: number;
}

type RequestId = string | number;

/**
 * The id of a JSON-RPC request seen only by its head and tail: a leading `{"jsonrpc":"2.0","id":…` or a
 * trailing `"id":…}`. Undefined when neither is there (the error then goes out with a null id).
 */
export function findRequestId(head: string, tail: string): RequestId | undefined {
  const value = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
  const leading = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(
    head,
  );
  const trailing = new RegExp(String.raw`"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  const match = leading?.[1] ?? trailing?.[1];
  if (match === undefined) return undefined;
  return match.startsWith('"') ? (JSON.parse(match) as string) : Number(match);
}

/**
 * MCP over stdio with a message size limit. The SDK's transport closes itself (and the process then exits
 * with code 0) on a line over 10 MB and copies its buffer on every chunk; this one reads linearly, answers
 * an oversized request with a JSON-RPC error naming the limit (its bytes are dropped as they arrive), answers
 * unparsable lines with -32700, and keeps serving.
 */
export function createStdioServerTransport(options: StdioServerTransportOptions = {}): Transport {
  const { ErrorCode, JSONRPCMessageSchema } = mcpTypesModule();
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxBytes = options.maxMessageBytes ?? MAX_REQUEST_BYTES;
  let parts: Buffer[] = [];
  let partBytes = 0;
  /** Inside an oversized line: its head is kept for the id, the rest only counted, the last bytes kept. */
  let oversized: { head: string; tail: Buffer; bytes: number } | undefined;
  let closed = false;

  const write = (message: unknown): Promise<void> =>
    new Promise((resolve) => {
      if (closed || output.destroyed) return resolve();
      if (output.write(`${JSON.stringify(message)}\n`)) resolve();
      else output.once("drain", () => resolve());
    });

  const respondError = (id: RequestId | undefined, code: number, message: string): void => {
    void write({ jsonrpc: "2.0", id: id ?? null, error: { code, message } });
  };

  const handleLine = (line: string): void => {
    if (line.trim().length === 0) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      respondError(undefined, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      respondError(
        typeof id === "string" || typeof id === "number" ? id : undefined,
        ErrorCode.InvalidRequest,
        "Invalid Request: expected a JSON-RPC 2.0 message",
      );
      return;
    }
    transport.onmessage?.(parsed.data);
  };

  const finishOversized = (): void => {
    const state = oversized!;
    oversized = undefined;
    const id = findRequestId(state.head, state.tail.toString("utf8"));
    respondError(
      id,
      ErrorCode.InvalidRequest,
      `Request too large: ${state.bytes} bytes; one MCP message over stdio is limited to ${maxBytes} bytes (${maxBytes / 1024 / 1024} MiB). The message was dropped; the server goes on.`,
    );
  };

  const collect = (part: Buffer): void => {
    if (part.length === 0) return;
    if (oversized) {
      oversized.bytes += part.length;
      const tail = Buffer.concat([oversized.tail, part]);
      oversized.tail = tail.subarray(Math.max(0, tail.length - ID_WINDOW_BYTES));
      return;
    }
    partBytes += part.length;
    if (partBytes <= maxBytes) {
      parts.push(part);
      return;
    }
    const head = Buffer.concat([...parts, part]).subarray(0, ID_WINDOW_BYTES);
    oversized = {
      head: head.toString("utf8"),
      tail: part.subarray(Math.max(0, part.length - ID_WINDOW_BYTES)),
      bytes: partBytes,
    };
    parts = [];
    partBytes = 0;
  };

  const onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start <= data.length) {
      const newline = data.indexOf(10, start);
      if (newline < 0) {
        collect(data.subarray(start));
        return;
      }
      collect(data.subarray(start, newline));
      if (oversized) finishOversized();
      else if (parts.length > 0) {
        const line = Buffer.concat(parts, partBytes).toString("utf8").replace(/\r$/, "");
        parts = [];
        partBytes = 0;
        handleLine(line);
      }
      start = newline + 1;
    }
  };
  const onError = (error: Error): void => transport.onerror?.(error);
  const onEnd = (): void => void transport.close();
  // A client that went away (EPIPE on stdout) ends the session instead of crashing the process.
  const onOutputError = (error: Error): void => {
    transport.onerror?.(error);
    void transport.close();
  };

  const transport: Transport = {
    async start() {
      input.on("data", onData);
      input.on("error", onError);
      input.once("end", onEnd);
      output.on("error", onOutputError);
    },
    async send(message: JSONRPCMessage) {
      await write(message);
    },
    async close() {
      if (closed) return;
      closed = true;
      input.off("data", onData);
      input.off("error", onError);
      input.off("end", onEnd);
      input.pause();
      transport.onclose?.();
    },
  };
  return transport;
}
