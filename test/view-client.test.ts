import { describe, expect, it } from "vitest";
import { buildEpisodeModel, contextSeries } from "../src/view/client/episode-model.js";
import {
  applyState,
  countRows,
  numberPredicate,
  queryFromState,
  stateFromQuery,
  textPredicate,
  type ListRow,
} from "../src/view/client/list-model.js";
import { endsWithExpression, splitOutput } from "../src/view/client/output-sections.js";
import { tokenizePython } from "../src/view/client/python-highlight.js";
import { stepPoints } from "../src/view/client/rl-page.js";
import { syntheticTrajectory } from "./helpers/view-trajectories.js";

function row(values: Partial<ListRow>): ListRow {
  return {
    key: "0.1",
    source: 0,
    line: 1,
    kind: "trajectory",
    schemaVersion: 2,
    runId: "r",
    episodeId: "e",
    task: "retail.a",
    domain: "retail",
    harness: "ptc",
    scale: "v0",
    seed: 0,
    sample: 0,
    model: "oracle",
    reward: 1,
    verdict: "pass",
    endReason: "claim_done",
    turns: 3,
    toolCalls: 4,
    codeBlocks: 2,
    runtimeErrors: 0,
    toolOutputTokens: 100,
    contextTokens: 1000,
    wallTimeMs: 10,
    step: null,
    ...values,
  };
}

describe("the list's filters", () => {
  it("number filters: bounds, ranges, thousands, several at once; a row without the number never matches", () => {
    const keeps = (filter: string, value: unknown) => numberPredicate(filter)!(value);
    expect(keeps(">10", 11)).toBe(true);
    expect(keeps(">10", 10)).toBe(false);
    expect(keeps("3..8", 8)).toBe(true);
    expect(keeps(">=2k", 2000)).toBe(true);
    expect(keeps(">1 <5", 5)).toBe(false);
    expect(keeps("!=0", 0)).toBe(false);
    expect(keeps(">1", null)).toBe(false);
    expect(numberPredicate("lots")).toBeNull();
  });

  it("text filters: a part, =exact, globs and lists, ! to negate, any case", () => {
    const keeps = (filter: string, value: string) => textPredicate(filter)!(value);
    expect(keeps("refund", "retail.Refund-late")).toBe(true);
    expect(keeps("=retail.a", "retail.ab")).toBe(false);
    expect(keeps("retail.*,hr.*", "hr.audit")).toBe(true);
    expect(keeps("retail.*", "it.retail.x")).toBe(false);
    expect(keeps("!=ptc", "dtc")).toBe(true);
    expect(keeps("=", "")).toBe(true);
  });

  it("filters, sorts and counts; the state goes to the address and back", () => {
    const rows = [
      row({ key: "0.1", harness: "ptc", turns: 5, verdict: "pass" }),
      row({ key: "0.2", harness: "dtc", turns: 9, verdict: "fail", reward: 0 }),
      row({ key: "0.3", harness: "dtc", turns: 2, verdict: "model error", endReason: "model_error" }),
    ];
    const state = stateFromQuery(new URLSearchParams("f.harness==dtc&sort=-turns&q=KeyError&page=2"));
    expect(queryFromState(state).toString()).toBe("f.harness=%3Ddtc&q=KeyError&sort=-turns&page=2");
    const { rows: kept } = applyState(rows, { ...state, search: "" }, null);
    expect(kept.map((entry) => entry.key)).toEqual(["0.2", "0.3"]);
    expect(
      applyState(rows, { ...state, search: "x" }, new Set(["0.3"])).rows.map((entry) => entry.key),
    ).toEqual(["0.3"]);
    expect(applyState(rows, { ...state, filters: { turns: "many" } }, null).invalid).toEqual(["turns"]);
    // A model error is not the agent's failure: it stays out of the pass rate.
    expect(countRows(rows)).toMatchObject({ episodes: 3, scored: 2, passed: 1 });
  });
});

describe("program output sections", () => {
  it("splits notes, printed output, the value, stderr, a traceback and the kernel's messages", () => {
    const code = "x = tools.list()\nprint(len(x))\nx[0]";
    expect(
      splitOutput(
        "[The kernel was restarted.]\n3\n{'id': 1}\n[stderr]:\nwarning\n[Execution took long.]",
        code,
      ),
    ).toEqual([
      { kind: "note", text: "[The kernel was restarted.]" },
      { kind: "stdout", text: "3" },
      { kind: "value", text: "{'id': 1}" },
      { kind: "stderr", text: "warning" },
      { kind: "note", text: "[Execution took long.]" },
    ]);
    expect(
      splitOutput("partial\n[stderr]:\nTraceback (most recent call last):\n  x\nKeyError: 'a'", code),
    ).toEqual([
      { kind: "stdout", text: "partial" },
      { kind: "traceback", text: "Traceback (most recent call last):\n  x\nKeyError: 'a'" },
    ]);
    expect(splitOutput("[stderr]:\nValueError: bad", "")).toEqual([
      { kind: "traceback", text: "ValueError: bad" },
    ]);
    expect(splitOutput("(no output)", code)).toEqual([{ kind: "empty", text: "(no output)" }]);
    const marker =
      "\n\n... [120 characters omitted: output truncated to 50000 characters. Print concise summaries (counts, aggregates, the few rows you need) instead of raw data.] ...\n\n";
    expect(splitOutput(`head${marker}tail`, code).map((section) => section.kind)).toEqual([
      "stdout",
      "truncation",
      "stdout",
    ]);
  });

  it("knows a trailing expression from a statement", () => {
    expect(endsWithExpression("x = 1\nx")).toBe(true);
    expect(endsWithExpression("x = 1\nx == 1")).toBe(true);
    for (const code of [
      "x = 1",
      "x += 1",
      "print(x)",
      "for a in b:\n    a",
      "rows.append(1)",
      "import os",
      "# x",
    ])
      expect(endsWithExpression(code), code).toBe(false);
  });
});

describe("Python highlighting", () => {
  it("tokens cover the code exactly, strings with escapes and triple quotes whole", () => {
    const code =
      'def f(a):\n    """doc "x" """\n    return tools["get"](a=1.5e3, b=\'it\\\'s\') # note\n@cache\nf(0x1F)';
    const tokens = tokenizePython(code);
    expect(tokens.map((token) => token.text).join("")).toBe(code);
    const kinds = (kind: string) => tokens.filter((token) => token.kind === kind).map((token) => token.text);
    expect(kinds("keyword")).toEqual(["def", "return"]);
    expect(kinds("string")).toEqual(['"""doc "x" """', '"get"', "'it\\'s'"]);
    expect(kinds("number")).toEqual(["1.5e3", "0x1F"]);
    expect(kinds("comment")).toEqual(["# note"]);
    expect(kinds("decorator")).toEqual(["@cache"]);
    expect(kinds("call")).toEqual(["f", "f"]);
  });

  it("an unclosed string ends at its line; the tokenizer is linear on long code", () => {
    expect(tokenizePython("x = 'open\ny = 1").map((token) => token.kind)).toContain("number");
    const long = "value = tools.get(a=1)\n".repeat(20_000);
    expect(
      tokenizePython(long)
        .map((token) => token.text)
        .join(""),
    ).toBe(long);
  });
});

describe("the episode model", () => {
  it("gives each code call its block and the environment calls its code made; context per turn", () => {
    const trajectory = syntheticTrajectory({ harness: "ptc", turns: 3 });
    const model = buildEpisodeModel(trajectory);
    expect(model.instructions).toHaveLength(1);
    expect(model.turns).toHaveLength(3);
    expect(model.turns[0]!.calls[0]!.codeBlock?.code).toContain("list_orders");
    expect(model.turns[0]!.calls[0]!.environmentCalls).toEqual([
      expect.objectContaining({ name: "list_orders", via: "code" }),
    ]);
    expect(model.turns[2]!.calls[0]).toMatchObject({ name: "claim_done", result: "Episode over: verified." });
    expect(contextSeries(model.turns).map((point) => point.toolOutput)).toEqual([0, 100, 200]);
  });

  it("takes a trajectory of another shape without throwing: what is not there is left out", () => {
    const model = buildEpisodeModel({
      messages: [{ role: "assistant", tool_calls: "nope" }, 7],
      turns: "x",
      checks: [null],
    });
    expect(model.turns).toEqual([expect.objectContaining({ index: 0, calls: [], record: undefined })]);
    expect(model.checks).toEqual([]);
  });
});

describe("RL steps", () => {
  it("groups by step and harness: mean reward, PTC errors, tool calls and tool-output tokens", () => {
    const points = stepPoints([
      row({ step: 2, reward: 1, runtimeErrors: 2, toolCalls: 4 }),
      row({ step: 2, reward: 0, runtimeErrors: 0, toolCalls: 6 }),
      row({ step: 1, reward: 0, harness: "dtc", toolOutputTokens: null }),
      row({ step: null }),
    ]);
    expect(points).toEqual([
      {
        step: 1,
        harness: "dtc",
        episodes: 1,
        meanReward: 0,
        meanRuntimeErrors: 0,
        meanToolCalls: 4,
        meanToolOutputTokens: null,
      },
      {
        step: 2,
        harness: "ptc",
        episodes: 2,
        meanReward: 0.5,
        meanRuntimeErrors: 1,
        meanToolCalls: 5,
        meanToolOutputTokens: 100,
      },
    ]);
  });
});
