import { describe, expect, it } from "vitest";
import { parseToolCalls } from "./parse-tool-calls.js";

describe("parseToolCalls", () => {
  it("reads hermes JSON calls, reasoning, content and the end of turn", () => {
    const raw =
      '<think>\nlook first\n</think>\n\nChecking.\n<tool_call>\n{"name": "programmatic_tool_call", "arguments": {"code": "print(1.0)"}}\n</tool_call>\n<tool_call>\n{"name": "claim_done", "arguments": "{\\"answer\\": \\"2.50\\"}"}\n</tool_call><|im_end|>';
    const parsed = parseToolCalls(raw);
    expect(parsed.reasoning).toBe("look first");
    expect(parsed.content).toBe("Checking.");
    expect(parsed.endedTurn).toBe(true);
    expect(parsed.errors).toEqual([]);
    expect(parsed.calls.map((call) => [call.name, call.arguments, call.format])).toEqual([
      ["programmatic_tool_call", { code: "print(1.0)" }, "hermes"],
      ["claim_done", { answer: "2.50" }, "hermes"],
    ]);
    expect(parsed.calls[1]!.argumentsText).toBe('{"answer": "2.50"}');
  });

  it("reads the Qwen3-coder XML form and converts declared types", () => {
    const raw =
      "<tool_call>\n<function=get_orders>\n<parameter=page>\n2\n</parameter>\n<parameter=status>\nopen\n</parameter>\n</function>\n</tool_call>";
    const parsed = parseToolCalls(raw, (name) =>
      name === "get_orders" ? { page: "integer", status: "string" } : undefined,
    );
    expect(parsed.calls).toEqual([
      {
        name: "get_orders",
        arguments: { page: 2, status: "open" },
        argumentsText: '{"page":2,"status":"open"}',
        format: "xml",
      },
    ]);
    expect(parsed.endedTurn).toBe(false);
  });

  it("keeps multi-line code in XML parameters verbatim", () => {
    const code = 'rows = tools["list"]()\nfor r in rows:\n    print(r)';
    const parsed = parseToolCalls(
      `<tool_call>\n<function=programmatic_tool_call>\n<parameter=code>\n${code}\n</parameter>\n</function>\n</tool_call>`,
    );
    expect(parsed.calls[0]!.arguments).toEqual({ code });
  });

  it("turns broken blocks into teaching errors instead of throwing", () => {
    expect(parseToolCalls("<tool_call>\n{not json}\n</tool_call>").errors[0]).toMatch(/not valid JSON/);
    expect(parseToolCalls('<tool_call>\n{"arguments": {}}\n</tool_call>').errors[0]).toMatch(
      /lacks its "name"/,
    );
    expect(parseToolCalls('<tool_call>\n{"name": "x", "arguments": [1]}\n</tool_call>').errors[0]).toMatch(
      /JSON object/,
    );
    const truncated = parseToolCalls('<tool_call>\n{"name": "x", "argum');
    expect(truncated.errors[0]).toMatch(/not closed/);
    expect(truncated.calls).toEqual([]);
    expect(
      parseToolCalls("<tool_call>\n<function=x>\n<parameter=a>\n1\n</parameter>\n</tool_call>").errors[0],
    ).toMatch(/<\/function>/);
  });

  it("returns plain text with no calls", () => {
    const parsed = parseToolCalls("All done, nothing to call.<|im_end|>");
    expect(parsed).toMatchObject({
      content: "All done, nothing to call.",
      calls: [],
      errors: [],
      reasoning: "",
    });
  });

  it("reads XML parameters as the regex did: names with line breaks or empty are skipped, a value may hold tags", () => {
    const call = (inner: string) =>
      parseToolCalls(`<tool_call>\n<function=f>\n${inner}\n</function>\n</tool_call>`).calls[0]!.arguments;
    expect(call("<parameter=a\nb>1</parameter><parameter=c>2</parameter>")).toEqual({ c: "2" });
    expect(call("<parameter=>1</parameter><parameter= d >3</parameter>")).toEqual({ d: "3" });
    expect(call("<parameter=x><parameter=y>4</parameter>")).toEqual({ x: "<parameter=y>4" });
    expect(call("<parameter=a>1</parameter><parameter=b>unclosed")).toEqual({ a: "1" });
    expect(call("<parameter=a>".repeat(80_000))).toEqual({});
  });
});

describe("parseToolCalls on degenerate output", () => {
  it("keeps at most maxCalls calls and maxErrors errors, counting the rest in one error each", () => {
    const good = '<tool_call>\n{"name": "list_files", "arguments": {}}\n</tool_call>';
    const bad = "<tool_call>\nnot json\n</tool_call>";
    const parsed = parseToolCalls(`${good.repeat(100_000)}${bad.repeat(100_000)}`, undefined, {
      maxCalls: 64,
    });
    expect(parsed.calls).toHaveLength(64);
    expect(parsed.errors).toHaveLength(18);
    expect(parsed.errors.slice(-2)).toEqual([
      "99984 more tool calls could not be parsed",
      "99936 more tool calls were not run: one turn makes at most 64",
    ]);
  });
});
