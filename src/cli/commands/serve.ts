import type { Command } from "commander";
import { programmaticSessionFactory, readMcpConfig, serveHttp, serveStdio } from "../../runtime/index.js";
import { kernelOptionsFrom, parseIntegerOption, parseSecondsOption, waitForShutdown } from "../options.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
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
    .option("--tool-name <name>", "name of the served tool", "programmatic_tool_call")
    .option("--interpreter <path>", "Python interpreter for the kernel", "/usr/bin/python3")
    .option("--unsafe-no-sandbox", "DEVELOPMENT ONLY: run model code without bubblewrap")
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const timeoutMs = parseSecondsOption(String(options.timeout), "--timeout");
      const factory = programmaticSessionFactory({
        config: readMcpConfig(String(options.config)),
        ...(typeof options.workspace === "string" ? { workspaceDir: options.workspace } : {}),
        timeoutMs,
        toolName: String(options.toolName),
        kernelOptions: kernelOptionsFrom(options),
      });
      if (options.http) {
        const handle = await serveHttp(factory, {
          port: parseIntegerOption(String(options.port), "--port", { min: 0, max: 65535 }),
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
