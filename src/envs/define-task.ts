import type Database from "better-sqlite3";
import type { DomainDefinition, GenerateContext } from "./define-domain.js";

/** A read-only view of one environment state (initial or final). */
export interface StateView {
  db: Database.Database;
  workspaceDir: string;
  /** Reads a workspace file as UTF-8; null when it does not exist. */
  readFile(relativePath: string): string | null;
  /** Every workspace file, relative paths, sorted. */
  listFiles(): string[];
}

export interface VerifyContext {
  initial: StateView;
  final: StateView;
  /** The text the agent gave to claim_done. */
  answer: string;
  scale: string;
  seed: number;
}

export interface Check {
  id: string;
  passed: boolean;
  message: string;
}

export interface Verdict {
  reward: 0 | 1;
  checks: Check[];
  error?: string;
}

/** A known-wrong solution the verifier must reject (skip a write, ignore a constraint, off-by-one...). */
export interface NearMiss {
  id: string;
  description: string;
  cells: string[];
}

/**
 * A task: a domain plus an instruction (identical at every scale), the tools it exposes, a verifier
 * computing its expectations from the generated data, an oracle and near-miss solutions.
 *
 * Oracle and near-miss programs are PTC cells run in the real kernel; the answer given to claim_done is the
 * whole printed output of the last cell, trimmed.
 */
export interface TaskDefinition {
  /** `<domain>.<slug>` */
  id: string;
  domain: DomainDefinition;
  summary: string;
  instruction: string;
  /** Names of domain tools this task exposes (the workspace file tools are always added). */
  tools: string[];
  /** Whether the agent may write workspace files (adds the `write_file` tool). */
  workspaceWrite?: boolean;
  /** Task-specific data planted after the domain generator ran (same seed, same scale). */
  prepare?(context: GenerateContext): void;
  verify(context: VerifyContext): Check[] | Promise<Check[]>;
  oracle: string[];
  nearMisses: NearMiss[];
}

export function defineTask(definition: TaskDefinition): TaskDefinition {
  if (!definition.id.startsWith(`${definition.domain.id}.`)) {
    throw new Error(`task id '${definition.id}' must start with its domain id '${definition.domain.id}.'`);
  }
  const known = new Set(definition.domain.tools.map((tool) => tool.name));
  for (const name of definition.tools) {
    if (!known.has(name)) throw new Error(`task '${definition.id}' exposes unknown tool '${name}'`);
  }
  if (definition.oracle.length === 0) throw new Error(`task '${definition.id}' has no oracle cells`);
  if (definition.nearMisses.length === 0)
    throw new Error(`task '${definition.id}' needs at least one near-miss`);
  return definition;
}
