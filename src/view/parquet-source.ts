import { domainOf, type EpisodeSummary } from "./episode-summary.js";
import { Tally } from "./jsonl-index.js";
import { summarizeSftRow } from "./summarize-line.js";

/** Rows read at once while indexing: the messages of one batch are in memory, never the file's. */
const BATCH_ROWS = 128;

type Row = Record<string, unknown>;

/** A verl parquet export: SFT rows (`messages`) or RL rows (`prompt`, one per task instance). */
export interface ParquetSource {
  summaries: EpisodeSummary[];
  skipped: Tally;
  /** One row, as JSON values (int64 as numbers). */
  readRow(line: number): Promise<Row | undefined>;
  kind: "sft" | "rl";
}

/** JSON values: parquet int64 columns come back as bigint. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}

/** An RL row as the list shows it: the instance (task, scale, seed, harness) and its prompt. */
function summarizeRlRow(row: Row, place: { source: number; line: number }): EpisodeSummary {
  const info = (row.extra_info ?? {}) as Record<string, unknown>;
  const task = typeof info.task === "string" ? info.task : "";
  return {
    ...place,
    offset: 0,
    lengthBytes: 0,
    searchStart: 0,
    searchEnd: 0,
    kind: "sft",
    schemaVersion: null,
    runId: "",
    episodeId: `${task}|${String(info.scale ?? "")}|seed ${String(info.seed ?? "")}`,
    task,
    domain: domainOf(task),
    harness: typeof info.harness === "string" ? info.harness : "",
    scale: typeof info.scale === "string" ? info.scale : "",
    seed: typeof info.seed === "number" ? info.seed : null,
    sample: null,
    model: "",
    reward: null,
    endReason: typeof info.split === "string" ? `rl prompt (${info.split})` : "rl prompt",
    turns: 0,
    toolCalls: 0,
    codeBlocks: 0,
    runtimeErrors: 0,
    toolOutputTokens: null,
    contextTokens: null,
    wallTimeMs: null,
    step: null,
  };
}

/**
 * Indexes a verl parquet export (`export sft --format verl`, `export rl`) batch by batch with hyparquet, a
 * dependency that is loaded only here. A file of another layout is an error naming what was expected.
 */
export async function readParquetSource(
  path: string,
  source: number,
  signal?: AbortSignal,
): Promise<ParquetSource> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } =
    await import("hyparquet");
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const columns = parquetSchema(metadata).children.map((child) => child.element.name);
  const kind = columns.includes("messages") ? "sft" : columns.includes("prompt") ? "rl" : undefined;
  if (!kind)
    throw new Error(
      `${path} is parquet but of another schema (columns ${columns.join(", ")}): expected a verl SFT export (messages) or RL export (prompt)`,
    );
  const listColumns =
    kind === "sft"
      ? columns.filter((name) =>
          ["messages", "task", "scale", "harness", "episode_id", "run_id", "num_tokens"].includes(name),
        )
      : ["extra_info"];
  const rowCount = Number(metadata.num_rows);
  const summaries: EpisodeSummary[] = [];
  const skipped = new Tally();
  for (let start = 0; start < rowCount; start += BATCH_ROWS) {
    signal?.throwIfAborted();
    const rows = (await parquetReadObjects({
      file,
      metadata,
      columns: listColumns,
      rowStart: start,
      rowEnd: Math.min(rowCount, start + BATCH_ROWS),
    })) as Row[];
    rows.forEach((raw, index) => {
      const row = plain(raw) as Row;
      const place = { source, line: start + index + 1 };
      if (kind === "rl") return void summaries.push(summarizeRlRow(row, place));
      const reading = Array.isArray(row.messages)
        ? summarizeSftRow(row, { ...place, offset: 0, lengthBytes: 0, searchStart: 0, searchEnd: 0 })
        : { skipped: "no messages" };
      if ("skipped" in reading) skipped.add(reading.skipped, place.line);
      else summaries.push(reading.summary);
    });
  }
  return {
    kind,
    summaries,
    skipped,
    async readRow(line) {
      if (line < 1 || line > rowCount) return undefined;
      const [row] = (await parquetReadObjects({ file, metadata, rowStart: line - 1, rowEnd: line })) as Row[];
      return row === undefined ? undefined : (plain(row) as Row);
    },
  };
}
