import { RL_FORMATS, type RlFormat } from "./formats.js";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import { createChatRenderer } from "../chat-template/index.js";
import type { HarnessMode, Scale, TaskDefinition } from "../envs/index.js";
import type { FunctionTool } from "../harness/index.js";
import { createAtomicFileSet } from "./atomic-files.js";
import { EXPORT_MANIFEST_SCHEMA_VERSION, siblingPath, type TokenStats, tokenStats } from "./export-sft.js";
import { splitTasks, type Split } from "./split-by-task.js";
import type { MsSwiftRlRow } from "./ms-swift-format.js";
import { taskPrompt } from "./task-prompt.js";
import { PARQUET_TYPES, parquetBytes } from "./verl-parquet.js";

export { RL_FORMATS, type RlFormat };
/** The verl agent loop the rows name (registered by the rollout adapters). */
export const RL_AGENT_NAME = "progagent_agent";

export interface RlExportOptions {
  tasks: readonly TaskDefinition[];
  scales: readonly Scale[];
  harness: HarnessMode;
  format: RlFormat;
  outPath: string;
  seeds?: readonly number[];
  valShare?: number;
  /** The per-execution timeout the system prompt states (the harness default is 60 s). */
  timeoutSeconds?: number;
  tokenizer?: string;
}

export interface RlExportSummary {
  rows: { train: number; val: number };
  tasks: { train: number; val: number };
  promptTokens: Omit<TokenStats, "trained" | "trainedShare">;
  files: string[];
  manifestPath: string;
}

interface RlRow {
  task: TaskDefinition;
  scale: Scale;
  seed: number;
  split: Split;
  index: number;
  prompt: Array<{ role: string; content: string }>;
  tools: FunctionTool[];
  promptTokens: number;
}

/**
 * One RL dataset row per task instance (task, scale, seed): the prompt the harness would send and extra_info
 * naming the instance (verl: a parquet row with the agent loop's name; ms-swift: a JSON line with the tools and
 * the gym Env's name); split train/validation by task so no task's scales cross it.
 */
export function exportRl(options: RlExportOptions): RlExportSummary {
  if (!(RL_FORMATS as readonly string[]).includes(options.format))
    throw new ProgAgentError(
      `unknown format '${String(options.format)}': expected one of ${RL_FORMATS.join(", ")}`,
      {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "user",
      },
    );
  if (options.tasks.length === 0 || options.scales.length === 0)
    throw new ProgAgentError(
      "no task instances: --tasks and --scales must match at least one task and scale",
      {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "user",
      },
    );
  const renderer = createChatRenderer(
    options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer },
  );
  const split = splitTasks(
    options.tasks.map((task) => task.id),
    options.valShare ?? 0,
  );
  const seeds = options.seeds ?? [0];
  const rows: RlRow[] = [];
  const counters: Record<Split, number> = { train: 0, val: 0 };
  for (const task of [...options.tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const { messages, tools } = taskPrompt(task, options.harness, options.timeoutSeconds);
    const prompt = messages.map((message) => ({ role: message.role, content: message.content ?? "" }));
    const promptTokens = renderer.renderPrompt({ messages: prompt, tools }).tokenIds.length;
    const side = split.get(task.id) ?? "train";
    for (const scale of options.scales)
      for (const seed of seeds) {
        rows.push({ task, scale, seed, split: side, index: counters[side], prompt, tools, promptTokens });
        counters[side] += 1;
      }
  }
  const outPath = resolve(options.outPath);
  if (!existsSync(dirname(outPath))) mkdirSync(dirname(outPath), { recursive: true });
  const valPath = siblingPath(outPath, ".val");
  const manifestPath = siblingPath(outPath, ".manifest", ".json");
  const files = createAtomicFileSet();
  const written: string[] = [];
  try {
    for (const side of ["train", "val"] as const) {
      const sideRows = rows.filter((row) => row.split === side);
      if (side === "val" && sideRows.length === 0) continue;
      const target = side === "train" ? outPath : valPath;
      written.push(target);
      files
        .open(target)
        .write(
          options.format === "verl"
            ? verlRlBytes(sideRows, options.harness, side)
            : msSwiftRlLines(sideRows, options.harness),
        );
    }
    const stats = tokenStats(rows.map((row) => ({ tokenCount: row.promptTokens, trainedTokens: 0 })));
    const valTasks = [...new Set(rows.filter((row) => row.split === "val").map((row) => row.task.id))].sort();
    const summary: RlExportSummary = {
      rows: { train: counters.train, val: counters.val },
      tasks: { train: split.size - valTasks.length, val: valTasks.length },
      promptTokens: { mean: stats.mean, p95: stats.p95, max: stats.max, total: stats.total },
      files: written,
      manifestPath,
    };
    const manifest = {
      schemaVersion: EXPORT_MANIFEST_SCHEMA_VERSION,
      kind: "rl",
      format: options.format,
      createdAt: new Date().toISOString(),
      files: { train: outPath, ...(counters.val > 0 ? { val: valPath } : {}) },
      agentName: RL_AGENT_NAME,
      harness: options.harness,
      scales: options.scales,
      seeds,
      timeoutSeconds: options.timeoutSeconds ?? 60,
      valShare: options.valShare ?? 0,
      valTasks,
      tokenizer: {
        name: renderer.tokenizerName,
        tokenizerSha256: renderer.tokenizerHash,
        chatTemplateSha256: renderer.templateHash,
      },
      counts: summary.rows,
      promptTokens: summary.promptTokens,
    };
    files.open(manifestPath).write(`${JSON.stringify(manifest, null, 2)}\n`);
    files.commit();
    return summary;
  } catch (error) {
    files.discard();
    throw error;
  }
}

function verlRlBytes(rows: readonly RlRow[], harness: HarnessMode, side: Split): Uint8Array {
  return parquetBytes(
    [
      PARQUET_TYPES.text(
        "data_source",
        rows.map((row) => `progagent/${row.task.domain.id}`),
      ),
      PARQUET_TYPES.text(
        "agent_name",
        rows.map(() => RL_AGENT_NAME),
      ),
      PARQUET_TYPES.prompt(
        "prompt",
        rows.map((row) => row.prompt),
      ),
      PARQUET_TYPES.text(
        "ability",
        rows.map(() => "tool_orchestration"),
      ),
      PARQUET_TYPES.struct(
        "reward_model",
        [
          ["style", "text"],
          ["ground_truth", "text"],
        ],
        // The reward is the verifier's, computed by the rollout service; ground_truth names the instance.
        rows.map((row) => ({
          style: "progagent_verifier",
          ground_truth: JSON.stringify({ task: row.task.id, scale: row.scale, seed: row.seed }),
        })),
      ),
      PARQUET_TYPES.struct(
        "extra_info",
        [
          ["task", "text"],
          ["scale", "text"],
          ["seed", "integer"],
          ["harness", "text"],
          ["split", "text"],
          ["index", "integer"],
        ],
        rows.map((row) => ({
          task: row.task.id,
          scale: row.scale,
          seed: BigInt(row.seed),
          harness,
          split: row.split,
          index: BigInt(row.index),
        })),
      ),
    ],
    { "progagent.schemaVersion": String(EXPORT_MANIFEST_SCHEMA_VERSION), "progagent.split": side },
  );
}

function msSwiftRlLines(rows: readonly RlRow[], harness: HarnessMode): string {
  return rows
    .map((row) => {
      const line: MsSwiftRlRow = {
        messages: row.prompt,
        tools: JSON.stringify(row.tools),
        extra_info: {
          task: row.task.id,
          scale: row.scale,
          seed: row.seed,
          harness,
          split: row.split,
          index: row.index,
        },
        env_config: { name: "progagent" },
      };
      return `${JSON.stringify(line)}\n`;
    })
    .join("");
}
