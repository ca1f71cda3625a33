import type { Faker } from "@faker-js/faker";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import type Database from "better-sqlite3";
import type { SeededRandom } from "../core/index.js";
import type { ToolDefinition } from "../runtime/index.js";
import type { Scale } from "./scale.js";

/** What a tool handler sees: the episode's private database and workspace (host paths; never in the sandbox). */
export interface ToolContext {
  db: Database.Database;
  workspaceDir: string;
}

/** What a generator sees when it fills the database and writes workspace files for one scale. */
export interface GenerateContext {
  db: Database.Database;
  workspaceDir: string;
  scale: Scale;
  /** Multiply base row counts by `rows` (1/2/4/8) and scaled file counts by `files` (1/2/3/4). */
  factors: { rows: number; files: number };
  seed: number;
  random: SeededRandom;
  /** Seeded faker with a fixed reference date. */
  faker: Faker;
  /** The fixed "today" of every instance (ISO date). Use it, never the wall clock. */
  referenceDate: string;
  /** Writes a workspace file (relative path, directories created): text as UTF-8, bytes as they are (.xlsx). */
  writeFile(relativePath: string, content: string | Uint8Array): void;
  /** Reads a workspace file written earlier (by the generator or this prepare); null when it does not exist. */
  readFile(relativePath: string): string | null;
}

export type DomainTool = ToolDefinition<ToolContext>;

/** A domain: a SQLite schema, a seeded generator and a library of single-purpose tools over them. */
export interface DomainDefinition {
  id: string;
  title: string;
  description: string;
  /** Bump when the schema or generator changes, so cached instances are rebuilt. */
  version: number;
  schemaSql: string;
  generate(context: GenerateContext): void;
  tools: DomainTool[];
}

const sourceFingerprints = new WeakMap<DomainDefinition, string>();

/**
 * A hash of the source files in the folder of the module that called defineDomain (tests excluded), so that
 * an edit to any generator helper invalidates cached instances without anyone remembering to bump `version`.
 */
export function domainSourceFingerprint(domain: DomainDefinition): string {
  return sourceFingerprints.get(domain) ?? domain.generate.toString();
}

/**
 * A hash of the names and bytes of the source files below a folder (tests excluded), in a stable order.
 * `node_modules` and dot-folders (`.git`, `.cache`) are skipped: a user's suite folder may hold installed
 * dependencies, which are not its sources.
 */
export function fingerprintFolder(folder: string): string {
  const hash = createHash("sha256");
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(path);
      } else if (/\.(ts|js|mjs|json|md|csv|txt)$/.test(entry.name) && !/\.test\./.test(entry.name))
        hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(folder);
  return hash.digest("hex");
}

function fingerprintCallerFolder(): string | undefined {
  const stack = new Error().stack ?? "";
  const self = fileURLToPath(import.meta.url);
  for (const line of stack.split("\n").slice(1)) {
    const match = /\((.*?):\d+:\d+\)$/.exec(line.trim()) ?? /at (.*?):\d+:\d+$/.exec(line.trim());
    let file = match?.[1];
    if (!file) continue;
    if (file.startsWith("file://")) file = fileURLToPath(file);
    if (file === self || !isAbsolute(file)) continue;
    try {
      return fingerprintFolder(dirname(file));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

let kitFingerprint: string | undefined;

/**
 * A hash of the domain kit's sources (`envs/kit`). Generators build on the kit from outside their own
 * folder, so it enters every instance key: an edit to the kit rebuilds cached instances.
 */
export function kitSourceFingerprint(): string {
  kitFingerprint ??= fingerprintFolder(join(dirname(fileURLToPath(import.meta.url)), "kit"));
  return kitFingerprint;
}

export function defineDomain(definition: DomainDefinition): DomainDefinition {
  const fingerprint = fingerprintCallerFolder();
  if (fingerprint) sourceFingerprints.set(definition, fingerprint);
  if (!/^[a-z][a-z0-9_]*$/.test(definition.id))
    throw new Error(`domain id '${definition.id}' must be snake_case`);
  const names = new Set<string>();
  for (const tool of definition.tools) {
    if (names.has(tool.name)) throw new Error(`domain '${definition.id}' defines tool '${tool.name}' twice`);
    names.add(tool.name);
  }
  return definition;
}
