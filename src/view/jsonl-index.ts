import { stat } from "node:fs/promises";
import type { EpisodeSummary } from "./episode-summary.js";
import { fingerprintBefore, loadCachedIndex, saveCachedIndex } from "./index-cache.js";
import { readLines } from "./read-lines.js";
import { summarizeLine } from "./summarize-line.js";

/** Lines not shown, by reason, with the first few line numbers of each (a corrupt file can have millions). */
export interface SkipTally {
  reason: string;
  count: number;
  lines: number[];
}

const LINES_KEPT_PER_REASON = 20;

/** What reading a source left out or read on a best-effort basis, grouped by reason. */
export class Tally {
  private readonly byReason = new Map<string, SkipTally>();

  add(reason: string, line: number): void {
    let entry = this.byReason.get(reason);
    if (!entry) {
      entry = { reason, count: 0, lines: [] };
      this.byReason.set(reason, entry);
    }
    entry.count += 1;
    if (entry.lines.length < LINES_KEPT_PER_REASON) entry.lines.push(line);
  }

  get total(): number {
    let total = 0;
    for (const entry of this.byReason.values()) total += entry.count;
    return total;
  }

  list(): SkipTally[] {
    return [...this.byReason.values()];
  }

  clear(): void {
    this.byReason.clear();
  }

  restore(entries: readonly SkipTally[]): void {
    this.byReason.clear();
    for (const entry of entries) this.byReason.set(entry.reason, { ...entry, lines: [...entry.lines] });
  }
}

/**
 * The index of one JSONL file of episodes: a summary and the byte range of every episode line. Built once by
 * streaming the file; `update` reads only what was appended since (a rollout record growing during training).
 * A last line without its newline is reported, not consumed, so a line being written is read once complete.
 */
export interface JsonlIndex {
  readonly path: string;
  readonly summaries: readonly EpisodeSummary[];
  readonly skipped: Tally;
  readonly warnings: Tally;
  /** Bytes read so far (the start of the first line not yet read) and the file's size at the last update. */
  readonly indexedBytes: number;
  readonly sizeBytes: number;
  /** A last line without a newline: cut short, or still being written. */
  readonly pendingTail: { line: number; bytes: number } | null;
  /** The index was taken from the cache (then only what was appended since was read). */
  readonly restoredFromCache: boolean;
  /** Reads what was appended since the last update; `onSummary` sees each new episode as it is indexed. */
  update(updateOptions?: {
    signal?: AbortSignal;
    onSummary?: (summary: EpisodeSummary) => void;
  }): Promise<void>;
}

export interface JsonlIndexOptions {
  /** Keep the index here between runs (null: never); files smaller than `minCachedBytes` are not kept. */
  cacheDir?: string | null;
  minCachedBytes?: number;
}

/** Below this a file indexes in well under 0.1 s: no cache file for it. */
const MIN_CACHED_BYTES = 16 * 1024 * 1024;

export function createJsonlIndex(path: string, source: number, options: JsonlIndexOptions = {}): JsonlIndex {
  const summaries: EpisodeSummary[] = [];
  const skipped = new Tally();
  const warnings = new Tally();
  let indexedBytes = 0;
  let sizeBytes = 0;
  let nextLine = 1;
  let identity = "";
  let pendingTail: { line: number; bytes: number } | null = null;
  let mtimeMs = 0;
  let restoredFromCache = false;

  /** Takes the cached index of this file when it describes a prefix of it (appended to since, or not). */
  const restoreFromCache = async (info: { size: number }): Promise<boolean> => {
    if (!options.cacheDir) return false;
    const cached = await loadCachedIndex(options.cacheDir, path);
    if (!cached || cached.identity !== identity || cached.indexedBytes > info.size) return false;
    if ((await fingerprintBefore(path, cached.indexedBytes)) !== cached.fingerprint) return false;
    summaries.push(...cached.summaries.map((summary) => ({ ...summary, source })));
    skipped.restore(cached.skipped);
    warnings.restore(cached.warnings);
    indexedBytes = cached.indexedBytes;
    nextLine = cached.nextLine;
    mtimeMs = cached.mtimeMs;
    restoredFromCache = true;
    return true;
  };

  const saveToCache = async (): Promise<void> => {
    if (!options.cacheDir || indexedBytes < (options.minCachedBytes ?? MIN_CACHED_BYTES)) return;
    try {
      saveCachedIndex(options.cacheDir, path, {
        identity,
        mtimeMs,
        indexedBytes,
        nextLine,
        fingerprint: await fingerprintBefore(path, indexedBytes),
        summaries,
        skipped: skipped.list(),
        warnings: warnings.list(),
      });
    } catch {
      // A cache that cannot be written (read-only home) only costs the next start its indexing time.
    }
  };

  const reset = (): void => {
    summaries.length = 0;
    skipped.clear();
    warnings.clear();
    indexedBytes = 0;
    nextLine = 1;
  };

  return {
    path,
    summaries,
    skipped,
    warnings,
    get indexedBytes() {
      return indexedBytes;
    },
    get sizeBytes() {
      return sizeBytes;
    },
    get pendingTail() {
      return pendingTail;
    },
    get restoredFromCache() {
      return restoredFromCache;
    },
    async update(updateOptions = {}) {
      const info = await stat(path);
      // A file replaced (an eval resume rewrites it atomically) or shortened is indexed again from the start.
      const now = `${info.dev}:${info.ino}`;
      const first = identity === "";
      if (now !== identity || info.size < indexedBytes) {
        if (!first) reset();
        identity = now;
        if (await restoreFromCache(info)) {
          if (info.size === indexedBytes && info.mtimeMs === mtimeMs) {
            sizeBytes = info.size;
            return;
          }
        }
      }
      sizeBytes = info.size;
      mtimeMs = info.mtimeMs;
      const startedAt = indexedBytes;
      // Set when the reading ends, so that a status asked for meanwhile still sees the last one.
      let tail: { line: number; bytes: number } | null = null;
      for await (const line of readLines(path, {
        fromOffset: indexedBytes,
        firstLine: nextLine,
        ...(updateOptions.signal ? { signal: updateOptions.signal } : {}),
      })) {
        const reading =
          line.bytes === null || isBlank(line.bytes)
            ? undefined
            : summarizeLine(line.bytes, { source, line: line.line, offset: line.offset });
        // A last line without its newline counts once it reads whole (a file saved without a final newline);
        // otherwise it is cut short or being written, and an update reads it again.
        if (!line.complete && (reading === undefined || "skipped" in reading)) {
          tail = { line: line.line, bytes: line.lengthBytes };
          break;
        }
        indexedBytes = line.offset + line.lengthBytes + (line.complete ? 1 : 0);
        nextLine = line.line + 1;
        if (line.bytes === null) {
          skipped.add(`longer than the viewer reads (${Math.round(line.lengthBytes / 1e6)} MB)`, line.line);
          continue;
        }
        if (reading === undefined) continue;
        if ("skipped" in reading) {
          skipped.add(reading.skipped, line.line);
          continue;
        }
        if (reading.warning) warnings.add(reading.warning, line.line);
        summaries.push(reading.summary);
        updateOptions.onSummary?.(reading.summary);
      }
      pendingTail = tail;
      if (indexedBytes !== startedAt) await saveToCache();
    },
  };
}

function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}
