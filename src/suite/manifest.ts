/**
 * The built-in suite's manifest: the facts `tasks list` prints of each built-in task, generated from the task
 * definitions (`npm run suite:manifest` for a clone's `src/suite/manifest.json`, `npm run build` for
 * `dist/suite/manifest.json`), so that listing the suite need not import twelve domains.
 *
 * The manifest names every source file the definitions load, with its content hash. It is used only when each
 * of those files still has that hash; otherwise (edited, removed, or no manifest at all) the caller imports the
 * definitions. This module imports nothing but Node built-ins and the error base, to stay cheap to load.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinTaskFilter, noBuiltinTaskError } from "./builtin-task-filter.js";

export const SUITE_MANIFEST_SCHEMA_VERSION = 1;
/** The manifest's file name, in the suite's folder (`src/suite/` in a clone, `dist/suite/` in the package). */
export const SUITE_MANIFEST_FILE = "manifest.json";

/** What the manifest keeps of one built-in task. */
export interface SuiteManifestTask {
  id: string;
  /** The id of the task's domain definition. */
  domain: string;
  summary: string;
  instruction: string;
  /** Names of the domain tools the task exposes. */
  tools: string[];
}

export interface SuiteManifest {
  schemaVersion: typeof SUITE_MANIFEST_SCHEMA_VERSION;
  /** Says how the file was made, for a reader who opens it. */
  comment: string;
  /**
   * Every source file the definitions load, as a path relative to the folder above the suite's (`suite/index.ts`
   * in a clone, `suite/index.js` in the package), with the sha256 of its content.
   */
  sources: Record<string, string>;
  /** The built-in domains in loading order, each with its tasks in definition order. */
  domains: Array<{ id: string; tasks: SuiteManifestTask[] }>;
}

/** A manifest as found: usable (`fresh`), or why not. */
export type SuiteManifestState =
  | { state: "fresh"; path: string; manifest: SuiteManifest }
  | { state: "missing" | "invalid" | "stale"; path: string; reason: string };

/** The folder of the built-in suite this module belongs to (`src/suite` or `dist/suite`). */
export function builtinSuiteDir(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/** The sha256 of a file's bytes, as the manifest records it. */
export function hashSourceFile(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/**
 * Reads the manifest in `suiteDir` (default: the built-in suite's folder) and checks it against the sources it
 * was generated from. Never throws: a manifest that cannot be used says why.
 */
export function readSuiteManifest(suiteDir: string = builtinSuiteDir()): SuiteManifestState {
  const path = join(suiteDir, SUITE_MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { state: missing ? "missing" : "invalid", path, reason: `cannot read ${path}: ${String(error)}` };
  }
  let manifest: SuiteManifest;
  try {
    manifest = parseSuiteManifest(JSON.parse(text) as unknown);
  } catch (error) {
    return { state: "invalid", path, reason: `${path}: ${(error as Error).message}` };
  }
  const root = dirname(suiteDir);
  for (const [source, hash] of Object.entries(manifest.sources)) {
    let actual: string;
    try {
      actual = hashSourceFile(join(root, source));
    } catch {
      return { state: "stale", path, reason: `${source} is gone` };
    }
    if (actual !== hash) return { state: "stale", path, reason: `${source} changed` };
  }
  return { state: "fresh", path, manifest };
}

/**
 * The manifest's tasks a glob selects, in the order `loadSuite` gives them, or the error `loadSuite` throws when
 * none match.
 */
export function selectManifestTasks(manifest: SuiteManifest, glob: string): SuiteManifestTask[] {
  const filter = builtinTaskFilter(glob);
  const tasks = manifest.domains
    .filter((domain) => filter.domain.test(domain.id))
    .flatMap((domain) => domain.tasks.filter((task) => filter.task.test(task.id)));
  if (tasks.length === 0)
    throw noBuiltinTaskError(
      glob,
      manifest.domains.map((domain) => domain.id),
    );
  return tasks;
}

/** Checks a parsed manifest's shape (a file on disk is input like any other); throws naming what is wrong. */
export function parseSuiteManifest(value: unknown): SuiteManifest {
  const fail = (what: string): never => {
    throw new Error(`not a suite manifest (schemaVersion ${SUITE_MANIFEST_SCHEMA_VERSION}): ${what}`);
  };
  const isRecord = (item: unknown): item is Record<string, unknown> =>
    typeof item === "object" && item !== null && !Array.isArray(item);
  const isStrings = (item: unknown): item is string[] =>
    Array.isArray(item) && item.every((entry) => typeof entry === "string");
  if (!isRecord(value)) return fail("expected a JSON object");
  if (value.schemaVersion !== SUITE_MANIFEST_SCHEMA_VERSION)
    return fail(`schemaVersion is ${JSON.stringify(value.schemaVersion)}`);
  if (typeof value.comment !== "string") return fail("comment is not a string");
  const sources = value.sources;
  if (!isRecord(sources) || Object.keys(sources).length === 0)
    return fail("sources is not a non-empty object");
  for (const [source, hash] of Object.entries(sources)) {
    if (source.startsWith("/") || source.split("/").includes("..") || source.includes("\\"))
      return fail(`source path '${source}' is not a relative path inside the package`);
    if (typeof hash !== "string" || !/^[0-9a-f]{64}$/.test(hash))
      return fail(`the hash of '${source}' is not a sha256`);
  }
  if (!Array.isArray(value.domains) || value.domains.length === 0)
    return fail("domains is not a non-empty array");
  for (const domain of value.domains as unknown[]) {
    if (!isRecord(domain) || typeof domain.id !== "string" || !Array.isArray(domain.tasks))
      return fail("a domain is not { id, tasks }");
    for (const task of domain.tasks as unknown[]) {
      if (
        !isRecord(task) ||
        typeof task.id !== "string" ||
        typeof task.domain !== "string" ||
        typeof task.summary !== "string" ||
        typeof task.instruction !== "string" ||
        !isStrings(task.tools)
      )
        return fail(`a task of domain '${domain.id}' is not { id, domain, summary, instruction, tools }`);
    }
  }
  return value as unknown as SuiteManifest;
}
