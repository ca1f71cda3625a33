import Database from "better-sqlite3";
import { copyFileSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createTempDir } from "../core/index.js";
import type { Instance } from "./instance.js";
import { cacheStatements } from "./statement-cache.js";

/** Instance databases up to this size give each episode an in-memory copy; larger ones a private file. */
export const IN_MEMORY_STATE_BYTES = 16 * 1024 * 1024;
/** Bytes of instance databases kept for episodes to copy from (least recently used dropped first). */
const KEPT_BYTES_BUDGET = 64 * 1024 * 1024;
const keptBytes = new Map<string, Buffer>();
let keptBytesTotal = 0;

/** An episode's private copy of its instance's database, which the domain's tools read and write. */
export interface EpisodeState {
  readonly db: Database.Database;
  /** Where `db` lives: "memory" (a copy of the instance's bytes) or "file" (a private copy on disk). */
  readonly storage: "memory" | "file";
  /**
   * What the verifier opens read-only once the episode's program has stopped: a serialized snapshot of an
   * in-memory state, or the private file (its lock released).
   */
  finalState(): Buffer | string;
  /** Closes the handle and removes the private file, if any. */
  close(): Promise<void>;
}

/**
 * The bytes of a small instance database, read once and kept (up to 64 MiB of them): every episode of an instance
 * starts from the same immutable, content-addressed file, and reading it again cost the host's thread about 1 ms
 * per episode in a burst. An in-memory database copies the bytes it is opened from; nothing writes this buffer.
 */
function instanceBytes(path: string): Buffer {
  const known = keptBytes.get(path);
  if (known) {
    keptBytes.delete(path);
    keptBytes.set(path, known);
    return known;
  }
  const bytes = readFileSync(path);
  keptBytes.set(path, bytes);
  keptBytesTotal += bytes.length;
  for (const [kept, held] of keptBytes) {
    if (keptBytesTotal <= KEPT_BYTES_BUDGET || kept === path) break;
    keptBytes.delete(kept);
    keptBytesTotal -= held.length;
  }
  return bytes;
}

/**
 * Opens an episode's state. Neither kind is reachable from a sandbox: the file lives in a host directory no
 * sandbox binds. In memory (the usual case; every built-in instance is under 2 MB at v3) an episode start makes
 * no directory, file copy, fsync, lock or removal, which were a third of the host's thread per episode in a
 * burst (issue 8); a database over `inMemoryBytes` gets the private file, so host memory never holds a copy of
 * a large state per episode. Either way handlers prepare each SQL text once (statements finalised at close) and
 * transactions roll back (the journal is kept in memory).
 */
export function openEpisodeState(instance: Instance, inMemoryBytes = IN_MEMORY_STATE_BYTES): EpisodeState {
  const size = keptBytes.get(instance.dbPath)?.length ?? statSync(instance.dbPath).size;
  if (size <= inMemoryBytes) {
    const db = cacheStatements(new Database(instanceBytes(instance.dbPath)));
    try {
      db.pragma("foreign_keys = ON");
    } catch (error) {
      db.close();
      throw error;
    }
    return {
      db,
      storage: "memory",
      finalState: () => db.serialize(),
      close: async () => {
        db.close();
      },
    };
  }
  const directory = createTempDir("episode");
  let db: Database.Database;
  try {
    const path = join(directory.path, "state.sqlite");
    copyFileSync(instance.dbPath, path);
    db = cacheStatements(new Database(path));
    // A private copy thrown away at the end needs no durability (fsync on every tool write was most of a DTC
    // evaluation's wall time), and nobody else opens it until the verifier: holding the file lock spares every
    // query SQLite's lock, change check and unlock.
    db.pragma("journal_mode = MEMORY");
    db.pragma("synchronous = OFF");
    db.pragma("foreign_keys = ON");
    db.pragma("locking_mode = EXCLUSIVE");
    const opened = db;
    return {
      db: opened,
      storage: "file",
      finalState: () => {
        // Back to normal locking, which takes effect at the next read: the verifier's connection gets in.
        opened.pragma("locking_mode = NORMAL");
        opened.prepare("SELECT count(*) FROM sqlite_master").get();
        return path;
      },
      close: async () => {
        opened.close();
        await directory.disposeAsync();
      },
    };
  } catch (error) {
    directory.dispose();
    throw error;
  }
}
