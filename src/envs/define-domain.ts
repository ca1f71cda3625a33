import type { Faker } from "@faker-js/faker";
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
  /** Writes a workspace file (relative path, directories created). */
  writeFile(relativePath: string, content: string): void;
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

export function defineDomain(definition: DomainDefinition): DomainDefinition {
  if (!/^[a-z][a-z0-9_]*$/.test(definition.id))
    throw new Error(`domain id '${definition.id}' must be snake_case`);
  const names = new Set<string>();
  for (const tool of definition.tools) {
    if (names.has(tool.name)) throw new Error(`domain '${definition.id}' defines tool '${tool.name}' twice`);
    names.add(tool.name);
  }
  return definition;
}
