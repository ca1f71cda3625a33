import { DuckDBInstance } from "@duckdb/node-api";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatRenderer, type TemplateMessage } from "../src/chat-template/index.js";
import { runEvaluation } from "../src/eval/index.js";
import { TRAJECTORY_SCHEMA_VERSION } from "../src/harness/trajectory.js";
import { readTrajectories, type Trajectory } from "../src/harness/index.js";
import { loadSuite } from "../src/suite/index.js";
import {
  exportRl,
  exportSft,
  msSwiftText,
  taskPrompt,
  type MsSwiftRlRow,
  type MsSwiftRow,
  type SftExportOptions,
} from "../src/train/index.js";
import { SCRIPTED_CONVERSATIONS } from "./helpers/scripted-conversations.js";

const renderer = createChatRenderer();
const scratch = mkdtempSync(join(tmpdir(), "progagent-export-test-"));
const runDir = join(scratch, "run");
const extraRunDir = join(scratch, "run-scripted");
let trajectories: Trajectory[] = [];
let suiteTools: SftExportOptions["toolsFor"];

async function query(sql: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** What Qwen3's template renders for an assistant turn after the user's query, written out independently. */
function expectedAssistantText(message: TemplateMessage, isLast: boolean): string {
  const reasoning = message.reasoning_content;
  const think = reasoning
    ? `<think>\n${reasoning.replace(/^\n+|\n+$/g, "")}\n</think>\n\n`
    : isLast
      ? "<think>\n\n</think>\n\n"
      : "";
  const content = think ? (message.content ?? "").replace(/^\n+/, "") : (message.content ?? "");
  const calls = (message.tool_calls ?? [])
    .map(
      (call, index) =>
        `${(index === 0 && content) || index > 0 ? "\n" : ""}<tool_call>\n{"name": "${call.function.name}", "arguments": ${call.function.arguments}}\n</tool_call>`,
    )
    .join("");
  return `${think}${content}${calls}<|im_end|>`;
}

/** A trajectory whose conversation is a scripted one (reasoning, parallel calls, non-ASCII, floats). */
function scriptedTrajectory(template: Trajectory, index: number): Trajectory {
  const conversation = SCRIPTED_CONVERSATIONS[index]!;
  return {
    ...template,
    episodeId: `scripted|${index}`,
    task: `scripted.case-${index}`,
    messages: conversation.messages.map((message) => ({
      ...message,
      content: message.content,
    })) as Trajectory["messages"],
    tools: conversation.tools as Trajectory["tools"],
  };
}

beforeAll(async () => {
  const tasks = [...(await loadSuite("retail.*")).slice(0, 2), ...(await loadSuite("hr.*")).slice(0, 2)];
  await runEvaluation({
    model: "oracle",
    tasks,
    harnesses: ["dtc", "ptc", "hybrid"],
    scales: ["v0"],
    samples: 1,
    seed: 0,
    outDir: runDir,
    concurrency: 2,
    limits: { maxTurns: 2_000, maxToolCalls: 5_000 },
  });
  trajectories = readTrajectories(join(runDir, "trajectories.jsonl"));
  mkdirSync(extraRunDir);
  const lines = [0, 1].map((index) => JSON.stringify(scriptedTrajectory(trajectories[0]!, index)));
  // A schemaVersion 1 line: no tools, no finish reasons; its tools come from the suite.
  const {
    tools: _tools,
    tokenizer: _tokenizer,
    ...legacy
  } = trajectories.find((entry) => entry.harness === "ptc")!;
  lines.push(
    JSON.stringify({
      ...legacy,
      schemaVersion: 1,
      sample: 7,
      episodeId: `${legacy.episodeId}-v1`,
      turns: legacy.turns.map(({ finishReason: _finish, usage: _usage, ...turn }) => turn),
    }),
  );
  writeFileSync(join(extraRunDir, "trajectories.jsonl"), `${lines.join("\n")}\n`);
  const suite = new Map(tasks.map((task) => [task.id, task]));
  suiteTools = (task, harness) => {
    const definition = suite.get(task);
    return definition ? taskPrompt(definition, harness).tools : undefined;
  };
}, 300_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("trajectories", () => {
  it("are written as schemaVersion 2 with the tools and per-turn finish reasons", () => {
    expect(trajectories.length).toBe(12);
    for (const trajectory of trajectories) {
      expect(trajectory.schemaVersion).toBe(TRAJECTORY_SCHEMA_VERSION);
      expect(trajectory.tools?.length).toBeGreaterThan(0);
      expect(trajectory.tokenizer).toBe("qwen3");
      expect(trajectory.turns.every((turn) => turn.finishReason === null && turn.usage === null)).toBe(true);
    }
  });
});

describe("export sft", () => {
  it("writes verl parquet that DuckDB reads back, with the expected columns, rows and manifest", async () => {
    const out = join(scratch, "verl", "sft.parquet");
    const summary = exportSft({
      inputs: [runDir, extraRunDir],
      format: "verl",
      outPath: out,
      toolsFor: suiteTools,
    });
    // The schemaVersion 1 copy renders identically to its v2 original (the suite rebuilds the same tools).
    expect(summary).toMatchObject({ kept: 14, dropped: { duplicate: 1 } });
    const columns = await query(`describe select * from '${out}'`);
    expect(columns.map((column) => column.column_name)).toEqual([
      "messages",
      "tools",
      "enable_thinking",
      "data_source",
      "task",
      "scale",
      "harness",
      "episode_id",
      "run_id",
      "num_tokens",
    ]);
    const rows = await query(`select * from '${out}' order by episode_id`);
    expect(rows).toHaveLength(14);
    const manifest = JSON.parse(readFileSync(summary.manifestPath, "utf8"));
    expect(manifest).toMatchObject({
      schemaVersion: 1,
      kind: "sft",
      format: "verl",
      counts: { episodesRead: 15, kept: 14, train: 14, val: 0 },
      tokenizer: { name: "qwen3", chatTemplateSha256: renderer.templateHash },
    });
    expect(manifest.sources.map((source: { models: string[] }) => source.models)).toEqual([
      ["oracle"],
      ["oracle"],
    ]);
    // Every row, read back by DuckDB, renders with mask-1 tokens that decode to exactly the assistant parts.
    let thinkingRows = 0;
    for (const row of rows) {
      const messages = (row.messages as Array<Record<string, unknown>>).map((message): TemplateMessage => {
        const out: TemplateMessage = {
          role: message.role as TemplateMessage["role"],
          content: message.content as string,
        };
        if (message.reasoning_content !== null) out.reasoning_content = message.reasoning_content as string;
        if (message.tool_calls !== null) out.tool_calls = message.tool_calls as TemplateMessage["tool_calls"];
        if (message.tool_call_id !== null) out.tool_call_id = message.tool_call_id as string;
        return out;
      });
      const tools = JSON.parse(row.tools as string) as object[];
      const rendered = renderer.render({ messages, tools });
      expect(Number(row.num_tokens)).toBe(rendered.tokenIds.length);
      const trained = rendered.tokenIds.filter((_, index) => rendered.lossMask[index] === 1);
      const assistants = messages.filter((message) => message.role === "assistant");
      expect(renderer.decode(trained)).toBe(
        assistants
          .map((message, index) => expectedAssistantText(message, index === assistants.length - 1))
          .join(""),
      );
      expect(messages.at(-1)!.role).toBe("assistant");
      if (row.enable_thinking) thinkingRows += 1;
    }
    expect(thinkingRows).toBe(1);
  });

  it("writes ms-swift rows that ms-swift's Qwen3 hermes template renders like Qwen3's own template", () => {
    const out = join(scratch, "swift", "sft.jsonl");
    const summary = exportSft({
      inputs: [runDir, extraRunDir],
      format: "ms-swift",
      outPath: out,
      toolsFor: suiteTools,
    });
    const rows = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as MsSwiftRow);
    expect(rows).toHaveLength(14);
    expect(summary.msSwift?.rowsTextDiffers).toBe(0);
    // The oracle's compact JSON is re-serialised by ms-swift's json.dumps; the scripted '1.0' / spaced one too.
    expect(summary.msSwift?.callsReserialised).toBeGreaterThan(0);
    for (const row of rows) {
      expect(typeof row.tools).toBe("string");
      expect(row.messages.some((message) => message.role === "tool_call")).toBe(true);
      expect(row.messages.some((message) => message.role === "tool_response")).toBe(true);
    }
    const reasoningRow = rows.find((row) =>
      row.messages.some((message) => message.content.includes("parallel")),
    )!;
    const assistant = reasoningRow.messages.find((message) => message.role === "assistant")!;
    // Reasoning in content, and the separator Qwen3 puts between text and the first call.
    expect(assistant.content).toBe(
      "<think>\nI need two prices; call them in parallel.\n</think>\n\nLet me look both up.\n",
    );
    const call = reasoningRow.messages.find((message) => message.role === "tool_call")!;
    expect(call.content).toBe('{"name": "get_price", "arguments": {"sku": "SKU-1", "quantity": 1.0}}');
    const textOf = (row: MsSwiftRow) => msSwiftText(row);
    expect(textOf(reasoningRow)).toContain("Let me look both up.\n<tool_call>");
  });

  it("writes OpenAI fine-tuning JSONL with messages and tools", () => {
    const out = join(scratch, "openai", "sft.jsonl");
    exportSft({ inputs: [runDir], format: "openai", outPath: out });
    const rows = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { messages: Array<Record<string, unknown>>; tools: unknown[] });
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(row.tools.length).toBeGreaterThan(0);
      expect(row.messages[0]).toMatchObject({ role: "system" });
      expect(
        row.messages
          .filter((message) => message.role === "tool")
          .every((message) => typeof message.tool_call_id === "string"),
      ).toBe(true);
    }
  });

  it("filters by harness, task, scale and length, dedupes, and splits by task deterministically", () => {
    const base = { inputs: [runDir], format: "openai" as const };
    const run = (name: string, options: Partial<SftExportOptions>) =>
      exportSft({ ...base, outPath: join(scratch, "matrix", `${name}.jsonl`), ...options });
    expect(run("ptc", { harnesses: ["ptc"] })).toMatchObject({ kept: 4, dropped: { harness_filtered: 8 } });
    expect(run("hr", { taskGlob: "hr.*" })).toMatchObject({ kept: 6, dropped: { task_filtered: 6 } });
    expect(() => run("v3", { scales: ["v3"] })).toThrow(
      /no episode of 12 passed the filters \(dropped: scale_filtered 12\)/,
    );
    const all = run("all", {});
    const limit = Math.round(all.tokensPerRow.mean);
    const short = run("short", { maxTokens: limit });
    expect(short.kept + short.dropped.too_long).toBe(12);
    expect(short.dropped.too_long).toBeGreaterThan(0);
    expect(short.kept).toBeGreaterThan(0);
    expect(short.tokensPerRow.max).toBeLessThanOrEqual(limit);
    expect(run("twice", { inputs: [runDir, runDir] })).toMatchObject({
      kept: 12,
      dropped: { duplicate: 12 },
    });
    expect(run("twice-kept", { inputs: [runDir, runDir], dedupe: false })).toMatchObject({ kept: 24 });
    const first = run("split-a", { valShare: 0.5 });
    const second = run("split-b", { valShare: 0.5 });
    expect(first.rows).toEqual({ train: 6, val: 6 });
    const rowsOf = (path: string) => readFileSync(path, "utf8");
    expect(rowsOf(join(scratch, "matrix", "split-a.val.jsonl"))).toBe(
      rowsOf(join(scratch, "matrix", "split-b.val.jsonl")),
    );
    expect(second.rows).toEqual(first.rows);
    const manifest = JSON.parse(readFileSync(first.manifestPath, "utf8"));
    const trainTasks = new Set(
      rowsOf(join(scratch, "matrix", "split-a.jsonl"))
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { messages: Array<{ content: string }> }).messages[1]!.content),
    );
    expect(manifest.counts.valTasks).toHaveLength(2);
    const valInstructions = rowsOf(join(scratch, "matrix", "split-a.val.jsonl"))
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { messages: Array<{ content: string }> }).messages[1]!.content);
    for (const instruction of valInstructions) expect(trainTasks.has(instruction)).toBe(false);
  });

  it("reads schemaVersion 1 trajectories, rebuilding their tools from the suite", () => {
    const summary = exportSft({
      inputs: [extraRunDir],
      format: "openai",
      outPath: join(scratch, "legacy", "sft.jsonl"),
      toolsFor: suiteTools,
    });
    expect(summary.kept).toBe(3);
    const withoutSuite = exportSft({
      inputs: [extraRunDir],
      format: "openai",
      outPath: join(scratch, "legacy", "b.jsonl"),
    });
    expect(withoutSuite).toMatchObject({ kept: 2, dropped: { no_tools: 1 } });
  });

  it("fails clearly on a corrupt line, an empty run or an unknown format, and leaves no file behind", () => {
    const corrupt = join(scratch, "corrupt");
    mkdirSync(corrupt);
    const good = readFileSync(join(runDir, "trajectories.jsonl"), "utf8");
    writeFileSync(join(corrupt, "trajectories.jsonl"), good);
    appendFileSync(join(corrupt, "trajectories.jsonl"), '{"schemaVersion": 2, "runId": "cut sho\n');
    const outDir = join(scratch, "bad-out");
    mkdirSync(outDir);
    const lineCount = good.trim().split("\n").length;
    expect(() =>
      exportSft({ inputs: [corrupt], format: "verl", outPath: join(outDir, "sft.parquet") }),
    ).toThrow(new RegExp(`corrupt/trajectories.jsonl line ${lineCount + 1} is not JSON`));
    writeFileSync(join(corrupt, "trajectories.jsonl"), `${good}{"schemaVersion": 3}\n`);
    expect(() =>
      exportSft({ inputs: [corrupt], format: "verl", outPath: join(outDir, "sft.parquet") }),
    ).toThrow(new RegExp(`line ${lineCount + 1} is not a trajectory \\(schemaVersion 1 or 2\\)`));
    const empty = join(scratch, "empty");
    mkdirSync(empty);
    writeFileSync(join(empty, "trajectories.jsonl"), "");
    expect(() =>
      exportSft({ inputs: [empty], format: "verl", outPath: join(outDir, "sft.parquet") }),
    ).toThrow(/holds no trajectories/);
    expect(() =>
      exportSft({ inputs: [join(scratch, "missing")], format: "verl", outPath: join(outDir, "sft.parquet") }),
    ).toThrow(/no trajectories.jsonl/);
    expect(() =>
      exportSft({ inputs: [runDir], format: "parquet" as never, outPath: join(outDir, "sft.parquet") }),
    ).toThrow(/unknown format 'parquet': expected one of verl, ms-swift, openai/);
    expect(readdirSync(outDir)).toEqual([]);
  });
});

describe("export rl", () => {
  it("writes one verl row per task instance, split by task, with the harness's prompt", async () => {
    const tasks = [...(await loadSuite("retail.*")), ...(await loadSuite("hr.*"))];
    const out = join(scratch, "rl", "rl.parquet");
    const summary = exportRl({
      tasks,
      scales: ["v0", "v1", "v3"],
      harness: "ptc",
      format: "verl",
      outPath: out,
      seeds: [0, 1],
      valShare: 0.25,
    });
    const total = tasks.length * 3 * 2;
    expect(summary.rows.train + summary.rows.val).toBe(total);
    expect(summary.tasks.val).toBe(Math.round(tasks.length * 0.25));
    const valPath = join(scratch, "rl", "rl.val.parquet");
    expect(existsSync(valPath)).toBe(true);
    const columns = await query(`describe select * from '${out}'`);
    expect(columns.map((column) => column.column_name)).toEqual([
      "data_source",
      "agent_name",
      "prompt",
      "ability",
      "reward_model",
      "extra_info",
    ]);
    const train = await query(`select * from '${out}'`);
    const val = await query(`select * from '${valPath}'`);
    expect(train.length + val.length).toBe(total);
    const taskOf = (row: Record<string, unknown>) => (row.extra_info as { task: string }).task;
    const trainTasks = new Set(train.map(taskOf));
    for (const row of val) expect(trainTasks.has(taskOf(row))).toBe(false);
    for (const row of [...train, ...val]) {
      expect(row.agent_name).toBe("progagent_agent");
      const info = row.extra_info as {
        task: string;
        scale: string;
        seed: unknown;
        harness: string;
        split: string;
        index: unknown;
      };
      expect(info.harness).toBe("ptc");
      expect(["train", "val"]).toContain(info.split);
      expect(JSON.parse((row.reward_model as { ground_truth: string }).ground_truth)).toEqual({
        task: info.task,
        scale: info.scale,
        seed: Number(info.seed),
      });
    }
    expect(new Set(train.map((row) => Number((row.extra_info as { index: unknown }).index))).size).toBe(
      train.length,
    );
    // The prompt is what the harness sent in the oracle run for the same task and mode.
    for (const trajectory of trajectories.filter((entry) => entry.harness === "ptc")) {
      const row = [...train, ...val].find(
        (candidate) =>
          taskOf(candidate) === trajectory.task && (candidate.extra_info as { scale: string }).scale === "v0",
      )!;
      expect(row.prompt).toEqual(
        trajectory.messages.slice(0, 2).map(({ role, content }) => ({ role, content })),
      );
    }
  });

  it("writes ms-swift GRPO rows with the episode's prompt, tools, extra_info and the plugin's env", async () => {
    const tasks = await loadSuite("retail.*");
    const out = join(scratch, "rl-swift", "train.jsonl");
    const summary = exportRl({
      tasks,
      scales: ["v0", "v2"],
      harness: "hybrid",
      format: "ms-swift",
      outPath: out,
      seeds: [3],
      valShare: 0.3,
    });
    const valPath = join(scratch, "rl-swift", "train.val.jsonl");
    expect(summary.files).toEqual([out, valPath]);
    expect(readdirSync(join(scratch, "rl-swift")).sort()).toEqual([
      "train.jsonl",
      "train.manifest.json",
      "train.val.jsonl",
    ]);
    const read = (path: string) =>
      readFileSync(path, "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as MsSwiftRlRow);
    const train = read(out);
    const val = read(valPath);
    expect(train.length).toBe(summary.rows.train);
    expect(train.length + val.length).toBe(tasks.length * 2);
    const valTasks = new Set(val.map((row) => row.extra_info.task));
    for (const row of train) expect(valTasks.has(row.extra_info.task)).toBe(false);
    for (const row of [...train, ...val]) {
      const task = tasks.find((candidate) => candidate.id === row.extra_info.task)!;
      const prompt = taskPrompt(task, "hybrid");
      expect(row.messages).toEqual(prompt.messages.map(({ role, content }) => ({ role, content })));
      // ms-swift parses a JSON-string tools column; the trainer encodes the rollout with these tools.
      expect(JSON.parse(row.tools)).toEqual(prompt.tools);
      expect(row.extra_info).toMatchObject({
        scale: expect.stringMatching(/^v[02]$/),
        seed: 3,
        harness: "hybrid",
      });
      expect(row.env_config).toEqual({ name: "progagent" });
    }
    const manifest = JSON.parse(readFileSync(join(scratch, "rl-swift", "train.manifest.json"), "utf8")) as {
      format: string;
      files: Record<string, string>;
    };
    expect(manifest.format).toBe("ms-swift");
    expect(manifest.files).toEqual({ train: out, val: valPath });
  });
});
