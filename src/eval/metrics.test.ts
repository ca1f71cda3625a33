import { describe, expect, it } from "vitest";
import { trajectorySchema, type CodeBlock, type Trajectory } from "../harness/trajectory.js";
import { computeMetrics } from "./metrics.js";
import { summarizeByHarnessAndScale } from "./summarize-by-harness-and-scale.js";

let episodeCounter = 0;

function episode(
  overrides: Partial<Trajectory> & Pick<Trajectory, "task" | "scale" | "harness">,
): Trajectory {
  episodeCounter += 1;
  return trajectorySchema.parse({
    schemaVersion: 1,
    runId: "run-1",
    episodeId: `episode-${episodeCounter}`,
    seed: 1,
    model: "model-a",
    sample: 0,
    messages: [],
    turns: [],
    toolCalls: [],
    codeBlocks: [],
    runtimeErrors: 0,
    refusedDirectCalls: 0,
    toolOutputTokens: 0,
    finalContextTokens: 0,
    endReason: "claim_done",
    answer: null,
    reward: 0,
    checks: [],
    verifierError: null,
    error: null,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1,
    ...overrides,
  });
}

function code(source: string): CodeBlock {
  return {
    turn: 0,
    code: source,
    status: "ok",
    output: "",
    errorType: null,
    toolCallCount: 0,
    durationMs: 1,
  };
}

function toolCalls(direct: number, viaCode: number): Trajectory["toolCalls"] {
  const call = (via: "direct" | "code") => ({
    turn: 0,
    name: "t",
    args: {},
    via,
    isError: false,
    durationMs: 1,
  });
  return [
    ...Array.from({ length: direct }, () => call("direct")),
    ...Array.from({ length: viaCode }, () => call("code")),
  ];
}

function turns(count: number): Trajectory["turns"] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    contextTokens: 10,
    completionTokens: 1,
    toolOutputTokens: 1,
    durationMs: 1,
  }));
}

describe("computeMetrics", () => {
  it("groups episodes by task, scale and harness, sorted", async () => {
    const trajectories = [
      episode({ task: "b", scale: "v1", harness: "ptc" }),
      episode({ task: "a", scale: "v1", harness: "dtc" }),
      episode({ task: "b", scale: "v0", harness: "hybrid" }),
      episode({ task: "a", scale: "v0", harness: "ptc" }),
      episode({ task: "a", scale: "v0", harness: "dtc" }),
      episode({ task: "a", scale: "v0", harness: "dtc" }),
    ];
    const rows = await computeMetrics(trajectories);
    expect(rows.map((row) => `${row.task} ${row.scale} ${row.harness} ${row.episodes}`)).toEqual([
      "a v0 dtc 2",
      "a v0 ptc 1",
      "a v1 dtc 1",
      "b v0 hybrid 1",
      "b v1 ptc 1",
    ]);
  });

  it("computes pass rate, pass@k, tool calls, tokens, errors, context limits and turns", async () => {
    const trajectories = [
      episode({
        task: "a",
        scale: "v2",
        harness: "dtc",
        reward: 1,
        toolCalls: toolCalls(4, 0),
        turns: turns(4),
        toolOutputTokens: 1000,
      }),
      episode({
        task: "a",
        scale: "v2",
        harness: "dtc",
        reward: 1,
        toolCalls: toolCalls(6, 0),
        turns: turns(6),
        toolOutputTokens: 3000,
        runtimeErrors: 1,
      }),
      episode({
        task: "a",
        scale: "v2",
        harness: "dtc",
        endReason: "context_limit",
        toolCalls: toolCalls(2, 0),
        turns: turns(2),
        toolOutputTokens: 5000,
      }),
      episode({ task: "a", scale: "v2", harness: "dtc", runtimeErrors: 3 }),
      episode({ task: "a", scale: "v2", harness: "dtc", toolCalls: toolCalls(1, 2), turns: turns(3) }),
    ];
    const [row] = await computeMetrics(trajectories, { k: [1, 5, 8] });
    expect(row).toMatchObject({
      episodes: 5,
      successes: 2,
      passRate: 0.4,
      meanToolCalls: 3,
      meanDirectToolCalls: 2.6,
      meanToolOutputTokens: 1800,
      contextLimitShare: 0.2,
      runtimeErrorsPerEpisode: 0.8,
      meanTurns: 3,
      codeBlockCount: 0,
      loopShare: null,
      dtcLikeShare: null,
    });
    // k = 8 > 5 episodes: no estimate rather than a misleading one.
    expect(Object.keys(row?.passAtK ?? {})).toEqual(["1", "5"]);
    expect(row?.passAtK["1"]).toBeCloseTo(0.4, 12);
    expect(row?.passAtK["5"]).toBe(1);
  });

  it("computes code-style shares over the code blocks of a row", async () => {
    const trajectories = [
      episode({
        task: "a",
        scale: "v0",
        harness: "ptc",
        codeBlocks: [
          code("for o in tools.list_orders():\n    print(o['id'])"),
          code("print(tools.get_order(id=1))"),
        ],
      }),
      episode({
        task: "a",
        scale: "v0",
        harness: "ptc",
        codeBlocks: [
          code(
            "try:\n    r = tools.get_order(id=2)\nexcept Exception:\n    r = None\nif r:\n    print(r['total'])",
          ),
          code("this is not python"),
        ],
      }),
      episode({ task: "a", scale: "v0", harness: "dtc", codeBlocks: [] }),
    ];
    const rows = await computeMetrics(trajectories);
    const ptc = rows.find((row) => row.harness === "ptc");
    expect(ptc).toMatchObject({
      codeBlockCount: 4,
      loopShare: 0.25,
      conditionalShare: 0.25,
      tryShare: 0.25,
      dtcLikeShare: 0.25,
    });
    expect(rows.find((row) => row.harness === "dtc")?.loopShare).toBeNull();
  });

  it("rejects a k that is not a positive integer", async () => {
    await expect(computeMetrics([], { k: [0] })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});

describe("summarizeByHarnessAndScale", () => {
  it("weights per-task means by episodes and code shares by code blocks", async () => {
    const trajectories = [
      episode({
        task: "a",
        scale: "v0",
        harness: "ptc",
        reward: 1,
        toolOutputTokens: 100,
        codeBlocks: [code("for x in y: pass")],
      }),
      episode({
        task: "b",
        scale: "v0",
        harness: "ptc",
        reward: 0,
        toolOutputTokens: 400,
        codeBlocks: [code("x = 1"), code("y = 2"), code("z = 3")],
      }),
      episode({ task: "b", scale: "v0", harness: "ptc", reward: 0, toolOutputTokens: 400 }),
      episode({ task: "a", scale: "v1", harness: "dtc", reward: 1 }),
      episode({ task: "a", scale: "v0", harness: "dtc", reward: 0 }),
    ];
    const summary = summarizeByHarnessAndScale(await computeMetrics(trajectories));
    expect(summary.map((row) => `${row.harness} ${row.scale}`)).toEqual(["dtc v0", "dtc v1", "ptc v0"]);
    const ptc = summary[2];
    expect(ptc).toMatchObject({ tasks: 2, episodes: 3, successes: 1, codeBlockCount: 4, loopShare: 0.25 });
    expect(ptc?.passRate).toBeCloseTo(1 / 3, 12);
    expect(ptc?.meanToolOutputTokens).toBeCloseTo(300, 12);
    expect(ptc?.passAtK["1"]).toBeCloseTo(1 / 3, 12);
    expect(summary[0]?.loopShare).toBeNull();
  });
});

describe("model errors", () => {
  it("counts episodes whose model endpoint failed as errors, outside the pass rate and the means", async () => {
    const failed = { endReason: "model_error" as const, error: "HTTP 401: invalid api key", turns: [] };
    const trajectories = [
      episode({ task: "a", scale: "v0", harness: "ptc", reward: 1, toolOutputTokens: 200 }),
      episode({ task: "a", scale: "v0", harness: "ptc", reward: 0, toolOutputTokens: 400 }),
      episode({ task: "a", scale: "v0", harness: "ptc", ...failed, codeBlocks: [code("for x in y: pass")] }),
      episode({ task: "b", scale: "v0", harness: "ptc", ...failed }),
      episode({ task: "b", scale: "v0", harness: "ptc", ...failed }),
    ];
    const rows = await computeMetrics(trajectories);
    expect(rows[0]).toMatchObject({ task: "a", episodes: 3, modelErrors: 1, successes: 1, passRate: 0.5 });
    expect(rows[0]).toMatchObject({ meanToolOutputTokens: 300, codeBlockCount: 0, passAtK: { "1": 0.5 } });
    // Every episode of task b failed at the endpoint: nothing is known about the agent there.
    expect(rows[1]).toMatchObject({ task: "b", episodes: 2, modelErrors: 2, passRate: null });
    expect(rows[1]?.meanToolOutputTokens).toBeNull();
    expect(rows[1]?.passAtK).toEqual({});
    const [summary] = summarizeByHarnessAndScale(rows);
    expect(summary).toMatchObject({ episodes: 5, modelErrors: 3, successes: 1, passRate: 0.5 });
    expect(summary?.meanToolOutputTokens).toBe(300);
    expect(summary?.passAtK["1"]).toBe(0.5);
  });
});
