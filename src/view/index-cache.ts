import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { SUMMARY_COLUMNS, type EpisodeSummary } from "./episode-summary.js";
import type { SkipTally } from "./jsonl-index.js";

/** Where indexes are kept between runs of the viewer (one small file per indexed file). */
export function defaultIndexCacheDir(): string {
  return join(homedir(), ".cache", "progagent", "view");
}

/** Bumped whenever what an index holds changes: an old cache is then ignored. */
const CACHE_FORMAT = 1;
const FINGERPRINT_BYTES = 4096;

/** What an index knew when it was saved, and the file state it belongs to. */
export interface CachedIndex {
  identity: string;
  mtimeMs: number;
  indexedBytes: number;
  nextLine: number;
  /** sha256 of the bytes just before `indexedBytes`: a file rewritten in place under the same inode differs. */
  fingerprint: string;
  summaries: EpisodeSummary[];
  skipped: SkipTally[];
  warnings: SkipTally[];
}

const PLACE_COLUMNS = ["offset", "lengthBytes", "searchStart", "searchEnd"] as const;
const COLUMNS = [...SUMMARY_COLUMNS, ...PLACE_COLUMNS] as const;

function cacheFile(dir: string, path: string): string {
  return join(dir, `${createHash("sha256").update(path).digest("hex").slice(0, 32)}.json`);
}

/** The sha256 of the bytes before `end` (up to 4 KB): what a cache checks the file against. */
export async function fingerprintBefore(path: string, end: number): Promise<string> {
  const start = Math.max(0, end - FINGERPRINT_BYTES);
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(end - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return createHash("sha256").update(buffer.subarray(0, bytesRead)).digest("hex");
  } finally {
    await handle.close();
  }
}

/** Saves an index, column by column (about a third of the size of one object per episode), atomically. */
export function saveCachedIndex(dir: string, path: string, index: CachedIndex): void {
  mkdirSync(dir, { recursive: true });
  const columns = Object.fromEntries(
    COLUMNS.map((column) => [column, index.summaries.map((summary) => summary[column])]),
  );
  const file = cacheFile(dir, path);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(
    temporary,
    JSON.stringify({
      format: CACHE_FORMAT,
      path,
      identity: index.identity,
      mtimeMs: index.mtimeMs,
      indexedBytes: index.indexedBytes,
      nextLine: index.nextLine,
      fingerprint: index.fingerprint,
      skipped: index.skipped,
      warnings: index.warnings,
      count: index.summaries.length,
      columns,
    }),
  );
  renameSync(temporary, file);
}

/** The saved index of `path`, or undefined when there is none or it is of another format or file. */
export async function loadCachedIndex(dir: string, path: string): Promise<CachedIndex | undefined> {
  let saved: Record<string, unknown>;
  try {
    saved = JSON.parse(await readFile(cacheFile(dir, path), "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (saved.format !== CACHE_FORMAT || saved.path !== path || typeof saved.count !== "number")
    return undefined;
  const columns = saved.columns as Record<string, unknown[]> | undefined;
  if (!columns || COLUMNS.some((column) => !Array.isArray(columns[column]))) return undefined;
  const summaries: EpisodeSummary[] = [];
  for (let row = 0; row < saved.count; row += 1) {
    const summary: Record<string, unknown> = {};
    for (const column of COLUMNS) summary[column] = columns[column]![row];
    summaries.push(summary as unknown as EpisodeSummary);
  }
  return {
    identity: String(saved.identity),
    mtimeMs: Number(saved.mtimeMs),
    indexedBytes: Number(saved.indexedBytes),
    nextLine: Number(saved.nextLine),
    fingerprint: String(saved.fingerprint),
    summaries,
    skipped: (saved.skipped as SkipTally[]) ?? [],
    warnings: (saved.warnings as SkipTally[]) ?? [],
  };
}
