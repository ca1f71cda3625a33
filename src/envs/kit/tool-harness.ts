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
 * A domain's tools over one built instance, for the domain's own tests. The instance is built into a
 * temporary cache and stays immutable; the tools write to a private copy of its database, as an episode does.
 */
export interface ToolHarness {
  instance: Instance;
  /** The episode database the tools read and write (the private copy). */
  db: Database.Database;
  call(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  /** The structured result of a call that must succeed; throws with the error content otherwise. */
  value(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Closes the database and removes the temporary cache. */
  dispose(): void;
}

/** Builds `task` at `scale` and `seed` (default v0, seed 3) and binds `tools` to a private copy of it. */
export function openToolHarness(
  task: TaskDefinition,
  tools: readonly DomainTool[],
  options: { scale?: Scale; seed?: number } = {},
): ToolHarness {
  const cache = createTempDir(`${task.domain.id}-test`);
  const instance = buildInstance(task, options.scale ?? "v0", options.seed ?? 3, cache.path);
  const episodeDb = join(cache.path, "episode.sqlite");
  copyFileSync(instance.dbPath, episodeDb);
  const db = new Database(episodeDb);
  const call = (name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> => {
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    const signal = AbortSignal.timeout(5_000);
    return Promise.resolve(
      bindTool(tool, { db, workspaceDir: instance.workspaceDir }).call(args, { signal, timeoutMs: 5_000 }),
    );
  };
  const value = async (
    name: string,
    args: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> => {
    const result = await call(name, args);
    if (result.isError) throw new Error(JSON.stringify(result.content));
    return result.structuredContent as Record<string, unknown>;
  };
  const dispose = (): void => {
    db.close();
    cache.dispose();
  };
  return { instance, db, call, value, dispose };
}

/** The text a tool result shows the model (its text parts joined). */
export function resultText(result: ToolCallResult): string {
  return result.content.map((part) => ("text" in part ? part.text : "")).join("");
}
