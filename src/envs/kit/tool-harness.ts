import Database from "better-sqlite3";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir } from "../../core/index.js";
import { bindTool, type ToolCallResult } from "../../runtime/index.js";
import type { DomainTool } from "../define-domain.js";
import type { TaskDefinition } from "../define-task.js";
import { buildInstance, type Instance } from "../instance.js";
import type { Scale } from "../scale.js";

/**
 * A task's instance with the domain's tools bound to a private copy of its database, as an episode sees
 * them: what a domain's tool tests open before their cases and close after them.
 */
export interface ToolHarness {
  instance: Instance;
  /** The episode's copy of the database; the cached instance stays untouched. */
  db: Database.Database;
  /** Calls a tool by name as the model does (5-second timeout). */
  call(name: string, args: Record<string, unknown>): Promise<ToolCallResult>;
  /** Calls a tool that must succeed; its structured result. */
  value(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The text of a result that must be an error. */
  errorText(result: ToolCallResult): string;
  /** Closes the database and removes the instance's temporary folder. */
  close(): void;
}

export function openToolHarness(
  task: TaskDefinition,
  tools: readonly DomainTool[],
  scale: Scale,
  seed: number,
): ToolHarness {
  const cache = createTempDir("tool-harness");
  const instance = buildInstance(task, scale, seed, cache.path);
  const episodeDb = join(cache.path, "episode.sqlite");
  copyFileSync(instance.dbPath, episodeDb);
  const db = new Database(episodeDb);
  const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => {
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return bindTool(tool, { db, workspaceDir: instance.workspaceDir }).call(args, {
      signal: AbortSignal.timeout(5_000),
      timeoutMs: 5_000,
    });
  };
  return {
    instance,
    db,
    call,
    value: async (name, args) => {
      const result = await call(name, args);
      if (result.isError) throw new Error(JSON.stringify(result.content));
      return result.structuredContent as Record<string, unknown>;
    },
    errorText: (result) => {
      const text = result.content.map((part) => ("text" in part ? part.text : "")).join("");
      if (!result.isError) throw new Error(`expected an error, got ${text.slice(0, 200)}`);
      return text;
    },
    close: () => {
      db.close();
      cache.dispose();
    },
  };
}
