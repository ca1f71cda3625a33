/**
 * What a model sees of upstream MCP tools through `progagent serve`: valid Python signatures whatever the
 * tools' names, nested argument fields in help(), return types from output schemas, string formats checked
 * without noise on stderr.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskToolDefinitions } from "../src/envs/index.js";
import { renderPtcToolDescription, toolInputJsonSchema, type ToolSpec } from "../src/runtime/index.js";
import { loadSuite } from "../src/suite/index.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = mkdtempSync(join(tmpdir(), "progagent-rendering-test-"));
let client: Client;
let stderr = "";

/** Parses Python source with `ast` and lists each function: name, argument names, return annotation. */
export function pythonFunctions(source: string): Array<{ name: string; args: string[]; returns: string }> {
  const program = [
    "import ast, json, sys",
    "tree = ast.parse(sys.stdin.read())",
    "print(json.dumps([{'name': f.name, 'args': [a.arg for a in f.args.args], 'returns': ast.unparse(f.returns)}",
    "                  for f in tree.body if isinstance(f, ast.FunctionDef)]))",
  ].join("\n");
  return JSON.parse(
    execFileSync("/usr/bin/python3", ["-c", program], { input: source, encoding: "utf8" }),
  ) as Array<{
    name: string;
    args: string[];
    returns: string;
  }>;
}

async function run(code: string): Promise<string> {
  const result = await client.callTool({ name: "programmatic_tool_call", arguments: { code } });
  return ((result as { content: Array<{ text: string }> }).content[0]?.text ?? "").trim();
}

beforeAll(async () => {
  const config = join(scratch, "mcp.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        zoo: {
          command: process.execPath,
          args: ["--import", "tsx", join(projectRoot, "test", "fixtures", "schema-zoo-server.ts")],
        },
      },
    }),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(projectRoot, "bin", "progagent.js"), "serve", "--config", config, "--timeout", "30"],
    cwd: projectRoot,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: "rendering-test", version: "1.0.0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("upstream tools as a program sees them", () => {
  it("describes every tool with a signature that parses as Python, return types from output schemas", async () => {
    const { tools } = await client.listTools();
    const description = tools[0]?.description ?? "";
    const listing = description.slice(description.indexOf("Available tools:") + "Available tools:".length);
    const functions = pythonFunctions(listing);
    expect(functions).toEqual([
      { name: "get_sum", args: ["numbers", "class_", "user_id"], returns: "dict" },
      { name: "create_events", args: ["events", "options"], returns: "Any" },
    ]);
    expect(listing).toContain('Call it as tools["get-sum"](...) or tools.get_sum(...).');
    expect(listing).toContain("sum (float): The total");
  });

  it("calls a tool by its real name or its Python stand-in, with a renamed argument passed by its real name", async () => {
    expect(await run('print(tools["get-sum"](numbers=[1, 2, 3.5]))')).toBe("{'sum': 6.5, 'count': 3}");
    expect(await run('print(tools.get_sum([4], **{"user-id": "u1", "class": "c"})["sum"])')).toBe("4");
  });

  it("shows the fields of nested argument objects in help()", async () => {
    const help = await run("help(tools.create_events)");
    expect(help).toContain("create_events(events: list[dict], options: dict = None) -> Any");
    expect(help).toMatch(
      /events \(list\[dict\]\): The events to create\n\s+each item:\n\s+title \(str\): Event title/,
    );
    expect(help).toMatch(/starts_at \(str, date-time\)/);
    expect(help).toMatch(/attendees \(list\[dict\], optional\):\n\s+each item:\n\s+email \(str, email\)/);
    expect(help).toMatch(/calendar \(Literal\["work", "home", None\], optional\)/);
  });

  it("checks the string formats MCP servers use (uri, date-time)", async () => {
    const refused = await run(
      'try:\n    tools.create_events(events=[{"title": "x", "starts_at": "tomorrow", "link": "not a uri"}])\nexcept ToolError as error:\n    print(error)',
    );
    expect(refused).toContain('must match format "date-time"');
    expect(refused).toContain('must match format "uri"');
    expect(
      await run(
        'print(tools.create_events(events=[{"title": "x", "starts_at": "2026-01-02T10:00:00Z", "link": "https://example.org/a"}]))',
      ),
    ).toBe("{'created': 1}");
  });

  it("leaves stderr free of schema-validator noise", () => {
    expect(stderr).not.toMatch(/unknown format/);
  });
});

describe("rendered signatures", () => {
  it("parse as Python for every built-in tool and for awkward upstream schemas", async () => {
    const specs = new Map<string, ToolSpec>();
    for (const task of await loadSuite("*"))
      for (const tool of taskToolDefinitions(task))
        specs.set(tool.name, {
          name: tool.name,
          description: tool.description,
          inputSchema: toolInputJsonSchema(tool.inputSchema),
          kind: tool.kind,
        });
    const awkward: ToolSpec[] = [
      {
        name: "2fa.verify",
        description: 'Ends with a quote "',
        inputSchema: {
          type: "object",
          properties: {
            from: { type: "string", default: "a\\b" },
            "from-": { type: "boolean", default: true },
            filters: { type: "object", default: { active: true, tags: [null] } },
            mode: { enum: [1, "two", null, false] },
            lambda: { type: ["string", "null"] },
          },
          required: ["mode"],
        },
        outputSchema: { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } },
      },
    ];
    const all = [...specs.values(), ...awkward];
    const description = renderPtcToolDescription(all, { maxChars: 10_000_000 });
    const functions = pythonFunctions(description.slice(description.indexOf("Available tools:") + 16));
    expect(functions).toHaveLength(all.length);
    expect(functions.at(-1)).toEqual({
      name: "_2fa_verify",
      args: ["mode", "from_", "from__2", "filters", "lambda_"],
      returns: "list[dict]",
    });
    // Shortened descriptions (a large tool set) still parse: a budget just under the full text forces the
    // shortened docstrings (the budget grows with the suite, so it is relative, not a fixed size).
    const short = renderPtcToolDescription(all, { maxChars: description.length - 1 });
    expect(short.length).toBeLessThan(description.length);
    expect(short).toContain("... (full docs: help(tools.");
    expect(pythonFunctions(short.slice(short.indexOf("Available tools:") + 16)).length).toBe(all.length);
  });
});
