import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  bindTool,
  createPtcSession,
  decodeToolResult,
  defineTool,
  ToolFailure,
  type PtcSession,
  type ToolEndpoint,
} from "../src/runtime/index.js";

const inventory = defineTool({
  name: "get_inventory",
  description: "Stock levels of a warehouse.",
  kind: "read",
  inputSchema: z.object({
    warehouse: z.string().describe("Warehouse code"),
    include_empty: z.boolean().default(false).describe("Include SKUs with zero stock"),
  }),
  handler: ({ warehouse, include_empty }) => {
    if (warehouse === "nowhere") throw new ToolFailure(`warehouse '${warehouse}' not found`);
    const items = [
      { sku: "A-1", quantity: 5, price: 2.5 },
      { sku: "B-2", quantity: 0, price: 10 },
    ];
    return {
      warehouse,
      items: include_empty ? items : items.filter((item) => item.quantity > 0),
      audited: true,
      note: null,
    };
  },
});

/** An upstream-like endpoint that forgets isError. */
const sloppy: ToolEndpoint = {
  name: "sloppy-server.lookup",
  description: "Forgets isError.",
  inputSchema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  call: async (args) => ({
    content: [{ type: "text", text: args.key === "missing" ? "Error: no such key" : '{"value": 1}' }],
  }),
};

describe("tool proxy", () => {
  let session: PtcSession;
  beforeAll(() => {
    session = createPtcSession({ endpoints: [bindTool(inventory, {}), sloppy] });
  });
  afterAll(async () => {
    await session.dispose();
  });

  it("returns native Python values", async () => {
    const result = await session.run(
      'inv = tools["get_inventory"](warehouse="W1", include_empty=True)\nprint(type(inv).__name__, type(inv["items"]).__name__, inv["items"][0]["price"] * 2, inv["audited"] is True, inv["note"] is None)',
    );
    expect(result.text).toBe("dict list 5.0 True True");
  });

  it("maps positional arguments to the schema order and supports attribute access", async () => {
    const result = await session.run('len(tools.get_inventory("W1")["items"])');
    expect(result.text).toBe("1");
  });

  it("raises ToolError that code can catch, with the tool's message", async () => {
    const result = await session.run(
      'try:\n    tools.get_inventory(warehouse="nowhere")\nexcept ToolError as error:\n    print("caught:", error)',
    );
    expect(result.text).toContain("caught: get_inventory: Error: warehouse 'nowhere' not found");
  });

  it("treats an unflagged error text from a server as an error", async () => {
    const result = await session.run(
      'print(tools["sloppy-server.lookup"](key="x"))\ntools.sloppy_server_lookup(key="missing")',
    );
    expect(result.text).toContain("{'value': 1}");
    expect(result.text).toContain("ToolError: sloppy-server.lookup: Error: no such key");
  });

  it("validates arguments on the host, naming the expected fields and types", async () => {
    const result = await session.run('tools.get_inventory(warehouse=3, colour="red")');
    expect(result.status).toBe("error");
    expect(result.text).toContain("ToolError");
    expect(result.text).toMatch(/warehouse.*expected string/);
    expect(result.text).toContain("colour");
    expect(result.text).toContain(
      "Expected: get_inventory(warehouse: str, include_empty: bool = False) -> dict",
    );
  });

  it("lists the available tools for an unknown name", async () => {
    const byKey = await session.run('tools["get_inventroy"]()');
    expect(byKey.text).toContain(
      "Unknown tool 'get_inventroy'. Available tools: get_inventory, sloppy-server.lookup",
    );
    const byAttribute = await session.run("tools.nope()");
    expect(byAttribute.text).toContain("Available tools");
  });

  it("hints at the right syntax when a tool is called by its bare name", async () => {
    const result = await session.run('get_inventory(warehouse="W1")');
    expect(result.text).toContain("NameError");
    expect(result.text).toContain('tools["get_inventory"](...)');
  });

  it("documents tools through print(tools) and help()", async () => {
    const listing = await session.run("print(tools)");
    expect(listing.text).toContain("get_inventory(warehouse: str, include_empty: bool = False) -> dict");
    const help = await session.run("help(tools.get_inventory)");
    expect(help.text).toContain("Stock levels of a warehouse.");
    expect(help.text).toContain("include_empty (bool, optional): Include SKUs with zero stock");
  });

  it("counts tool calls per execution and records them", async () => {
    const calls: string[] = [];
    const recorded = createPtcSession({
      endpoints: [bindTool(inventory, {})],
      onCall: (record) => calls.push(record.name),
    });
    const result = await recorded.run(
      'for w in ["W1", "W2", "W3"]:\n    tools.get_inventory(warehouse=w)\nprint("done")',
    );
    expect(result.toolCallCount).toBe(3);
    expect(calls).toEqual(["get_inventory", "get_inventory", "get_inventory"]);
    await recorded.dispose();
  });
});

describe("decodeToolResult", () => {
  it("follows one deterministic rule", () => {
    expect(decodeToolResult({ content: [{ type: "text", text: "boom" }], isError: true })).toEqual({
      ok: false,
      error: "boom",
    });
    expect(
      decodeToolResult({ content: [{ type: "text", text: "{}" }], structuredContent: { a: 1 } }),
    ).toEqual({ ok: true, value: { a: 1 } });
    expect(decodeToolResult({ content: [{ type: "text", text: "[1, 2]" }] })).toEqual({
      ok: true,
      value: [1, 2],
    });
    expect(decodeToolResult({ content: [{ type: "text", text: "plain words" }] })).toEqual({
      ok: true,
      value: "plain words",
    });
    expect(decodeToolResult({ content: [{ type: "text", text: '{"error": "rate limited"}' }] }).ok).toBe(
      false,
    );
  });
});

describe("tool deadlines", () => {
  it("a hung tool hits its deadline and the program can go on", async () => {
    const hung: ToolEndpoint = {
      name: "hang",
      description: "Never answers.",
      inputSchema: { type: "object", properties: {} },
      call: () => new Promise(() => undefined),
    };
    const session = createPtcSession({ endpoints: [hung], toolTimeoutMs: 300 });
    try {
      const result = await session.run(
        'try:\n    tools.hang()\nexcept ToolError as error:\n    print("gave up:", error)\nprint("next")',
      );
      expect(result.text).toContain(
        "gave up: hang: Tool 'hang' failed: tool 'hang' did not finish within 300 ms",
      );
      expect(result.text).toContain("next");
    } finally {
      await session.dispose();
    }
  });
});
