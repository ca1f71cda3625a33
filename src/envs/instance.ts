import type * as FakerModule from "@faker-js/faker";
import Database from "better-sqlite3";
import { createRequire } from "node:module";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { createSeededRandom, hashString, removeTreeSync } from "../core/index.js";
import { domainSourceFingerprint, kitSourceFingerprint, type GenerateContext } from "./define-domain.js";
import type { StateView, TaskDefinition } from "./define-task.js";
import { SCALE_FACTORS, type Scale } from "./scale.js";
import { tableNames } from "./verify-helpers.js";
import {
  listWorkspaceEntriesSync,
  readWorkspaceTextSync,
  writeWorkspaceTextSync,
} from "./workspace-fs-sync.js";
import { WorkspaceFsError } from "./workspace-path.js";

/** The fixed "today" of every generated instance, so data never depends on the wall clock. */
export const REFERENCE_DATE = "2025-06-30";
const INSTANCE_FORMAT = 1;

export const instanceStatsSchema = z.object({
  dbBytes: z.number(),
  rowsPerTable: z.record(z.string(), z.number()),
  fileCount: z.number(),
  fileBytes: z.number(),
});
export type InstanceStats = z.infer<typeof instanceStatsSchema>;

export const instanceManifestSchema = z.object({
  schemaVersion: z.literal(1),
  key: z.string(),
  task: z.string(),
  scale: z.string(),
  seed: z.number(),
  stats: instanceStatsSchema,
});
export type InstanceManifest = z.infer<typeof instanceManifestSchema>;

/** A built (task, scale, seed) instance: an immutable database file and workspace in the cache. */
export interface Instance {
  task: TaskDefinition;
  scale: Scale;
  seed: number;
  key: string;
  dir: string;
  dbPath: string;
  workspaceDir: string;
  stats: InstanceStats;
}

export function defaultCacheDir(): string {
  return process.env.PROGAGENT_CACHE_DIR ?? join(homedir(), ".cache", "progagent", "instances");
}

const taskSourceFingerprints = new WeakMap<TaskDefinition, string>();

/**
 * Ties a task to a hash of the sources it was loaded from (a user's suite folder), so that an edit to any
 * of them (a generator helper, a prepare hook's data file) rebuilds its cached instances.
 */
export function setTaskSourceFingerprint(task: TaskDefinition, fingerprint: string): void {
  taskSourceFingerprints.set(task, fingerprint);
}

/** The content hash of an instance: everything that determines its bytes. */
export function instanceKey(task: TaskDefinition, scale: Scale, seed: number): string {
  const sources = taskSourceFingerprints.get(task);
  const hash = createHash("sha256");
  hash.update(
    JSON.stringify({
      format: INSTANCE_FORMAT,
      task: task.id,
      domain: task.domain.id,
      version: task.domain.version,
      schema: task.domain.schemaSql,
      generate: domainSourceFingerprint(task.domain),
      kit: kitSourceFingerprint(),
      prepare: task.prepare?.toString() ?? null,
      ...(sources === undefined ? {} : { sources }),
      scale,
      seed,
      referenceDate: REFERENCE_DATE,
    }),
  );
  return hash.digest("hex").slice(0, 24);
}

/**
 * The context a generator or prepare hook runs with: seeded faker (fixed reference date) and PRNG for one
 * stream (the domain id for the generator, the task id for prepare), and workspace file access.
 */
export function createGenerateContext(options: {
  db: Database.Database;
  workspaceDir: string;
  scale: Scale;
  seed: number;
  stream: string;
}): GenerateContext {
  return generateContext(options.db, options.workspaceDir, options.scale, options.seed, options.stream);
}

let loadedFaker: typeof FakerModule | undefined;

/** faker, required when the first instance is generated (an ES module without top-level await) rather than by every importer of the task model: most commands never generate. */
function fakerModule(): typeof FakerModule {
  loadedFaker ??= createRequire(import.meta.url)("@faker-js/faker") as typeof FakerModule;
  return loadedFaker;
}

function generateContext(
  db: Database.Database,
  workspaceDir: string,
  scale: Scale,
  seed: number,
  stream: string,
): GenerateContext {
  const { Faker, en } = fakerModule();
  const faker = new Faker({ locale: [en] });
  const streamSeed = hashString(`${seed}:${scale}:${stream}`);
  faker.seed(streamSeed);
  faker.setDefaultRefDate(new Date(`${REFERENCE_DATE}T12:00:00Z`));
  return {
    db,
    workspaceDir,
    scale,
    factors: SCALE_FACTORS[scale],
    seed,
    random: createSeededRandom(streamSeed),
    faker,
    referenceDate: REFERENCE_DATE,
    readFile: (relativePath) => readStateFile(workspaceDir, relativePath),
    writeFile(relativePath, content) {
      writeWorkspaceTextSync(workspaceDir, relativePath, content);
    },
  };
}

/** Builds an instance into the cache (or finds it there). Concurrent builders race safely: the first rename wins. */
export function buildInstance(
  task: TaskDefinition,
  scale: Scale,
  seed: number,
  cacheDir = defaultCacheDir(),
): Instance {
  const key = instanceKey(task, scale, seed);
  const dir = join(cacheDir, `${task.id}-${scale}-${seed}-${key}`);
  const manifestPath = join(dir, "manifest.json");
  if (!existsSync(manifestPath)) {
    const staging = join(cacheDir, `.staging-${key}-${process.pid}-${randomBytes(4).toString("hex")}`);
    mkdirSync(join(staging, "workspace"), { recursive: true });
    try {
      const db = new Database(join(staging, "state.sqlite"));
      try {
        db.pragma("journal_mode = DELETE");
        db.exec(task.domain.schemaSql);
        const workspaceDir = join(staging, "workspace");
        const domainContext = generateContext(db, workspaceDir, scale, seed, task.domain.id);
        db.transaction(() => task.domain.generate(domainContext))();
        if (task.prepare) {
          const taskContext = generateContext(db, workspaceDir, scale, seed, task.id);
          db.transaction(() => task.prepare?.(taskContext))();
        }
        db.exec("VACUUM");
      } finally {
        db.close();
      }
      const manifest: InstanceManifest = {
        schemaVersion: 1,
        key,
        task: task.id,
        scale,
        seed,
        stats: measureState(join(staging, "state.sqlite"), join(staging, "workspace")),
      };
      writeFileSync(join(staging, "manifest.json"), JSON.stringify(manifest, null, 2));
      try {
        renameSync(staging, dir);
      } catch (error) {
        if (!existsSync(manifestPath)) throw error;
      }
    } finally {
      removeTreeSync(staging);
    }
  }
  const manifest = instanceManifestSchema.parse(JSON.parse(readFileSync(manifestPath, "utf8")));
  return {
    task,
    scale,
    seed,
    key,
    dir,
    dbPath: join(dir, "state.sqlite"),
    workspaceDir: join(dir, "workspace"),
    stats: manifest.stats,
  };
}

export function measureState(dbPath: string, workspaceDir: string): InstanceStats {
  const db = new Database(dbPath, { readonly: true });
  const rowsPerTable: Record<string, number> = {};
  try {
    for (const table of tableNames(db)) {
      rowsPerTable[table] = (
        db.prepare(`SELECT COUNT(*) AS count FROM "${table}"`).get() as { count: number }
      ).count;
    }
  } finally {
    db.close();
  }
  const files = listWorkspaceEntriesSync(workspaceDir);
  return {
    dbBytes: statSync(dbPath).size,
    rowsPerTable,
    fileCount: files.length,
    fileBytes: files.reduce((total, file) => total + file.sizeBytes, 0),
  };
}

/**
 * A workspace file of a state no program can change any more (an instance being generated, or a final state
 * after the kernel is gone): read without following links, null when it does not exist or is not a plain
 * file. Too large a file throws, so a verifier fails visibly instead of reading it.
 */
function readStateFile(workspaceDir: string, relativePath: string): string | null {
  try {
    return readWorkspaceTextSync(workspaceDir, relativePath);
  } catch (error) {
    if (error instanceof WorkspaceFsError ? error.reason !== "too-large" : isMissing(error)) return null;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}

/** Opens a read-only view of a state (a database file or a serialized database, and a workspace) for verifiers. */
export function openStateView(
  database: string | Buffer,
  workspaceDir: string,
): { view: StateView; close(): void } {
  const db =
    typeof database === "string"
      ? new Database(database, { readonly: true, fileMustExist: true })
      : new Database(database, { readonly: true });
  return {
    view: {
      db,
      workspaceDir,
      readFile: (relativePath) => readStateFile(workspaceDir, relativePath),
      listFiles: () => listWorkspaceEntriesSync(workspaceDir).map((entry) => entry.path),
    },
    close: () => db.close(),
  };
}
