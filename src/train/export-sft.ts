import { SFT_FORMATS, type SftFormat } from "./formats.js";
import { createHash } from "node:crypto";
import { dirname, extname, join, basename, resolve } from "node:path";
import { existsSync, mkdirSync } from "node:fs";
import { ERROR_CODES, ProgAgentError, errorMessage, globToRegExp } from "../core/index.js";
import { createChatRenderer, type ChatRenderer, type ToolArgumentsMode } from "../chat-template/index.js";
import type { HarnessMode, Scale } from "../envs/index.js";
import type { FunctionTool, Trajectory } from "../harness/index.js";
import { createAtomicFileSet } from "./atomic-files.js";
import { msSwiftText, toMsSwiftRow } from "./ms-swift-format.js";
import { readRuns, type RunSummary } from "./read-runs.js";
import { sftConversation, type SftConversation } from "./sft-conversation.js";
import { splitTasks, type Split } from "./split-by-task.js";
import { PARQUET_TYPES, parquetBytes, parquetMessage } from "./verl-parquet.js";

export { SFT_FORMATS, type SftFormat };
export const EXPORT_MANIFEST_SCHEMA_VERSION = 1;

export const DROP_REASONS = [
  "failed_verifier",
  "harness_filtered",
  "task_filtered",
  "scale_filtered",
  "no_tools",
  "too_long",
  "duplicate",
  "unrenderable",
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export interface SftExportOptions {
  /** Run directories (or trajectories.jsonl files). */
  inputs: readonly string[];
  format: SftFormat;
  /** The training file; validation goes beside it as `<stem>.val<ext>`, the manifest as `<stem>.manifest.json`. */
  outPath: string;
  /** Keep episodes the verifier failed (default: verifier-passing only). */
  includeFailed?: boolean;
  harnesses?: readonly HarnessMode[];
  taskGlob?: string;
  scales?: readonly Scale[];
  /** Drop rows longer than this many tokens (rendered with the chat template). */
  maxTokens?: number;
  /** Drop identical conversations (default true). */
  dedupe?: boolean;
  /** Share of tasks held out for validation, split deterministically by task. */
  valShare?: number;
  /** A Hugging Face tokenizer folder for token counts and the template hash; built-in Qwen3 when omitted. */
  tokenizer?: string;
  /** Called before each kept episode is rendered and tokenised (the slow part of an export). */
  onProgress?: (event: { done: number; total: number }) => void;
  /** The function tools of a task under a harness, for schemaVersion 1 trajectories (which did not record them). */
  toolsFor?: (task: string, harness: HarnessMode) => FunctionTool[] | undefined;
}

export interface TokenStats {
  mean: number;
  p95: number;
  max: number;
  total: number;
  trained: number;
  /** trained / total. */
  trainedShare: number;
}

export interface SftExportSummary {
  format: SftFormat;
  episodesRead: number;
  kept: number;
  dropped: Record<DropReason, number>;
  rows: { train: number; val: number };
  tokensPerRow: TokenStats;
  files: string[];
  manifestPath: string;
  /** ms-swift only: calls whose argument string ms-swift re-serialises, and rows whose ms-swift text differs. */
  msSwift?: { callsReserialised: number; callsUnparseable: number; rowsTextDiffers: number };
  notes: string[];
}

interface KeptRow {
  trajectory: Trajectory;
  conversation: SftConversation;
  split: Split;
  tokenCount: number;
  trainedTokens: number;
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

export function tokenStats(rows: ReadonlyArray<{ tokenCount: number; trainedTokens: number }>): TokenStats {
  const counts = rows.map((row) => row.tokenCount).sort((a, b) => a - b);
  const total = counts.reduce((sum, count) => sum + count, 0);
  const trained = rows.reduce((sum, row) => sum + row.trainedTokens, 0);
  return {
    mean: rows.length === 0 ? 0 : Math.round((total / rows.length) * 10) / 10,
    p95: percentile(counts, 0.95),
    max: counts.at(-1) ?? 0,
    total,
    trained,
    trainedShare: total === 0 ? 0 : Math.round((trained / total) * 10_000) / 10_000,
  };
}

/** `<dir>/<stem><suffix>` for an output path: `sft.parquet` -> `sft.val.parquet`, `sft.manifest.json`. */
export function siblingPath(outPath: string, suffix: string, extension?: string): string {
  const extensionOf = extname(outPath);
  const stem = basename(outPath, extensionOf);
  return join(dirname(outPath), `${stem}${suffix}${extension ?? extensionOf}`);
}

function order(a: Trajectory, b: Trajectory): number {
  const key = (trajectory: Trajectory) =>
    `${trajectory.task}\u0000${trajectory.scale}\u0000${trajectory.harness}\u0000${String(trajectory.sample).padStart(6, "0")}\u0000${trajectory.runId}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

function openAiRow(conversation: SftConversation): Record<string, unknown> {
  return {
    messages: conversation.messages.map((message) => {
      if (message.role === "assistant")
        return {
          role: "assistant",
          content: message.content === "" && message.tool_calls ? null : message.content,
          ...(message.tool_calls
            ? {
                tool_calls: message.tool_calls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: call.function,
                })),
              }
            : {}),
        };
      if (message.role === "tool")
        return { role: "tool", tool_call_id: message.tool_call_id, content: message.content };
      return { role: message.role, content: message.content };
    }),
    tools: conversation.tools,
  };
}

function formatNotes(format: SftFormat): string[] {
  if (format === "verl")
    return [
      "verl multi-turn SFT parquet: messages (list of structs), tools (a JSON string: parquet needs one struct type per column and the tools' JSON Schemas differ, so a struct column would gain null keys that change the rendered prompt; recipes/sft.sh sets data.custom_cls to progagent_rl/verl_sft_dataset.py (ProgAgentSFTDataset), which parses it), enable_thinking",
      "verl tokenises each message separately and compares with a whole-conversation render; for Qwen3 set data.ignore_input_ids_mismatch=True (a message rendered alone loses its reasoning and parallel tool responses each get their own user turn)",
    ];
  if (format === "ms-swift")
    return [
      "ms-swift: train with --agent_template hermes --add_non_thinking_prefix false (Qwen3 template); the hermes separator and think blocks are written into content so ms-swift renders Qwen3's own text",
      "ms-swift re-serialises tool-call arguments with json.dumps: calls whose argument string is not in that form train on the re-serialised text (counted in the manifest)",
    ];
  return [
    "OpenAI chat fine-tuning JSONL: messages + tools; reasoning is not part of the format and is dropped",
  ];
}

/**
 * Exports verifier-passing trajectories as SFT data for verl (parquet), ms-swift (JSONL) or OpenAI fine-tuning
 * (JSONL), with a manifest, deterministic validation split by task, and token statistics from the chat template.
 * Every file is written atomically: on any error nothing is left behind.
 */
export function exportSft(options: SftExportOptions): SftExportSummary {
  if (!(SFT_FORMATS as readonly string[]).includes(options.format))
    throw new ProgAgentError(
      `unknown format '${String(options.format)}': expected one of ${SFT_FORMATS.join(", ")}`,
      {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "user",
      },
    );
  const renderer = createChatRenderer(
    options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer },
  );
  const { trajectories, runs } = readRuns(options.inputs);
  const dropped = Object.fromEntries(DROP_REASONS.map((reason) => [reason, 0])) as Record<DropReason, number>;
  const taskMatcher = options.taskGlob ? globToRegExp(options.taskGlob) : undefined;
  const seen = new Set<string>();
  const candidates: Array<{ trajectory: Trajectory; conversation: SftConversation }> = [];
  const ordered = trajectories.map((entry) => entry.trajectory).sort(order);
  for (const trajectory of ordered) {
    // The selection first: an episode outside it is filtered, whatever its reward.
    if (options.harnesses && !options.harnesses.includes(trajectory.harness)) dropped.harness_filtered += 1;
    else if (taskMatcher && !taskMatcher.test(trajectory.task)) dropped.task_filtered += 1;
    else if (options.scales && !options.scales.includes(trajectory.scale)) dropped.scale_filtered += 1;
    else if (!options.includeFailed && trajectory.reward !== 1) dropped.failed_verifier += 1;
    else {
      const tools = trajectory.tools ?? options.toolsFor?.(trajectory.task, trajectory.harness);
      if (!tools) {
        dropped.no_tools += 1;
        continue;
      }
      const conversation = sftConversation(trajectory, tools);
      if (options.dedupe ?? true) {
        const key = createHash("sha256")
          .update(JSON.stringify([conversation.messages, conversation.tools]))
          .digest("hex");
        if (seen.has(key)) {
          dropped.duplicate += 1;
          continue;
        }
        seen.add(key);
      }
      candidates.push({ trajectory, conversation });
    }
  }
  const split = splitTasks(
    candidates.map((candidate) => candidate.trajectory.task),
    options.valShare ?? 0,
  );
  const argumentsMode: ToolArgumentsMode = options.format === "ms-swift" ? "python-json" : "verbatim";
  const kept: KeptRow[] = [];
  const renderFailures: string[] = [];
  for (const [index, candidate] of candidates.entries()) {
    options.onProgress?.({ done: index, total: candidates.length });
    let rendered;
    try {
      rendered = renderer.render({
        messages: candidate.conversation.messages,
        tools: candidate.conversation.tools,
        toolArguments: argumentsMode,
      });
    } catch (error) {
      dropped.unrenderable += 1;
      if (renderFailures.length < 5)
        renderFailures.push(`${candidate.trajectory.episodeId}: ${errorMessage(error)}`);
      continue;
    }
    const trainedTokens = rendered.lossMask.reduce((sum, bit) => sum + bit, 0);
    if (options.maxTokens !== undefined && rendered.tokenIds.length > options.maxTokens) {
      dropped.too_long += 1;
      continue;
    }
    kept.push({
      ...candidate,
      split: split.get(candidate.trajectory.task) ?? "train",
      tokenCount: rendered.tokenIds.length,
      trainedTokens,
    });
  }
  if (kept.length === 0) {
    const reasons = Object.entries(dropped)
      .filter(([, count]) => count > 0)
      .map(([reason, count]) => `${reason} ${count}`)
      .join(", ");
    throw new ProgAgentError(
      `no episode of ${trajectories.length} passed the filters (dropped: ${reasons}); nothing was written`,
      { code: "EXPORT_EMPTY", category: "user", details: dropped },
    );
  }
  return writeSft(options, renderer, runs, trajectories.length, kept, dropped, renderFailures);
}

function writeSft(
  options: SftExportOptions,
  renderer: ChatRenderer,
  runs: RunSummary[],
  episodesRead: number,
  kept: KeptRow[],
  dropped: Record<DropReason, number>,
  renderFailures: string[],
): SftExportSummary {
  const outPath = resolve(options.outPath);
  if (!existsSync(dirname(outPath))) mkdirSync(dirname(outPath), { recursive: true });
  const valPath = siblingPath(outPath, ".val");
  const manifestPath = siblingPath(outPath, ".manifest", ".json");
  const notes = [
    ...formatNotes(options.format),
    ...renderFailures.map((failure) => `not renderable: ${failure}`),
  ];
  const bySplit = {
    train: kept.filter((row) => row.split === "train"),
    val: kept.filter((row) => row.split === "val"),
  };
  let msSwift: SftExportSummary["msSwift"];
  const files = createAtomicFileSet();
  const written: string[] = [];
  try {
    for (const [splitName, rows] of Object.entries(bySplit) as Array<[Split, KeptRow[]]>) {
      if (splitName === "val" && rows.length === 0) continue;
      const target = splitName === "train" ? outPath : valPath;
      written.push(target);
      const file = files.open(target);
      if (options.format === "verl") {
        file.write(
          parquetBytes(
            [
              PARQUET_TYPES.messages(
                "messages",
                rows.map((row) => row.conversation.messages.map(parquetMessage)),
              ),
              PARQUET_TYPES.text(
                "tools",
                rows.map((row) => JSON.stringify(row.conversation.tools)),
              ),
              PARQUET_TYPES.boolean(
                "enable_thinking",
                rows.map((row) => row.conversation.thinking),
              ),
              PARQUET_TYPES.text(
                "data_source",
                rows.map(() => "progagent"),
              ),
              PARQUET_TYPES.text(
                "task",
                rows.map((row) => row.trajectory.task),
              ),
              PARQUET_TYPES.text(
                "scale",
                rows.map((row) => row.trajectory.scale),
              ),
              PARQUET_TYPES.text(
                "harness",
                rows.map((row) => row.trajectory.harness),
              ),
              PARQUET_TYPES.text(
                "episode_id",
                rows.map((row) => row.trajectory.episodeId),
              ),
              PARQUET_TYPES.text(
                "run_id",
                rows.map((row) => row.trajectory.runId),
              ),
              PARQUET_TYPES.integer(
                "num_tokens",
                rows.map((row) => row.tokenCount),
              ),
            ],
            {
              "progagent.schemaVersion": String(EXPORT_MANIFEST_SCHEMA_VERSION),
              "progagent.split": splitName,
            },
          ),
        );
      } else if (options.format === "ms-swift") {
        msSwift ??= { callsReserialised: 0, callsUnparseable: 0, rowsTextDiffers: 0 };
        for (const row of rows) {
          const { row: swiftRow, differences } = toMsSwiftRow(row.conversation);
          for (const difference of differences) {
            if (difference.reason === "arguments_reserialised") msSwift.callsReserialised += 1;
            else msSwift.callsUnparseable += 1;
          }
          const ours = renderer.renderText({
            messages: row.conversation.messages,
            tools: row.conversation.tools,
            toolArguments: "python-json",
          });
          if (msSwiftText(swiftRow) !== ours) msSwift.rowsTextDiffers += 1;
          file.write(`${JSON.stringify(swiftRow)}\n`);
        }
      } else {
        for (const row of rows) file.write(`${JSON.stringify(openAiRow(row.conversation))}\n`);
      }
    }
    const tokensPerRow = tokenStats(kept);
    const summary: SftExportSummary = {
      format: options.format,
      episodesRead,
      kept: kept.length,
      dropped,
      rows: { train: bySplit.train.length, val: bySplit.val.length },
      tokensPerRow,
      files: written,
      manifestPath,
      ...(msSwift ? { msSwift } : {}),
      notes,
    };
    const manifest = {
      schemaVersion: EXPORT_MANIFEST_SCHEMA_VERSION,
      kind: "sft",
      format: options.format,
      createdAt: new Date().toISOString(),
      files: { train: outPath, ...(bySplit.val.length > 0 ? { val: valPath } : {}) },
      sources: runs,
      filters: {
        verifierPassingOnly: !options.includeFailed,
        harnesses: options.harnesses ?? null,
        tasks: options.taskGlob ?? null,
        scales: options.scales ?? null,
        maxTokens: options.maxTokens ?? null,
        dedupe: options.dedupe ?? true,
        valShare: options.valShare ?? 0,
      },
      tokenizer: {
        name: renderer.tokenizerName,
        tokenizerSha256: renderer.tokenizerHash,
        chatTemplateSha256: renderer.templateHash,
        toolArguments: options.format === "ms-swift" ? "python-json" : "verbatim",
      },
      counts: {
        episodesRead,
        kept: kept.length,
        train: bySplit.train.length,
        val: bySplit.val.length,
        dropped,
        valTasks: [...new Set(bySplit.val.map((row) => row.trajectory.task))].sort(),
      },
      tokens: tokensPerRow,
      ...(msSwift ? { msSwift } : {}),
      notes,
    };
    files.open(manifestPath).write(`${JSON.stringify(manifest, null, 2)}\n`);
    files.commit();
    return summary;
  } catch (error) {
    files.discard();
    throw error;
  }
}
