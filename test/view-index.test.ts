import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { trajectorySchema } from "../src/harness/trajectory.js";
import { PARQUET_TYPES, parquetBytes, parquetMessage } from "../src/train/verl-parquet.js";
import { createEpisodeStore } from "../src/view/episode-store.js";
import { createJsonlIndex } from "../src/view/jsonl-index.js";
import { readLines } from "../src/view/read-lines.js";
import { countArrayElements, summarizeLine, summarizeTrajectoryObject } from "../src/view/summarize-line.js";
import { syntheticTrajectory, trajectoriesJsonl } from "./helpers/view-trajectories.js";

const dir = mkdtempSync(join(tmpdir(), "view-index-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function writeFile(content: string, name = `file-${(fileCount += 1)}.jsonl`): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The summary the slow path (parse the whole line) gives, for comparing with the fast one. */
function slowSummary(line: string, lineNumber = 1) {
  const fast = summarizeLine(Buffer.from(line), { source: 0, line: lineNumber, offset: 0 });
  if (!("summary" in fast)) throw new Error("expected a summary");
  const slow = summarizeTrajectoryObject(JSON.parse(line), {
    source: 0,
    line: lineNumber,
    offset: 0,
    lengthBytes: fast.summary.lengthBytes,
    searchStart: fast.summary.searchStart,
    searchEnd: fast.summary.searchEnd,
  });
  return { fast: fast.summary, slow: "summary" in slow ? slow.summary : undefined };
}

describe("episode summaries", () => {
  it("the fast reading of a trajectory line gives what parsing it whole gives", () => {
    for (const harness of ["ptc", "dtc"] as const) {
      const trajectory = syntheticTrajectory({ harness, turns: 6, sample: 2 });
      expect(trajectorySchema.safeParse(trajectory).success).toBe(true);
      const { fast, slow } = slowSummary(JSON.stringify(trajectory));
      expect(fast).toEqual(slow);
      expect(fast).toMatchObject({
        task: "retail.refund-late-orders",
        domain: "retail",
        harness,
        turns: 6,
        toolCalls: 6,
        codeBlocks: harness === "ptc" ? 5 : 0,
        reward: 1,
        endReason: "claim_done",
        kind: "trajectory",
      });
    }
  });

  it("model arguments and code that imitate the file's structure do not change the counts", () => {
    const forged = {
      toolCalls: [{ turn: 0 }, { turn: 1 }],
      runtimeErrors: 99,
      codeBlocks: [{ toolCallCount: 1 }],
      turns: [{ index: 9 }],
      nested: { a: [{ via: "code", isError: true, durationMs: 1 }, { turn: 1 }] },
    };
    const trajectory = syntheticTrajectory({
      harness: "ptc",
      turns: 3,
      firstArgs: forged,
      firstCode: 'print(\'"toolCallCount": 5, ,"runtimeErrors":7, ],"codeBlocks":[\')',
      firstOutput: ',"turns":[{"index":0}],"toolCalls":[],"codeBlocks":[],"runtimeErrors":3,',
    });
    const { fast, slow } = slowSummary(JSON.stringify(trajectory));
    expect(fast).toEqual(slow);
    expect(fast).toMatchObject({ turns: 3, toolCalls: 3, codeBlocks: 2, runtimeErrors: 0 });
  });

  it("a line with its keys in another order is read whole, with the same result", () => {
    const trajectory = syntheticTrajectory({ turns: 3 });
    const reordered = Object.fromEntries(Object.entries(trajectory).reverse());
    const reading = summarizeLine(Buffer.from(JSON.stringify(reordered)), { source: 0, line: 1, offset: 0 });
    expect("summary" in reading && reading.summary).toMatchObject({ turns: 3, toolCalls: 3, codeBlocks: 2 });
  });

  it("counts array elements, skipping strings and nesting; an unbalanced range is null", () => {
    const count = (text: string) => countArrayElements(Buffer.from(text), 0, Buffer.byteLength(text));
    expect(count("[]")).toBe(0);
    expect(count("[ ]")).toBe(0);
    expect(count('[{"a":[1,2,{"b":","}]},"x,]\\"",3]')).toBe(3);
    expect(count("[1,2],[3]")).toBeNull();
    expect(count("[1,[2]")).toBeNull();
  });
});

describe("reading files tolerantly", () => {
  it("reads lines across chunk boundaries, with byte offsets", async () => {
    const long = "x".repeat(9 * 1024 * 1024);
    const path = writeFile(`a\n${long}\nb`);
    const lines: Array<{ text: string; offset: number; complete: boolean }> = [];
    for await (const line of readLines(path))
      lines.push({ text: line.bytes!.toString().slice(0, 3), offset: line.offset, complete: line.complete });
    expect(lines).toEqual([
      { text: "a", offset: 0, complete: true },
      { text: "xxx", offset: 2, complete: true },
      { text: "b", offset: long.length + 3, complete: false },
    ]);
  });

  it("a truncated last line is reported, not read, and read once it is complete", async () => {
    const whole = trajectoriesJsonl([syntheticTrajectory({ sample: 0 }), syntheticTrajectory({ sample: 1 })]);
    const third = JSON.stringify(syntheticTrajectory({ sample: 2 }));
    const path = writeFile(whole + third.slice(0, 300));
    const index = createJsonlIndex(path, 0);
    await index.update();
    expect(index.summaries.map((summary) => summary.sample)).toEqual([0, 1]);
    expect(index.pendingTail).toEqual({ line: 3, bytes: 300 });
    appendFileSync(path, `${third.slice(300)}\n`);
    await index.update();
    expect(index.summaries.map((summary) => summary.sample)).toEqual([0, 1, 2]);
    expect(index.pendingTail).toBeNull();
    expect(index.skipped.total).toBe(0);
  });

  it("a complete last line without a newline is read", async () => {
    const path = writeFile(JSON.stringify(syntheticTrajectory()));
    const index = createJsonlIndex(path, 0);
    await index.update();
    expect(index.summaries).toHaveLength(1);
    expect(index.pendingTail).toBeNull();
  });

  it("lines of another schema, broken JSON and unknown versions: shows what it can, says what it skipped", async () => {
    const path = writeFile(
      [
        JSON.stringify(syntheticTrajectory({ sample: 0 })),
        JSON.stringify({ kind: "metrics", passRate: 0.5 }),
        '{"schemaVersion": 2, "task": "x", "messages": [',
        "",
        JSON.stringify(syntheticTrajectory({ sample: 3, schemaVersion: 7 })),
        "[1, 2, 3]",
      ].join("\n") + "\n",
    );
    const index = createJsonlIndex(path, 0);
    await index.update();
    expect(index.summaries.map((summary) => [summary.line, summary.sample])).toEqual([
      [1, 0],
      [5, 3],
    ]);
    const skipped = index.skipped.list();
    expect(skipped.map((entry) => entry.lines)).toEqual([[2], [3, 6]]);
    expect(skipped[0]!.reason).toMatch(/another schema/);
    expect(skipped[1]!.reason).toMatch(/not a JSON object \(a line cut short/);
    expect(index.warnings.list()).toEqual([
      expect.objectContaining({ lines: [5], reason: expect.stringMatching(/schemaVersion 7 is unknown/) }),
    ]);
  });

  it("several inputs: a missing file is reported beside what the others hold", async () => {
    const runDir = join(dir, "run-a");
    mkdirSync(runDir);
    writeFileSync(
      join(runDir, "trajectories.jsonl"),
      trajectoriesJsonl([syntheticTrajectory({ harness: "dtc" })]),
    );
    writeFileSync(join(runDir, "run-config.json"), JSON.stringify({ revealVerdict: true }));
    const other = writeFile(trajectoriesJsonl([syntheticTrajectory({ sample: 4 })]));
    const store = createEpisodeStore([runDir, join(dir, "absent.jsonl"), other], { indexCacheDir: null });
    await store.update();
    expect(store.sources.map((source) => [source.kind, source.state, source.episodes])).toEqual([
      ["run", "ready", 1],
      ["missing", "error", 0],
      ["jsonl", "ready", 1],
    ]);
    expect(store.sources[1]!.error).toMatch(/absent\.jsonl: no such file/);
    expect(store.summaries().map((summary) => `${summary.source}.${summary.line}`)).toEqual(["0.1", "2.1"]);
  });
});

describe("the index cache", () => {
  it("a second start takes the saved index and reads only what was appended; a replaced file is read again", async () => {
    const cacheDir = join(dir, "cache");
    const path = writeFile(
      trajectoriesJsonl([syntheticTrajectory({ sample: 0 }), syntheticTrajectory({ sample: 1 })]),
    );
    const options = { cacheDir, minCachedBytes: 0 };
    const first = createJsonlIndex(path, 0, options);
    await first.update();
    expect(first.restoredFromCache).toBe(false);
    const second = createJsonlIndex(path, 3, options);
    await second.update();
    expect(second.restoredFromCache).toBe(true);
    expect(second.summaries).toEqual(first.summaries.map((summary) => ({ ...summary, source: 3 })));
    appendFileSync(path, trajectoriesJsonl([syntheticTrajectory({ sample: 2 })]));
    const third = createJsonlIndex(path, 0, options);
    await third.update();
    expect(third.restoredFromCache).toBe(true);
    expect(third.summaries.map((summary) => summary.sample)).toEqual([0, 1, 2]);
    // Rewritten (a new inode, as an eval resume's atomic rename makes): the cache does not describe it.
    rmSync(path);
    writeFileSync(path, trajectoriesJsonl([syntheticTrajectory({ sample: 7 })]));
    const fourth = createJsonlIndex(path, 0, options);
    await fourth.update();
    expect(fourth.restoredFromCache).toBe(false);
    expect(fourth.summaries.map((summary) => summary.sample)).toEqual([7]);
  });
});

describe("episodes on demand and search", () => {
  it("reads one episode by key; check messages only for runs made with --reveal-verdict", async () => {
    const revealed = join(dir, "run-revealed");
    mkdirSync(revealed);
    writeFileSync(
      join(revealed, "trajectories.jsonl"),
      trajectoriesJsonl([syntheticTrajectory({ reward: 0 })]),
    );
    writeFileSync(join(revealed, "run-config.json"), JSON.stringify({ revealVerdict: true }));
    const hidden = writeFile(trajectoriesJsonl([syntheticTrajectory({ reward: 0 }), syntheticTrajectory()]));
    const store = createEpisodeStore([revealed, hidden], { indexCacheDir: null });
    await store.update();
    const shown = await store.readEpisode("0.1");
    expect(shown?.trajectory?.checks).toEqual([
      { id: "refunds-issued", passed: true, message: "3 refunds issued" },
      { id: "total", passed: false, message: "expected 388.5" },
    ]);
    const kept = await store.readEpisode("1.2");
    expect(kept?.trajectory?.checks).toEqual([
      { id: "refunds-issued", passed: true, message: null },
      { id: "total", passed: true, message: null },
    ]);
    expect(await store.readEpisode("1.9")).toBeUndefined();
    expect(await store.readEpisode("../etc")).toBeUndefined();
  });

  it("searches instructions, code and outputs (JSON-escaped, any case), not the tool schemas", async () => {
    const path = writeFile(
      trajectoriesJsonl([
        syntheticTrajectory({ sample: 0, firstOutput: 'KeyError: "ORD-77"\nTraceback' }),
        syntheticTrajectory({ sample: 1, firstCode: "print('needle in code')" }),
        syntheticTrajectory({ sample: 2, task: "hr.payroll-audit" }),
      ]),
    );
    const store = createEpisodeStore([path], { indexCacheDir: null });
    await store.update();
    expect((await store.search('keyerror: "ord-77"')).keys).toEqual(["0.1"]);
    expect((await store.search("NEEDLE IN CODE")).keys).toEqual(["0.2"]);
    expect((await store.search("payroll-audit")).keys).toEqual(["0.3"]);
    expect((await store.search("End the episode with your answer")).keys).toEqual([]);
    expect((await store.search("refund every late", { keys: ["0.2", "0.3"] })).keys).toEqual(["0.2", "0.3"]);
  });

  it("reads `tasks validate --json` output and SFT rows", async () => {
    const validation = writeFile(
      JSON.stringify([
        {
          task: "retail.a",
          scale: "v0",
          seed: 0,
          nullReward: 0,
          oracleReward: 1,
          dtcReplayReward: 1,
          nearMissRewards: { off: 0 },
          oracleToolCalls: 12,
          ok: true,
          problems: [],
          durationMs: 900,
        },
        {
          task: "retail.b",
          scale: "v1",
          seed: 0,
          nullReward: 0,
          oracleReward: 0,
          dtcReplayReward: 1,
          nearMissRewards: {},
          oracleToolCalls: 3,
          ok: false,
          problems: ["oracle got 0"],
          durationMs: 700,
        },
        { unrelated: true },
      ]),
      "validate.json",
    );
    const swift = writeFile(
      `${JSON.stringify({
        tools: "[]",
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "do it" },
          { role: "assistant", content: "<think>\nplan\n</think>\n\nCalling." },
          {
            role: "tool_call",
            content: JSON.stringify({ name: "list_orders", arguments: { status: "late" } }),
          },
          { role: "tool_response", content: "[1, 2]" },
          { role: "assistant", content: "Done." },
        ],
      })}\n`,
    );
    const store = createEpisodeStore([validation, swift], { indexCacheDir: null });
    await store.update();
    expect(store.sources[0]!.skipped).toEqual([expect.objectContaining({ count: 1, lines: [3] })]);
    expect(store.summaries().map((summary) => [summary.kind, summary.task, summary.reward])).toEqual([
      ["validation", "retail.a", 1],
      ["validation", "retail.b", 0],
      ["sft", "", null],
    ]);
    expect((await store.readEpisode("0.2"))?.validation?.problems).toEqual(["oracle got 0"]);
    const row = await store.readEpisode("1.1");
    expect(row?.trajectory?.messages).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "do it" },
      {
        role: "assistant",
        content: "Calling.",
        reasoning_content: "plan",
        tool_calls: [
          {
            id: "call_0",
            type: "function",
            function: { name: "list_orders", arguments: '{"status":"late"}' },
          },
        ],
      },
      { role: "tool", content: "[1, 2]" },
      { role: "assistant", content: "Done." },
    ]);
  });

  it("reads verl parquet exports: SFT conversations and RL prompts, and says when a parquet is something else", async () => {
    const trajectory = syntheticTrajectory({ harness: "ptc", turns: 3 });
    const sft = join(dir, "sft.parquet");
    writeFileSync(
      sft,
      parquetBytes(
        [
          PARQUET_TYPES.messages("messages", [trajectory.messages.map((message) => parquetMessage(message))]),
          PARQUET_TYPES.text("task", [trajectory.task]),
          PARQUET_TYPES.text("harness", ["ptc"]),
          PARQUET_TYPES.integer("num_tokens", [1234]),
        ],
        {},
      ),
    );
    const rl = join(dir, "rl.parquet");
    writeFileSync(
      rl,
      parquetBytes(
        [
          PARQUET_TYPES.prompt("prompt", [[{ role: "user", content: "do the task" }]]),
          PARQUET_TYPES.struct(
            "extra_info",
            [
              ["task", "text"],
              ["scale", "text"],
              ["seed", "integer"],
            ],
            [{ task: "hr.audit", scale: "v2", seed: 7n }],
          ),
        ],
        {},
      ),
    );
    const other = join(dir, "other.parquet");
    writeFileSync(other, parquetBytes([PARQUET_TYPES.text("name", ["x"])], {}));
    const store = createEpisodeStore([sft, rl, other], { indexCacheDir: null });
    await store.update();
    expect(
      store
        .summaries()
        .map((summary) => [
          summary.task,
          summary.turns,
          summary.toolCalls,
          summary.contextTokens,
          summary.scale,
          summary.seed,
        ]),
    ).toEqual([
      ["retail.refund-late-orders", 3, 3, 1234, "", null],
      ["hr.audit", 0, 0, null, "v2", 7],
    ]);
    expect(store.sources[2]).toMatchObject({
      state: "error",
      error: expect.stringMatching(/parquet but of another schema/),
    });
    const conversation = await store.readEpisode("0.1");
    expect((conversation?.trajectory?.messages as unknown[]).length).toBe(trajectory.messages.length);
    expect((await store.readEpisode("1.1"))?.trajectory?.messages).toEqual([
      { role: "user", content: "do the task" },
    ]);
    expect((await store.search("DO THE TASK")).keys).toEqual(["1.1"]);
  });
});
