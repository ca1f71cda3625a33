import type { Command } from "commander";
import { accessSync, constants, statSync } from "node:fs";
import { ERROR_CODES, ProgAgentError } from "../../core/index.js";
import { DEFAULT_MAX_SESSIONS } from "../../runtime/limits.js";
import {
  addHttpGuardOptions,
  httpGuardOptionsFrom,
  kernelOptionsFrom,
  parseIntegerOption,
  parseSecondsOption,
  waitForShutdown,
} from "../options.js";

function invalid(message: string): ProgAgentError {
  return new ProgAgentError(message, { code: ERROR_CODES.INVALID_ARGUMENT, category: "user" });
}

/** The kernel's interpreter must exist before the server announces itself, not at the first call. */
function assertInterpreter(path: string): void {
  try {
    if (!statSync(path).isFile()) throw new Error("not a file");
    accessSync(path, constants.X_OK);
  } catch {
    throw invalid(
      `--interpreter '${path}' is not an executable file; give the path of a Python 3 interpreter`,
    );
  }
}

function readAuthToken(name: string): string {
  const token = process.env[name];
  if (token === undefined || token.trim().length === 0)
    throw invalid(`--auth-token-env ${name}: the environment variable ${name} is not set or empty`);
  return token.trim();
}

export function registerServe(program: Command): void {
  addHttpGuardOptions(program.command("serve"), "with --http: ")
    .description(
      "Serve the PTC runtime as an MCP server with one tool, programmatic_tool_call, over upstream MCP servers",
    )
    .requiredOption(
      "--config <file>",
      'MCP config: {"mcpServers": {"<name>": {"command","args","env"} | {"url"}}}',
    )
    .option(
      "--workspace <dir>",
      "workspace bound at /workspace (default: a fresh temporary directory per session)",
    )
    .option("--timeout <seconds>", "per-execution timeout in seconds", "60")
    .option("--http", "serve Streamable HTTP on 127.0.0.1 instead of stdio")
    .option("--port <n>", "port for --http (0 picks a free one)", "8765")
    .option(
      "--auth-token-env <name>",
      "with --http: require 'Authorization: Bearer <token>', the token read from this environment variable",
    )
    .option(
      "--max-sessions <n>",
      `with --http: sessions open at once (each has a kernel and its own upstream servers)`,
      String(DEFAULT_MAX_SESSIONS),
    )
    .option(
      "--session-idle-timeout <seconds>",
      "with --http: end a session (kernel and upstream servers) after this long without a request",
      "1800",
    )
    .option("--tool-name <name>", "name of the served tool", "programmatic_tool_call")
    .option("--interpreter <path>", "Python interpreter for the kernel", "/usr/bin/python3")
    .option("--unsafe-no-sandbox", "DEVELOPMENT ONLY: run model code without bubblewrap")
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const { programmaticSessionFactory, readMcpConfig, serveHttp, serveStdio } =
        await import("../../runtime/index.js");
      const timeoutMs = parseSecondsOption(String(options.timeout), "--timeout");
      assertInterpreter(String(options.interpreter));
      const port = parseIntegerOption(String(options.port), "--port", { min: 0, max: 65_535 });
      const maxSessions = parseIntegerOption(String(options.maxSessions), "--max-sessions", { max: 100_000 });
      const idleTimeoutMs = parseSecondsOption(String(options.sessionIdleTimeout), "--session-idle-timeout");
      if (typeof options.authTokenEnv === "string" && !options.http)
        throw invalid("--auth-token-env applies to --http (stdio has no network clients to authenticate)");
      const authToken =
        typeof options.authTokenEnv === "string" ? readAuthToken(options.authTokenEnv) : undefined;
      const factory = programmaticSessionFactory({
        config: readMcpConfig(String(options.config)),
        ...(typeof options.workspace === "string" ? { workspaceDir: options.workspace } : {}),
        timeoutMs,
        toolName: String(options.toolName),
        kernelOptions: kernelOptionsFrom(options),
      });
      if (options.http) {
        const handle = await serveHttp(factory, {
          port,
          maxSessions,
          idleTimeoutMs,
          ...(authToken === undefined ? {} : { authToken }),
          ...httpGuardOptionsFrom(options),
        });
        process.stderr.write(`progagent: serving MCP (Streamable HTTP) at ${handle.url}\n`);
        await waitForShutdown();
        await handle.close();
      } else {
        const controller = new AbortController();
        void waitForShutdown().then(() => controller.abort());
        await serveStdio(factory, controller.signal);
      }
    });
}
