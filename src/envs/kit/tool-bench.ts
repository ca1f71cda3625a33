/**
 * A bench for a domain's tool tests: one instance of a task built into a temporary cache and a private copy of
 * its database (the instance stays immutable, as in an episode), with the domain's tools bound to it.
 */
import Database from "better-sqlite3";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir } from "../../core/index.js";
import { bindTool, resultText, type ToolCallResult } from "../../runtime/index.js";
import type { DomainTool, ToolContext } from "../define-domain.js";
import type { StateView, TaskDefinition } from "../define-task.js";
import { buildInstance, openStateView, type Instance } from "../instance.js";
import type { Scale } from "../scale.js";
import { tableContent, tableNames } from "../verify-helpers.js";
import { listWorkspaceFiles } from "../workspace-tools.js";

/** What `openToolBench` gives a test: the instance, the episode's database and the tools bound to both. */
export interface ToolBench {
  /** The temporary cache folder; build further instances into it. */
  readonly dir: string;
  readonly instance: Instance;
  /** The private copy of the instance's database that the tools read and write (a new one after `reset`). */
  readonly db: Database.Database;
  /** The bench's episode as a verifier sees it: its database (read-only) and workspace, opened afresh. */
  view(): StateView;
  /** Starts a new episode: a fresh private copy of the instance's database (the old one is closed). */
  reset(): Database.Database;
  /**
   * Another instance built into the bench's folder (once per task, scale and seed) with a read-only view of its
   * initial state; the bench closes both.
   */
  build(options?: { task?: TaskDefinition; scale?: Scale; seed?: number }): {
    instance: Instance;
    view: StateView;
  };
  /** Calls a tool by name as an episode does (5 s timeout) and returns its result, errors included. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  /** A call's outcome as tests assert on it: error flag, text and structured result (`{}` when none). */
  reply(name: string, args?: Record<string, unknown>): Promise<ToolReply>;
  /** The structured result of a call that must succeed; throws with the error text when it fails. */
  value(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The text of a result that must be an error; throws when the call succeeded. */
  errorText(result: ToolCallResult): string;
  /**
   * The bench's task built again, into a new folder (never the cache), at the bench's scale and seed unless
   * given: a generator is deterministic when `instanceContents` of the two are equal.
   */
  rebuild(options?: { scale?: Scale; seed?: number }): Instance;
  /** Closes the database and removes the cache folder. */
  close(): void;
  /** `close()`, for `using bench = openToolBench(...)` inside one test. */
  [Symbol.dispose](): void;
}

/** What `ToolBench.reply` gives: whether the call failed, its text and its structured result. */
export interface ToolReply {
  error: boolean;
  text: string;
  body: Record<string, unknown>;
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
  const closers: Array<() => void> = [];
  const built = new Map<string, { instance: Instance; view: StateView }>();
  let episodes = 0;
  let rebuilds = 0;
  const freshCopy = (): Database.Database => {
    const path = join(cache.path, `episode-${(episodes += 1)}.sqlite`);
    copyFileSync(instance.dbPath, path);
    return new Database(path);
  };
  let db = freshCopy();
  const close = (): void => {
    for (const closeOne of closers.splice(0)) closeOne();
    db.close();
    cache.dispose();
  };
  const call = (name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> =>
    callTool(tools, { db, workspaceDir: instance.workspaceDir }, name, args);
  return {
    dir: cache.path,
    instance,
    get db() {
      return db;
    },
    view() {
      const opened = openStateView(db.name, instance.workspaceDir);
      closers.push(() => opened.close());
      return opened.view;
    },
    reset() {
      db.close();
      db = freshCopy();
      return db;
    },
    build(wanted = {}) {
      const key = `${(wanted.task ?? task).id}/${wanted.scale ?? "v0"}/${wanted.seed ?? 3}`;
      let entry = built.get(key);
      if (entry === undefined) {
        const other = buildInstance(wanted.task ?? task, wanted.scale ?? "v0", wanted.seed ?? 3, cache.path);
        const opened = openStateView(other.dbPath, other.workspaceDir);
        closers.push(() => opened.close());
        entry = { instance: other, view: opened.view };
        built.set(key, entry);
      }
      return entry;
    },
    call,
    rebuild(wanted = {}) {
      const dir = join(cache.path, `rebuild-${(rebuilds += 1)}`);
      return buildInstance(
        task,
        wanted.scale ?? options.scale ?? "v0",
        wanted.seed ?? options.seed ?? 3,
        dir,
      );
    },
    async reply(name, args = {}) {
      const result = await call(name, args);
      return {
        error: result.isError === true,
        text: resultText(result),
        body: result.structuredContent ?? {},
      };
    },
    async value(name, args = {}) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${resultText(result)}`);
      return result.structuredContent as Record<string, unknown>;
    },
    errorText(result) {
      if (!result.isError) throw new Error(`expected an error, got ${resultText(result).slice(0, 200)}`);
      return resultText(result);
    },
    close,
    [Symbol.dispose]: close,
  };
}

/**
 * Calls the tool `name` of `tools` bound to `context` as an episode does (5 s timeout), for tests that build
 * their own context (e.g. an in-memory database). Throws when no tool has that name.
 */
export async function callTool(
  tools: readonly DomainTool[],
  context: ToolContext,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolCallResult> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool)
    throw new Error(`no tool ${name}; the tools are ${tools.map((candidate) => candidate.name).join(", ")}`);
  return bindTool(tool, context).call(args, { signal: AbortSignal.timeout(5_000), timeoutMs: 5_000 });
}

/** What an instance holds, to compare two builds: every table's rows (canonical JSON) and every workspace file's text. */
export interface InstanceContents {
  tables: Record<string, string>;
  files: Record<string, string>;
}

/** The contents of a built instance: `expect(instanceContents(bench.rebuild())).toEqual(instanceContents(bench.instance))`. */
export function instanceContents(instance: Instance): InstanceContents {
  const db = new Database(instance.dbPath, { readonly: true, fileMustExist: true });
  try {
    const tables = Object.fromEntries(tableNames(db).map((table) => [table, tableContent(db, table)]));
    const files = Object.fromEntries(
      listWorkspaceFiles(instance.workspaceDir).map((file) => [
        file,
        readFileSync(join(instance.workspaceDir, file), "utf8"),
      ]),
    );
    return { tables, files };
  } finally {
    db.close();
  }
}
