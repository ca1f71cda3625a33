import { createTempDir } from "../core/index.js";
import { assertUsableWorkspace, type KernelOptions } from "../kernel/index.js";
import { toolInputJsonSchema } from "./define-tool.js";
import { createMcpToolServer, type McpSession, type ServedTool } from "./mcp-server.js";
import {
  PTC_TOOL_NAME,
  createPtcSession,
  ptcInputSchema,
  renderPtcToolDescription,
  type PtcSession,
} from "./ptc-session.js";
import { textResult } from "./tool-types.js";
import { connectUpstreams, type McpConfig } from "./upstream.js";

/** What the served PTC tool needs: the tools to document and a way to run code. */
export type PtcRunner = Pick<PtcSession, "run"> & {
  readonly router: Pick<PtcSession["router"], "endpoints">;
};

/** The largest program one `programmatic_tool_call` runs (UTF-8 bytes). */
export const MAX_CODE_BYTES = 1024 * 1024;

/** The `programmatic_tool_call` tool over a PTC session (or an episode), as MCP serves it. */
export function ptcServedTool(
  session: PtcRunner,
  options: { toolName?: string; timeoutMs?: number; workspaceNote?: string } = {},
): ServedTool {
  const timeoutSeconds = Math.round((options.timeoutMs ?? 60_000) / 1000);
  const describe = {
    timeoutSeconds,
    ...(options.workspaceNote ? { workspaceNote: options.workspaceNote } : {}),
  };
  return {
    spec: {
      name: options.toolName ?? PTC_TOOL_NAME,
      description: renderPtcToolDescription(session.router.endpoints, describe),
      inputSchema: toolInputJsonSchema(ptcInputSchema),
    },
    async call(args, callOptions) {
      const parsed = ptcInputSchema.safeParse(args);
      if (!parsed.success) {
        return textResult(`Invalid arguments: expected {"code": string} with the Python code to run.`, true);
      }
      const codeBytes = Buffer.byteLength(parsed.data.code, "utf8");
      if (codeBytes > MAX_CODE_BYTES) {
        return textResult(
          `The code is ${codeBytes} bytes; ${options.toolName ?? PTC_TOOL_NAME} runs at most ${MAX_CODE_BYTES / 1024 / 1024} MiB of code per call. ` +
            "Keep data out of the code: read it from workspace files or tools inside the program.",
          true,
        );
      }
      const result = await session.run(parsed.data.code, {
        signal: callOptions.signal,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      return textResult(result.text);
    },
  };
}

export interface ProgrammaticServerOptions {
  config: McpConfig;
  /** A fixed workspace shared by all sessions; default: a fresh temporary directory per session. */
  workspaceDir?: string;
  timeoutMs?: number;
  toolName?: string;
  kernelOptions?: Omit<KernelOptions, "workspaceDir" | "timeoutMs">;
}

/**
 * Makes one isolated session per MCP client: its own upstream connections, its own kernel and workspace,
 * and one served tool, `programmatic_tool_call`.
 */
export function programmaticSessionFactory(options: ProgrammaticServerOptions): () => Promise<McpSession> {
  // A workspace no kernel can use fails here, when the server starts, not in every session.
  if (options.workspaceDir !== undefined) assertUsableWorkspace(options.workspaceDir);
  return async () => {
    const upstream = await connectUpstreams(options.config);
    const workspace = options.workspaceDir ? undefined : createTempDir("workspace");
    try {
      const session = createPtcSession({
        endpoints: upstream.endpoints,
        kernelOptions: {
          ...options.kernelOptions,
          workspaceDir: options.workspaceDir ?? workspace!.path,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        },
      });
      const tool = ptcServedTool(session, {
        // No task here: /workspace is the folder the server was given, or a scratch folder of the session.
        workspaceNote: options.workspaceDir
          ? "holds the files of the served workspace folder"
          : "is a scratch folder of this session, empty at its start",
        ...(options.toolName === undefined ? {} : { toolName: options.toolName }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      const server = createMcpToolServer({ name: "progagent", version: "0.1.0", tools: () => [tool] });
      return {
        server,
        async dispose() {
          await session.dispose();
          await upstream.dispose();
          workspace?.dispose();
        },
      };
    } catch (error) {
      await upstream.dispose();
      workspace?.dispose();
      throw error;
    }
  };
}
