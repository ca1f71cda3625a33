import { describe, expect, it } from "vitest";
import { analyzeCodeBlocks, type CodeFeatures } from "./code-features.js";

async function analyzeOne(code: string): Promise<CodeFeatures> {
  const [features] = await analyzeCodeBlocks([code]);
  if (!features) throw new Error("no features returned");
  return features;
}

describe("analyzeCodeBlocks", () => {
  it("finds loops, comprehensions, conditionals and error handling", async () => {
    const features = await analyzeCodeBlocks([
      'for order in tools["list_orders"]():\n    print(order["id"])',
      "ids = [o['id'] for o in tools.list_orders()]\nprint(len(ids))",
      "while True:\n    break",
      "x = 1 if y else 2",
      "late = [o for o in orders if o['late']]",
      'try:\n    tools.get_order(id=1)\nexcept Exception as error:\n    print("failed", error)',
      "try:\n    pass\nfinally:\n    pass",
      "print('hello')",
    ]);
    expect(features.map((feature) => feature.hasLoop)).toEqual([
      true,
      true,
      true,
      false,
      true,
      false,
      false,
      false,
    ]);
    expect(features.map((feature) => feature.hasConditional)).toEqual([
      false,
      false,
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
    // try/finally alone does not handle errors.
    expect(features.map((feature) => feature.hasTryExcept)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(features.every((feature) => feature.parses)).toBe(true);
  });

  it("counts tool calls by subscript and by attribute, but not the tools object's own methods", async () => {
    const features = await analyzeOne(
      'a = tools["get_customer"](id=1)\nb = tools.get_orders(customer=a["id"])\nprint(tools.keys())\nprint(len(b))',
    );
    expect(features.toolCallCount).toBe(2);
    expect(features.printCount).toBe(2);
    expect(features.dtcLike).toBe(false);
  });

  it("marks a single call whose raw result is shown whole as DTC-like", async () => {
    const dtcLike = await analyzeCodeBlocks([
      "print(tools.get_order(id=1))",
      'r = tools["get_order"](id=1)\nprint(r)',
      "tools.get_order(id=1)",
      "import json\nr = tools.get_order(id=1)\nprint(json.dumps(r, indent=2))",
      'r = tools.get_order(id=1)\nprint(f"order: {r}")',
      "r = tools.get_order(id=1)\nr",
    ]);
    expect(dtcLike.map((feature) => feature.dtcLike)).toEqual([true, true, true, true, true, true]);
  });

  it("does not mark selective printing, control flow or several calls as DTC-like", async () => {
    const notDtcLike = await analyzeCodeBlocks([
      'r = tools.get_order(id=1)\nprint(r["status"])',
      "r = tools.list_orders()\nprint(len(r))",
      'print(tools.get_order(id=1)["total"])',
      "tools.update_order(id=1, status='shipped')\nprint('done')",
      "r = tools.get_order(id=1)\nif r:\n    print(r)",
      "for i in range(3):\n    print(tools.get_order(id=i))",
      "print(tools.get_order(id=1))\nprint(tools.get_order(id=2))",
      "print('no tools here')",
    ]);
    expect(notDtcLike.map((feature) => feature.dtcLike)).toEqual(Array(8).fill(false));
  });

  it("reports a syntax error as a block that does not parse", async () => {
    const features = await analyzeOne("for x in tools.list_orders(:\n    print(x)");
    expect(features).toEqual({
      parses: false,
      hasLoop: false,
      hasConditional: false,
      hasTryExcept: false,
      toolCallCount: 0,
      printCount: 0,
      dtcLike: false,
    });
  });

  it("never executes the code it parses", async () => {
    const features = await analyzeOne("import os\nos._exit(3)\nraise SystemExit(4)\nprint(tools.x())");
    expect(features.parses).toBe(true);
    expect(features.toolCallCount).toBe(1);
  });

  it("keeps order and length with repeated sources and returns [] for no input", async () => {
    const features = await analyzeCodeBlocks(["print(1)", "for", "print(1)"]);
    expect(features.map((feature) => feature.parses)).toEqual([true, false, true]);
    await expect(analyzeCodeBlocks([])).resolves.toEqual([]);
  });

  it("fails with a named error when the parser does not answer in time", async () => {
    const huge = Array.from({ length: 2000 }, (_, index) =>
      `x${index} = [i for i in range(${index}) if i]\n`.repeat(50),
    );
    await expect(analyzeCodeBlocks(huge, { timeoutMs: 1 })).rejects.toMatchObject({
      code: "CODE_ANALYSIS_FAILED",
      message: expect.stringMatching(/did not finish within 1 ms/),
    });
  });
});
