/**
 * A bench for a domain's tool tests: one instance of a task built into a temporary cache and a private copy of
 * its database (the instance stays immutable, as in an episode), with the domain's tools bound to it.
 */
import Database from "better-sqlite3";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir } from "../../core/index.js";
import { bindTool, resultText, type ToolCallResult } from "../../runtime/index.js";
import type { DomainTool } from "../define-domain.js";
import type { TaskDefinition } from "../define-task.js";
import { buildInstance, type Instance } from "../instance.js";
import type { Scale } from "../scale.js";

/** What `openToolBench` gives a test: the instance, the episode's database and the tools bound to both. */
export interface ToolBench {
  /** The temporary cache folder; build further instances into it. */
  readonly dir: string;
  readonly instance: Instance;
  /** The private copy of the instance's database that the tools read and write. */
  readonly db: Database.Database;
  /** Calls a tool by name as an episode does (5 s timeout) and returns its result, errors included. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  /** The structured result of a call that must succeed; throws with the error text when it fails. */
  value(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The text of a result that must be an error; throws when the call succeeded. */
  errorText(result: ToolCallResult): string;
  /** Closes the database and removes the cache folder. */
  close(): void;
}

/**
 * Builds `task` at `scale` and `seed` (default v0, seed 3) into a fresh temporary folder and binds `tools` to a
 * private copy of its database. Open it in `beforeAll` and close it in `afterAll`.
 *
 * @example
 * let bench: ToolBench;
 * beforeAll(() => (bench = openToolBench(billingTasks[0]!, billingTools)));
 * afterAll(() => bench.close());
 */
export function openToolBench(
  task: TaskDefinition,
  tools: readonly DomainTool[],
  options: { scale?: Scale; seed?: number } = {},
): ToolBench {
  const cache = createTempDir(`${task.domain.id}-test`);
  const instance = buildInstance(task, options.scale ?? "v0", options.seed ?? 3, cache.path);
  const episodeDb = join(cache.path, "episode.sqlite");
  copyFileSync(instance.dbPath, episodeDb);
  const db = new Database(episodeDb);
  const call = (name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> => {
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return bindTool(tool, { db, workspaceDir: instance.workspaceDir }).call(args, {
      signal: AbortSignal.timeout(5_000),
      timeoutMs: 5_000,
    });
  };
  return {
    dir: cache.path,
    instance,
    db,
    call,
    async value(name, args = {}) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${resultText(result)}`);
      return result.structuredContent as Record<string, unknown>;
    },
    errorText(result) {
      if (!result.isError) throw new Error(`expected an error, got ${resultText(result).slice(0, 200)}`);
      return resultText(result);
    },
    close() {
      db.close();
      cache.dispose();
    },
  };
}
