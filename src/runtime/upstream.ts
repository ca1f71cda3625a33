import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
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
  /** stderr of stdio servers: "ignore" (default) or "inherit". */
  stderr?: "ignore" | "inherit";
}

/**
 * Connects to every upstream MCP server (stdio or Streamable HTTP) and exposes their tools as endpoints.
 * A tool name gets its server as prefix (`server__tool`) only when two servers offer the same name.
 */
export async function connectUpstreams(
  config: McpConfig,
  options: ConnectOptions = {},
): Promise<UpstreamConnection> {
  const clients: Array<{ server: string; client: Client }> = [];
  const dispose = async (): Promise<void> => {
    await Promise.all(clients.map(({ client }) => client.close().catch(() => undefined)));
  };
  const listed: Array<{
    server: string;
    client: Client;
    tools: Array<{
      name: string;
      description?: string;
      inputSchema: JsonSchemaObject;
      outputSchema?: JsonSchemaObject;
    }>;
  }> = [];
  try {
    for (const [server, entry] of Object.entries(config.mcpServers)) {
      const client = new Client({ name: "progagent", version: "0.1.0" });
      const transport =
        "url" in entry && typeof entry.url === "string"
          ? new StreamableHTTPClientTransport(
              new URL(entry.url),
              entry.headers
                ? { requestInit: { headers: entry.headers as Record<string, string> } }
                : undefined,
            )
          : new StdioClientTransport({
              command: (entry as z.infer<typeof stdioServerSchema>).command,
              args: (entry as z.infer<typeof stdioServerSchema>).args ?? [],
              env: { ...inheritedEnvironment(), ...((entry as z.infer<typeof stdioServerSchema>).env ?? {}) },
              ...((entry as z.infer<typeof stdioServerSchema>).cwd
                ? { cwd: (entry as z.infer<typeof stdioServerSchema>).cwd as string }
                : {}),
              stderr: options.stderr ?? "ignore",
            });
      clients.push({ server, client });
      const timeoutMs = options.connectTimeoutMs ?? 30_000;
      try {
        await withDeadline(client.connect(transport), {
          timeoutMs,
          signal: options.signal,
          what: `connecting to MCP server '${server}'`,
        });
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
        listed.push({ server, client, tools });
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
  for (const { server, client, tools } of listed) {
    for (const tool of tools) {
      const name = (counts.get(tool.name) ?? 0) > 1 ? `${server}__${tool.name}` : tool.name;
      endpoints.push(
        upstreamEndpoint(
          ajv,
          client,
          server,
          tool.name,
          name,
          tool.description ?? "",
          tool.inputSchema,
          tool.outputSchema,
        ),
      );
    }
  }
  return { endpoints, servers: listed.map((entry) => entry.server), dispose, [Symbol.asyncDispose]: dispose };
}

function upstreamEndpoint(
  ajv: Ajv,
  client: Client,
  server: string,
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
  const spec = { name, description, inputSchema, server, ...(outputSchema ? { outputSchema } : {}) };
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
      try {
        const result = await client.callTool({ name: upstreamName, arguments: args }, undefined, {
          signal: options.signal,
          timeout: options.timeoutMs,
        });
        return result as ToolCallResult;
      } catch (error) {
        return textResult(
          `Error from MCP server '${server}' (tool '${upstreamName}'): ${errorMessage(error)}`,
          true,
        );
      }
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
