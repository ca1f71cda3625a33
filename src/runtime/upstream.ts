import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Ajv, ValidateFunction } from "ajv";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ERROR_CODES, ProgAgentError, errorMessage, withDeadline } from "../core/index.js";
import { createSchemaValidator } from "./json-schema-validator.js";
import { renderPythonSignature } from "./render-tool.js";
import { textResult, type JsonSchemaObject, type ToolCallResult, type ToolEndpoint } from "./tool-types.js";

const stdioServerSchema = z.looseObject({
  command: z.string().min(1),
  args: z.array(z.string()).nullish(),
  env: z.record(z.string(), z.string()).nullish(),
  cwd: z.string().nullish(),
});
const httpServerSchema = z.looseObject({ url: z.url(), headers: z.record(z.string(), z.string()).nullish() });

/** The standard `{"mcpServers": {...}}` configuration, tolerant of extra keys. */
export const mcpConfigSchema = z.looseObject({
  mcpServers: z.record(
    z.string().regex(/^[A-Za-z0-9_-]+$/, "server names use letters, digits, _ and -"),
    z.union([stdioServerSchema, httpServerSchema]),
  ),
});
export type McpConfig = z.infer<typeof mcpConfigSchema>;

export function readMcpConfig(path: string): McpConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ProgAgentError(`cannot read MCP config '${path}': ${errorMessage(error)}`, {
      code: ERROR_CODES.CONFIG_INVALID,
      category: "user",
    });
  }
  const parsed = mcpConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
      .join("; ");
    throw new ProgAgentError(
      `invalid MCP config '${path}': ${problems}. Expected {"mcpServers": {"<name>": {"command": "...", "args": [...], "env": {...}} | {"url": "http://..."}}}`,
      { code: ERROR_CODES.CONFIG_INVALID, category: "user" },
    );
  }
  return parsed.data;
}

export interface UpstreamConnection {
  readonly endpoints: ToolEndpoint[];
  readonly servers: string[];
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface ConnectOptions {
  connectTimeoutMs?: number;
  signal?: AbortSignal;
  /** stderr of stdio servers: "ignore" (default; the last lines are still kept for error messages) or "inherit". */
  stderr?: "ignore" | "inherit";
  /** How often a server that closed its connection is restarted in one session (default 3). */
  maxRestarts?: number;
  /** Wait before the first restart; doubled for each further one (default 500 ms). */
  restartBackoffMs?: number;
}

type ServerEntry = McpConfig["mcpServers"][string];

/** Bytes of an upstream's stderr kept for error messages. */
const STDERR_TAIL_BYTES = 2_000;

/**
 * One upstream server whose connection is restarted (with backoff, a bounded number of times) when it
 * closes: a process that exits mid-call, or one that drops the connection on a message it cannot read.
 */
class RestartingConnection {
  private client: Client | undefined;
  private restarts = 0;
  private lastFailureAt = 0;
  private lastFailure = "";
  private stderrTail = "";
  private reconnecting: Promise<Client> | undefined;
  private disposed = false;

  constructor(
    readonly server: string,
    private readonly entry: ServerEntry,
    private readonly options: ConnectOptions,
  ) {}

  /** Connects for the first time (failures throw: a server that never starts is a configuration error). */
  async start(): Promise<Client> {
    this.client = await this.connect();
    return this.client;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolCallResult> {
    let client: Client;
    try {
      client = await this.current();
    } catch (error) {
      return textResult(
        `Error from MCP server '${this.server}' (tool '${name}'): ${errorMessage(error)}`,
        true,
      );
    }
    try {
      return (await client.callTool({ name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
      })) as ToolCallResult;
    } catch (error) {
      if (client === this.client) {
        return textResult(
          `Error from MCP server '${this.server}' (tool '${name}'): ${errorMessage(error)}`,
          true,
        );
      }
      // The connection closed under this call: say so, and what happens next.
      const stderr = this.stderrTail.trim();
      const next =
        this.restarts < this.maxRestarts
          ? `It will be restarted for the next call (restart ${this.restarts + 1} of ${this.maxRestarts}); this call was not retried, so its effects, if any, are unknown.`
          : `It was restarted ${this.maxRestarts} times already and is not restarted again in this session.`;
      return textResult(
        `Error from MCP server '${this.server}' (tool '${name}'): the server closed the connection during the call (${this.lastFailure || errorMessage(error)}).` +
          (stderr ? ` Its last stderr output: ${JSON.stringify(stderr.slice(-500))}.` : "") +
          ` ${next}`,
        true,
      );
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private get maxRestarts(): number {
    return this.options.maxRestarts ?? 3;
  }

  /** The live client, restarting the server first if its connection closed. */
  private async current(): Promise<Client> {
    if (this.client) return this.client;
    if (this.disposed) throw new Error("the session has ended");
    if (this.restarts >= this.maxRestarts)
      throw new Error(
        `the server closed its connection ${this.restarts + 1} times (last: ${this.lastFailure}); it is not restarted again in this session`,
      );
    this.reconnecting ??= (async () => {
      const backoffMs = (this.options.restartBackoffMs ?? 500) * 2 ** this.restarts;
      const waitMs = this.lastFailureAt + backoffMs - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      this.restarts += 1;
      try {
        this.client = await this.connect();
        return this.client;
      } catch (error) {
        this.lastFailureAt = Date.now();
        this.lastFailure = `restart ${this.restarts} failed: ${errorMessage(error)}`;
        throw new Error(`the server could not be restarted: ${errorMessage(error)}`);
      }
    })().finally(() => {
      this.reconnecting = undefined;
    });
    return await this.reconnecting;
  }

  private async connect(): Promise<Client> {
    // Loaded when the first upstream connects: commands that never connect one do not pay for the SDK.
    const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/stdio.js"),
      import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    ]);
    const client = new Client({ name: "progagent", version: "0.1.0" });
    const entry = this.entry;
    let transport: Transport;
    if ("url" in entry && typeof entry.url === "string") {
      transport = new StreamableHTTPClientTransport(
        new URL(entry.url),
        entry.headers ? { requestInit: { headers: entry.headers as Record<string, string> } } : undefined,
      );
    } else {
      const stdio = entry as z.infer<typeof stdioServerSchema>;
      const inherit = this.options.stderr === "inherit";
      const stdioTransport = new StdioClientTransport({
        command: stdio.command,
        args: stdio.args ?? [],
        env: { ...inheritedEnvironment(), ...(stdio.env ?? {}) },
        ...(stdio.cwd ? { cwd: stdio.cwd } : {}),
        stderr: inherit ? "inherit" : "pipe",
      });
      if (!inherit) {
        this.stderrTail = "";
        stdioTransport.stderr?.on("data", (chunk: Buffer) => {
          this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
        });
      }
      transport = stdioTransport;
    }
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.lastFailureAt = Date.now();
      this.lastFailure =
        transport instanceof StdioClientTransport ? "its process exited" : "the connection was closed";
    };
    const timeoutMs = this.options.connectTimeoutMs ?? 30_000;
    try {
      await withDeadline(client.connect(transport), {
        timeoutMs,
        signal: this.options.signal,
        what: `connecting to MCP server '${this.server}'`,
      });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return client;
  }
}

/**
 * Connects to every upstream MCP server (stdio or Streamable HTTP) and exposes their tools as endpoints.
 * A tool name gets its server as prefix (`server__tool`) only when two servers offer the same name.
 */
export async function connectUpstreams(
  config: McpConfig,
  options: ConnectOptions = {},
): Promise<UpstreamConnection> {
  const connections: RestartingConnection[] = [];
  const dispose = async (): Promise<void> => {
    await Promise.all(connections.map((connection) => connection.dispose()));
  };
  const listed: Array<{
    connection: RestartingConnection;
    tools: Array<{
      name: string;
      description?: string;
      inputSchema: JsonSchemaObject;
      outputSchema?: JsonSchemaObject;
    }>;
  }> = [];
  try {
    for (const [server, entry] of Object.entries(config.mcpServers)) {
      const connection = new RestartingConnection(server, entry, options);
      connections.push(connection);
      const timeoutMs = options.connectTimeoutMs ?? 30_000;
      try {
        const client = await connection.start();
        const tools = [];
        let cursor: string | undefined;
        do {
          const page = await withDeadline(client.listTools(cursor ? { cursor } : {}), {
            timeoutMs,
            signal: options.signal,
            what: `listing tools of '${server}'`,
          });
          tools.push(
            ...page.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              inputSchema: tool.inputSchema as JsonSchemaObject,
              ...(tool.outputSchema ? { outputSchema: tool.outputSchema as JsonSchemaObject } : {}),
            })),
          );
          cursor = page.nextCursor;
        } while (cursor);
        listed.push({ connection, tools });
      } catch (error) {
        throw new ProgAgentError(`cannot connect to MCP server '${server}': ${errorMessage(error)}`, {
          code: ERROR_CODES.UPSTREAM_CONNECT_FAILED,
          category: "upstream",
          cause: error,
        });
      }
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  const counts = new Map<string, number>();
  for (const { tools } of listed)
    for (const tool of tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  const ajv = createSchemaValidator();
  const endpoints: ToolEndpoint[] = [];
  for (const { connection, tools } of listed) {
    for (const tool of tools) {
      const name = (counts.get(tool.name) ?? 0) > 1 ? `${connection.server}__${tool.name}` : tool.name;
      endpoints.push(
        upstreamEndpoint(
          ajv,
          connection,
          tool.name,
          name,
          tool.description ?? "",
          tool.inputSchema,
          tool.outputSchema,
        ),
      );
    }
  }
  return {
    endpoints,
    servers: listed.map((entry) => entry.connection.server),
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

function upstreamEndpoint(
  ajv: Ajv,
  connection: RestartingConnection,
  upstreamName: string,
  name: string,
  description: string,
  inputSchema: JsonSchemaObject,
  outputSchema: JsonSchemaObject | undefined,
): ToolEndpoint {
  let validate: ValidateFunction | undefined;
  try {
    validate = ajv.compile(inputSchema);
  } catch {
    validate = undefined; // a schema ajv cannot compile is left to the server to check
  }
  const spec = {
    name,
    description,
    inputSchema,
    server: connection.server,
    ...(outputSchema ? { outputSchema } : {}),
  };
  return {
    ...spec,
    async call(args, options): Promise<ToolCallResult> {
      if (validate && !validate(args)) {
        const problems = (validate.errors ?? []).map((error) => {
          const field = error.instancePath
            ? `field '${error.instancePath.slice(1).replace(/\//g, ".")}'`
            : "arguments";
          return `${field} ${error.message ?? "is invalid"}`;
        });
        return textResult(
          `Invalid arguments for tool '${name}': ${problems.join("; ")}. Expected: ${renderPythonSignature(spec)}`,
          true,
        );
      }
      return await connection.callTool(upstreamName, args, options);
    },
  };
}

/** Upstream servers run on the host (not in the sandbox) and get the usual minimal environment for npx/node. */
function inheritedEnvironment(): Record<string, string> {
  const names = ["PATH", "HOME", "USER", "LANG", "TMPDIR", "NODE_PATH", "npm_config_cache"];
  const environment: Record<string, string> = {};
  for (const name of names) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}
