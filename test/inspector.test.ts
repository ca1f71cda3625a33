import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { loadSuite } from "../src/suite/index.js";

const run = promisify(execFile);
const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(projectRoot, "bin", "progagent.js");
const require = createRequire(import.meta.url);
const memoryServer = join(
  dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
  "dist",
  "index.js",
);
const inspector = join(
  dirname(require.resolve("@modelcontextprotocol/inspector/package.json")),
  "cli",
  "build",
  "cli.js",
);
const scratch = mkdtempSync(join(tmpdir(), "progagent-inspector-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the official MCP Inspector CLI headless against a server from an inspector config file. */
async function inspect(server: { command: string; args: string[] }, method: string[]): Promise<unknown> {
  const config = join(scratch, `inspector-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(config, JSON.stringify({ mcpServers: { target: server } }));
  const { stdout } = await run(
    process.execPath,
    [inspector, "--cli", "--config", config, "--server", "target", ...method],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout) as unknown;
}

describe("the MCP Inspector CLI", () => {
  it("lists and calls programmatic_tool_call on progagent serve with a real upstream", async () => {
    const upstream = join(scratch, "mcp.json");
    writeFileSync(
      upstream,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [memoryServer],
            env: { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") },
          },
        },
      }),
    );
    const server = { command: process.execPath, args: [cli, "serve", "--config", upstream] };
    const listing = (await inspect(server, ["--method", "tools/list"])) as { tools: Array<{ name: string }> };
    expect(listing.tools.map((tool) => tool.name)).toEqual(["programmatic_tool_call"]);
    const call = (await inspect(server, [
      "--method",
      "tools/call",
      "--tool-name",
      "programmatic_tool_call",
      "--tool-arg",
      "code=print(len(tools), 'read_graph' in tools)",
    ])) as {
      content: Array<{ text: string }>;
    };
    expect(call.content[0]?.text.trim()).toBe("9 True");
  });

  it("drives progagent env serve: tools per mode and claim_done", async () => {
    const task = (await loadSuite("university.*"))[0]!;
    const server = (mode: string) => ({
      command: process.execPath,
      args: [cli, "env", "serve", "--task", task.id, "--scale", "v0", "--mode", mode],
    });
    const hybrid = (await inspect(server("hybrid"), ["--method", "tools/list"])) as {
      tools: Array<{ name: string }>;
    };
    const names = hybrid.tools.map((tool) => tool.name);
    expect(names).toContain("programmatic_tool_call");
    expect(names).toContain("claim_done");
    expect(names).toContain(task.tools[0]);
    const done = (await inspect(server("dtc"), [
      "--method",
      "tools/call",
      "--tool-name",
      "claim_done",
      "--tool-arg",
      "answer=nothing",
    ])) as { content: Array<{ text: string }> };
    expect(done.content[0]?.text).toContain("Reward: 0");
  });
});
