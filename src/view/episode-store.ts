import { open } from "node:fs/promises";
import { episodeKeyOf, type EpisodeSummary } from "./episode-summary.js";
import { sftRowAsTrajectory, withVerdictPolicy, type ViewEpisode } from "./episode-view.js";
import { createJsonlIndex, type JsonlIndex, type SkipTally, type Tally } from "./jsonl-index.js";
import { defaultIndexCacheDir } from "./index-cache.js";
import { resolveInputs, type ResolvedInput } from "./resolve-inputs.js";
import type { ParquetSource } from "./parquet-source.js";
import { readValidationFile, type ValidationRowView } from "./validation-source.js";

/** What the page shows about one input: how far it was read, and what was skipped and why. */
export interface SourceStatus {
  id: number;
  input: string;
  label: string;
  kind: ResolvedInput["kind"];
  state: "waiting" | "indexing" | "ready" | "error";
  /** Why nothing of it could be read (missing, unreadable, another format). */
  error: string | null;
  episodes: number;
  sizeBytes: number;
  indexedBytes: number;
  skipped: SkipTally[];
  warnings: SkipTally[];
  /** A last line without its newline (cut short, or being written). */
  pendingTail: { line: number; bytes: number } | null;
  hasReport: boolean;
  revealVerdict: boolean;
  /** The index came from the cache of an earlier run (only what was appended since was read). */
  fromCache: boolean;
}

interface Source {
  resolved: ResolvedInput;
  state: SourceStatus["state"];
  error: string | null;
  jsonl: JsonlIndex | null;
  validation: { summaries: EpisodeSummary[]; rows: ValidationRowView[]; skipped: Tally } | null;
  parquet: ParquetSource | null;
}

export interface SearchResult {
  /** Keys of the episodes whose messages (instruction, code, outputs, answers) contain the text. */
  keys: string[];
  searched: number;
  /** Episodes not searched because the deadline passed. */
  unsearched: number;
}

/**
 * Every episode of the viewer's inputs: the list (summaries of all sources, in order), episodes read on demand
 * from their byte range, and text search over the episodes' messages. Nothing but the summaries stays in
 * memory.
 */
export interface EpisodeStore {
  readonly sources: readonly SourceStatus[];
  /** Summaries of every source, in source then line order. `from` skips those already sent. */
  summaries(from?: number): EpisodeSummary[];
  readonly episodeCount: number;
  /** Changes when the list changed other than by episodes appended at its end: the page reloads it. */
  readonly generation: number;
  /** Indexes every source (again: only what was appended); resolves when all are read. */
  update(signal?: AbortSignal): Promise<void>;
  readEpisode(key: string): Promise<ViewEpisode | undefined>;
  search(text: string, options?: { keys?: readonly string[]; deadlineMs?: number }): Promise<SearchResult>;
  reportPath(source: number): string | null;
}

export interface EpisodeStoreOptions {
  /** Where indexes of large files are kept between runs (default ~/.cache/progagent/view; null: nowhere). */
  indexCacheDir?: string | null;
}

export function createEpisodeStore(
  inputs: readonly string[],
  options: EpisodeStoreOptions = {},
): EpisodeStore {
  const cacheDir = options.indexCacheDir === undefined ? defaultIndexCacheDir() : options.indexCacheDir;
  const sources: Source[] = resolveInputs(inputs).map((resolved) => ({
    resolved,
    state: resolved.problem ? "error" : "waiting",
    error: resolved.problem,
    jsonl: null,
    validation: null,
    parquet: null,
  }));
  let generation = 0;
  let updating: Promise<void> | undefined;

  const listOf = (source: Source): readonly EpisodeSummary[] =>
    source.jsonl?.summaries ?? source.validation?.summaries ?? source.parquet?.summaries ?? [];
  const allSummaries = (): EpisodeSummary[] => sources.flatMap((source) => listOf(source));
  const find = (key: string): EpisodeSummary | undefined => {
    const match = /^(\d+)\.(\d+)$/.exec(key);
    if (!match) return undefined;
    const list = sources[Number(match[1])] ? listOf(sources[Number(match[1])]!) : [];
    const line = Number(match[2]);
    // Summaries are in line order: a binary search.
    let low = 0;
    let high = list.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const candidate = list[middle]!;
      if (candidate.line === line) return candidate;
      if (candidate.line < line) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  };

  const updateSource = async (source: Source, id: number, signal?: AbortSignal): Promise<void> => {
    const { resolved } = source;
    if (resolved.problem || !resolved.path) return;
    const before = listOf(source).length;
    // Growing a source before the last one that has episodes moves those after it: the page reloads the list.
    const moves = sources.slice(id + 1).some((later) => listOf(later).length > 0);
    // A source read before stays "ready" while appended lines are read (the page keeps polling slowly).
    if (source.state !== "ready") source.state = "indexing";
    try {
      if (resolved.kind === "validation") {
        source.validation ??= await readValidationFile(resolved.path, id);
      } else if (resolved.kind === "parquet") {
        const { readParquetSource } = await import("./parquet-source.js");
        source.parquet ??= await readParquetSource(resolved.path, id, signal);
      } else {
        source.jsonl ??= createJsonlIndex(resolved.path, id, { cacheDir });
        await source.jsonl.update(signal ? { signal } : {});
      }
      source.state = "ready";
      source.error = null;
    } catch (error) {
      source.state = "error";
      source.error = (error as Error).message;
    }
    const after = listOf(source).length;
    if (after < before || (moves && after !== before)) generation += 1;
  };

  const update = async (signal?: AbortSignal): Promise<void> => {
    for (const [id, source] of sources.entries()) await updateSource(source, id, signal);
  };

  const readBytes = async (path: string, offset: number, lengthBytes: number): Promise<Buffer> => {
    const handle = await open(path, "r");
    try {
      const buffer = Buffer.alloc(lengthBytes);
      const { bytesRead } = await handle.read(buffer, 0, lengthBytes, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  };

  return {
    get sources() {
      return sources.map((source, id) => statusOf(source, id));
    },
    summaries: (from = 0) => allSummaries().slice(from),
    get episodeCount() {
      return sources.reduce((total, source) => total + listOf(source).length, 0);
    },
    get generation() {
      return generation;
    },
    update(signal) {
      // One update at a time: a refresh asked for while one runs waits for it and then reads what is new.
      const next = (updating ?? Promise.resolve()).then(() => update(signal));
      updating = next.catch(() => undefined);
      return next;
    },

    async readEpisode(key) {
      const summary = find(key);
      if (!summary) return undefined;
      const source = sources[summary.source]!;
      const base = {
        key,
        summary,
        sourceLabel: source.resolved.label,
        revealVerdict: source.resolved.revealVerdict,
        warning: null as string | null,
      };
      if (source.validation)
        return { ...base, trajectory: null, validation: source.validation.rows[summary.line - 1] ?? null };
      if (source.parquet) {
        const row = await source.parquet.readRow(summary.line);
        if (!row) return undefined;
        const conversation = source.parquet.kind === "rl" ? { ...row, messages: row.prompt } : row;
        return { ...base, trajectory: sftRowAsTrajectory(conversation), validation: null };
      }
      const bytes = await readBytes(source.resolved.path!, summary.offset, summary.lengthBytes);
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
      } catch (error) {
        return {
          ...base,
          warning: `line ${summary.line} is not valid JSON (${(error as Error).message}): the file changed or is corrupt`,
          trajectory: null,
          validation: null,
        };
      }
      const trajectory = summary.kind === "sft" ? sftRowAsTrajectory(value) : value;
      return {
        ...base,
        warning:
          summary.kind === "trajectory" || summary.kind === "rollout"
            ? versionWarning(summary.schemaVersion)
            : null,
        trajectory: withVerdictPolicy(trajectory, source.resolved.revealVerdict),
        validation: null,
      };
    },

    async search(text, options = {}) {
      return await searchEpisodes(
        text,
        options.keys ? options.keys.flatMap((key) => find(key) ?? []) : allSummaries(),
        (summary) => sources[summary.source]!,
        options.deadlineMs ?? 30_000,
      );
    },

    reportPath: (source) => sources[source]?.resolved.reportPath ?? null,
  };
}

function versionWarning(version: number | null): string | null {
  if (version === 1 || version === 2) return null;
  return version === null
    ? "This line has no schemaVersion; it is shown as far as it fits trajectory version 2."
    : `schemaVersion ${version} is unknown to this viewer (it reads 1 and 2); the episode is shown as far as it fits version 2.`;
}

function statusOf(source: Source, id: number): SourceStatus {
  const { resolved, jsonl, validation } = source;
  return {
    id,
    input: resolved.input,
    label: resolved.label,
    kind: resolved.kind,
    state: source.state,
    error: source.error,
    episodes:
      jsonl?.summaries.length ?? validation?.summaries.length ?? source.parquet?.summaries.length ?? 0,
    sizeBytes: jsonl?.sizeBytes ?? 0,
    indexedBytes: jsonl?.indexedBytes ?? 0,
    skipped: jsonl?.skipped.list() ?? validation?.skipped.list() ?? source.parquet?.skipped.list() ?? [],
    warnings: jsonl?.warnings.list() ?? [],
    pendingTail: jsonl?.pendingTail ?? null,
    hasReport: resolved.reportPath !== null,
    revealVerdict: resolved.revealVerdict,
    fromCache: jsonl?.restoredFromCache ?? false,
  };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Searches the messages of each episode (the instruction, the model's text and code, the tool outputs) for
 * `text`, ignoring ASCII case. Files hold JSON, so the text is searched in its JSON-escaped form; episodes are
 * read in file order, one at a time.
 */
async function searchEpisodes(
  text: string,
  candidates: readonly EpisodeSummary[],
  sourceOf: (summary: EpisodeSummary) => Source,
  deadlineMs: number,
): Promise<SearchResult> {
  const escaped = JSON.stringify(text).slice(1, -1);
  const pattern = new RegExp(escapeRegExp(Buffer.from(escaped, "utf8").toString("latin1")), "i");
  const plain = text.toLowerCase();
  const deadline = Date.now() + deadlineMs;
  const keys: string[] = [];
  let searched = 0;
  const bySource = new Map<number, EpisodeSummary[]>();
  for (const summary of candidates)
    bySource.set(summary.source, [...(bySource.get(summary.source) ?? []), summary]);
  for (const [, summaries] of bySource) {
    const source = sourceOf(summaries[0]!);
    if (source.validation || source.parquet) {
      // Rows held in memory (validation) or read one by one (parquet exports are small next to runs).
      for (const summary of summaries) {
        if (Date.now() > deadline) break;
        searched += 1;
        const row = source.validation
          ? source.validation.rows[summary.line - 1]
          : await source.parquet!.readRow(summary.line);
        if (row && JSON.stringify(row).toLowerCase().includes(plain)) keys.push(episodeKeyOf(summary));
      }
      continue;
    }
    const handle = await open(source.resolved.path!, "r");
    try {
      const ordered = [...summaries].sort((left, right) => left.offset - right.offset);
      let buffer = Buffer.alloc(1 << 20);
      for (const summary of ordered) {
        if (Date.now() > deadline) break;
        const length = summary.searchEnd - summary.searchStart;
        if (buffer.length < length) buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, summary.offset + summary.searchStart);
        searched += 1;
        if (pattern.test(buffer.toString("latin1", 0, bytesRead))) keys.push(episodeKeyOf(summary));
      }
    } finally {
      await handle.close();
    }
  }
  const order = new Map(candidates.map((summary, index) => [episodeKeyOf(summary), index]));
  keys.sort((left, right) => order.get(left)! - order.get(right)!);
  return { keys, searched, unsearched: candidates.length - searched };
}
