import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { connectUpstreams } from "../src/runtime/index.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(projectRoot, "bin", "progagent.js");
const require = createRequire(import.meta.url);
const memoryServer = join(
  dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
  "dist",
  "index.js",
);
const scratch = mkdtempSync(join(tmpdir(), "progagent-serve-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writeConfig(name: string): string {
  const path = join(scratch, `${name}.json`);
  const config = {
    mcpServers: {
      memory: {
        command: process.execPath,
        args: [memoryServer],
        env: { MEMORY_FILE_PATH: join(scratch, `${name}-memory.jsonl`) },
      },
    },
  };
  writeFileSync(path, JSON.stringify(config));
  return path;
}

async function connectStdio(configPath: string): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, "serve", "--config", configPath, "--timeout", "20"],
      stderr: "ignore",
    }),
  );
  return client;
}

function text(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0]?.text ?? "").trim();
}

describe("progagent serve", () => {
  it("serves programmatic_tool_call over a real upstream MCP server (stdio)", async () => {
    const client = await connectStdio(writeConfig("single"));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["programmatic_tool_call"]);
      expect(tools[0]?.description).toContain("def create_entities(");
      expect(tools[0]?.description).toContain('tools["name"](**kwargs)');

      const program = [
        "names = [f'city-{i}' for i in range(12)]",
        "for name in names:",
        "    tools.create_entities(entities=[{'name': name, 'entityType': 'city', 'observations': [f'population {len(name) * 1000}']}])",
        "graph = tools.read_graph()",
        "cities = [e for e in graph['entities'] if e['entityType'] == 'city']",
        "print(f'{len(cities)} cities stored')",
      ].join("\n");
      const first = await client.callTool({ name: "programmatic_tool_call", arguments: { code: program } });
      expect(text(first)).toBe("12 cities stored");
      const second = await client.callTool({
        name: "programmatic_tool_call",
        arguments: { code: "print(len(names), cities[0]['name'])" },
      });
      expect(text(second)).toBe("12 city-0");

      const bad = await client.callTool({ name: "programmatic_tool_call", arguments: { wrong: 1 } });
      expect(bad.isError).toBe(true);
      const after = await client.callTool({
        name: "programmatic_tool_call",
        arguments: { code: "print('still serving')" },
      });
      expect(text(after)).toBe("still serving");
    } finally {
      await client.close();
    }
  });

  it("keeps concurrent sessions isolated", async () => {
    const [first, second] = await Promise.all([
      connectStdio(writeConfig("a")),
      connectStdio(writeConfig("b")),
    ]);
    try {
      await Promise.all([
        first.callTool({
          name: "programmatic_tool_call",
          arguments: { code: "secret = 'first'\nopen('mark.txt', 'w').write('first')" },
        }),
        second.callTool({ name: "programmatic_tool_call", arguments: { code: "secret = 'second'" } }),
      ]);
      const [fromFirst, fromSecond] = await Promise.all([
        first.callTool({
          name: "programmatic_tool_call",
          arguments: { code: "import os\nprint(secret, os.path.exists('mark.txt'))" },
        }),
        second.callTool({
          name: "programmatic_tool_call",
          arguments: { code: "import os\nprint(secret, os.path.exists('mark.txt'))" },
        }),
      ]);
      expect(text(fromFirst)).toBe("first True");
      expect(text(fromSecond)).toBe("second False");
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("serves Streamable HTTP with one kernel per session", async () => {
    const server = spawn(
      process.execPath,
      [cli, "serve", "--config", writeConfig("http"), "--http", "--port", "0"],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    try {
      const url = await new Promise<string>((done, fail) => {
        let buffer = "";
        const timer = setTimeout(() => fail(new Error(`no URL announced: ${buffer}`)), 30_000);
        server.stderr.on("data", (chunk: Buffer) => {
          buffer += chunk.toString();
          const match = /serving MCP \(Streamable HTTP\) at (\S+)/.exec(buffer);
          if (match?.[1]) {
            clearTimeout(timer);
            done(match[1]);
          }
        });
      });
      const clients = [new Client({ name: "a", version: "1" }), new Client({ name: "b", version: "1" })];
      await Promise.all(
        clients.map((client) => client.connect(new StreamableHTTPClientTransport(new URL(url)))),
      );
      await clients[0]!.callTool({ name: "programmatic_tool_call", arguments: { code: "value = 1" } });
      const isolated = await clients[1]!.callTool({
        name: "programmatic_tool_call",
        arguments: { code: "print('value' in globals())" },
      });
      expect(text(isolated)).toBe("False");
      const kept = await clients[0]!.callTool({
        name: "programmatic_tool_call",
        arguments: { code: "print(value + 1)" },
      });
      expect(text(kept)).toBe("2");
      await Promise.all(clients.map((client) => client.close()));

      // The same server as a Streamable HTTP upstream of progagent's own client.
      await using upstream = await connectUpstreams({ mcpServers: { remote: { url } } });
      expect(upstream.endpoints.map((endpoint) => endpoint.name)).toEqual(["programmatic_tool_call"]);
      const viaClient = await upstream.endpoints[0]!.call(
        { code: "print(6 * 7)" },
        { signal: new AbortController().signal, timeoutMs: 30_000 },
      );
      expect(text(viaClient)).toBe("42");
      const invalid = await upstream.endpoints[0]!.call(
        { code: 7 },
        { signal: new AbortController().signal, timeoutMs: 30_000 },
      );
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toMatch(/field 'code' must be string/);
    } finally {
      server.kill("SIGTERM");
      await new Promise((done) => server.once("exit", done));
    }
  });
});
