import { stat } from "node:fs/promises";
import type { EpisodeSummary } from "./episode-summary.js";
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
  /** Reads what was appended since the last update; `onSummary` sees each new episode as it is indexed. */
  update(options?: { signal?: AbortSignal; onSummary?: (summary: EpisodeSummary) => void }): Promise<void>;
}

export function createJsonlIndex(path: string, source: number): JsonlIndex {
  const summaries: EpisodeSummary[] = [];
  const skipped = new Tally();
  const warnings = new Tally();
  let indexedBytes = 0;
  let sizeBytes = 0;
  let nextLine = 1;
  let identity = "";
  let pendingTail: { line: number; bytes: number } | null = null;

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
    async update(options = {}) {
      const info = await stat(path);
      // A file replaced (an eval resume rewrites it atomically) or shortened is indexed again from the start.
      const now = `${info.dev}:${info.ino}`;
      if (now !== identity || info.size < indexedBytes) {
        if (identity !== "") reset();
        identity = now;
      }
      sizeBytes = info.size;
      pendingTail = null;
      for await (const line of readLines(path, {
        fromOffset: indexedBytes,
        firstLine: nextLine,
        ...(options.signal ? { signal: options.signal } : {}),
      })) {
        const reading =
          line.bytes === null || isBlank(line.bytes)
            ? undefined
            : summarizeLine(line.bytes, { source, line: line.line, offset: line.offset });
        // A last line without its newline counts once it reads whole (a file saved without a final newline);
        // otherwise it is cut short or being written, and an update reads it again.
        if (!line.complete && (reading === undefined || "skipped" in reading)) {
          pendingTail = { line: line.line, bytes: line.lengthBytes };
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
        options.onSummary?.(reading.summary);
      }
    },
  };
}

function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}
