import { ERROR_CODES, ProgAgentError, createLogger, globToRegExp } from "../core/index.js";
import { resolve } from "node:path";
import type { Task } from "../envs/index.js";
import type { LoadedSuite } from "../suite/index.js";

/** What `--suite` (repeatable) and `--no-builtin` give a command. */
export interface SuiteSelection {
  /** Paths or package names of users' suites, in the order given. */
  suites?: readonly string[];
  /** Whether the built-in suite is included (default true; `--no-builtin` sets false). */
  builtin?: boolean;
  /** Where relative suite paths and package names resolve from (default: the working directory). */
  cwd?: string;
}

/** The name shown for the built-in suite's tasks. */
export const BUILTIN_SUITE_NAME = "builtin";

const loadedSuites = new Map<string, Promise<SelectedSuite>>();

/** A suite as `--suite` gives it: a user's suite, or an external benchmark's checkout (`loca-bench:<dir>`). */
type SelectedSuite = Pick<LoadedSuite, "name" | "entryPath"> & { tasks: Task[] };

/** An external benchmark named by its prefix: its tasks come from the benchmark's own checkout. */
async function loadExternalSuite(spec: string, cwd: string): Promise<SelectedSuite> {
  const [{ LOCA_SUITE_PREFIX, loadLocaBench }, { markSuiteTasks }] = await Promise.all([
    import("../benchmarks/loca-bench/index.js"),
    import("../suite/index.js"),
  ]);
  const dir = spec.slice(LOCA_SUITE_PREFIX.length);
  if (dir.trim() === "")
    throw new ProgAgentError(`--suite ${spec}: expected loca-bench:<folder of a LOCA-bench checkout>`, {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  const loaded = await loadLocaBench(resolve(cwd, dir));
  markSuiteTasks(loaded.name, loaded.tasks);
  return { name: loaded.name, entryPath: loaded.root, tasks: loaded.tasks };
}

/** Loads a user's suite once per process (a long-lived `rollout serve` asks for tasks per episode). */
async function loadSuiteOnce(spec: string, cwd: string): Promise<SelectedSuite> {
  const { loadUserSuite } = await import("../suite/index.js");
  const key = `${cwd}\0${spec}`;
  let loading = loadedSuites.get(key);
  if (!loading) {
    loading = spec.startsWith("loca-bench:") ? loadExternalSuite(spec, cwd) : loadUserSuite(spec, { cwd });
    loadedSuites.set(key, loading);
    loading.catch(() => loadedSuites.delete(key));
  }
  return loading;
}

/**
 * The tasks a command works on: the built-in suite's (unless `builtin` is false) and those of each user's
 * suite, filtered by a task id glob. Every command that takes tasks calls this once. A broken suite, a task
 * id two suites share, or a glob that matches nothing is one clear error.
 */
export async function loadTasks(glob: string, selection: SuiteSelection = {}): Promise<Task[]> {
  const { combineSuites, loadSuite } = await import("../suite/index.js");
  const cwd = selection.cwd ?? process.cwd();
  const builtin = selection.builtin !== false;
  const specs = selection.suites ?? [];
  assertSomeSuite(selection);
  const sources: Array<{ name: string; tasks: Task[] }> = [];
  if (builtin) {
    try {
      sources.push({ name: BUILTIN_SUITE_NAME, tasks: await loadSuite(glob) });
    } catch (error) {
      // A glob may match only a user's tasks; "nothing matched" is decided below, over every suite.
      if (!isNothingMatched(error) || specs.length === 0) throw error;
    }
  }
  const matcher = globToRegExp(glob);
  sources.push(...(await loadUserSources(specs, cwd, (task) => matcher.test(task.id))));
  const tasks = combineSuites(sources);
  if (tasks.length === 0) throw noTaskMatches(glob, builtin, specs);
  return tasks;
}

function assertSomeSuite(selection: SuiteSelection): void {
  if (selection.builtin === false && (selection.suites ?? []).length === 0)
    throw new ProgAgentError("--no-builtin leaves no tasks: add --suite <path|package>", {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
}

/** Each user's suite once, with its tasks `selected` keeps, in the order given. */
async function loadUserSources(
  specs: readonly string[],
  cwd: string,
  selected: (task: Task) => boolean,
): Promise<Array<{ name: string; tasks: Task[] }>> {
  const sources: Array<{ name: string; tasks: Task[] }> = [];
  const entries = new Set<string>();
  for (const spec of specs) {
    const suite = await loadSuiteOnce(spec, cwd);
    // The same suite named twice (`--suite ./a --suite a/index.ts`) is loaded once, not a conflict with itself.
    if (entries.has(suite.entryPath)) continue;
    entries.add(suite.entryPath);
    if (suite.name === BUILTIN_SUITE_NAME)
      throw new ProgAgentError(
        `suite '${spec}' (${suite.entryPath}) is named '${BUILTIN_SUITE_NAME}', the built-in suite's name: rename it`,
        { code: ERROR_CODES.SUITE_INVALID, category: "user", details: { spec } },
      );
    sources.push({ name: suite.name, tasks: suite.tasks.filter(selected) });
  }
  return sources;
}

function noTaskMatches(glob: string, builtin: boolean, specs: readonly string[]): ProgAgentError {
  return new ProgAgentError(
    `no task matches '${glob}' in ${[...(builtin ? ["the built-in suite"] : []), ...specs.map((spec) => `suite '${spec}'`)].join(", ")}; 'progagent tasks list' shows the task ids`,
    { code: ERROR_CODES.TASK_NOT_FOUND, category: "user" },
  );
}

/** Whether an error is the built-in suite's "no task matches" (a glob may match only a user's tasks). */
function isNothingMatched(error: unknown): boolean {
  return (
    error instanceof ProgAgentError && error.code === ERROR_CODES.TASK_NOT_FOUND && error.category === "user"
  );
}

/**
 * The task with exactly this id, or undefined. The id is never read as a glob: a client's string (a rollout
 * service's `task`) must not reach a backtracking regex, and only the one built-in domain the id names is loaded.
 */
export async function findTaskById(id: string, selection: SuiteSelection = {}): Promise<Task | undefined> {
  const { combineSuites, loadBuiltinDomainTasks, SUITE_DOMAINS } = await import("../suite/index.js");
  const sources: Array<{ name: string; tasks: Task[] }> = [];
  const domain = SUITE_DOMAINS.find((name) => id.startsWith(`${name}.`));
  if (selection.builtin !== false && domain !== undefined)
    sources.push({
      name: BUILTIN_SUITE_NAME,
      tasks: (await loadBuiltinDomainTasks(domain)).filter((task) => task.id === id),
    });
  const cwd = selection.cwd ?? process.cwd();
  sources.push(...(await loadUserSources(selection.suites ?? [], cwd, (task) => task.id === id)));
  return combineSuites(sources)[0];
}

/** Exactly one task by id (`tasks show`, `env serve`), or an error saying where it was looked for. */
export async function loadTaskById(id: string, selection: SuiteSelection = {}): Promise<Task> {
  assertSomeSuite(selection);
  const task = await findTaskById(id, selection);
  if (!task)
    throw new ProgAgentError(
      `unknown task '${id}'; 'progagent tasks list${(selection.suites ?? []).map((spec) => ` --suite ${spec}`).join("")}' shows the task ids`,
      { code: ERROR_CODES.TASK_NOT_FOUND, category: "user", details: { task: id } },
    );
  return task;
}

/** What `tasks list` shows of a task. */
export interface TaskListing {
  id: string;
  /** The suite's name (`builtin` for the built-in suite). */
  suite: string;
  /** The id of the task's domain. */
  domain: string;
  /** Names of the domain tools the task exposes. */
  tools: string[];
  summary: string;
  instruction: string;
}

/**
 * The listing of the tasks {@link loadTasks} gives for the same glob and selection, in the same order. The
 * built-in suite alone is listed from its manifest (src/suite/manifest.ts) when the manifest matches the sources
 * it was generated from; otherwise, and whenever a user's suite is selected, the definitions are imported.
 * `PROGAGENT_LOG_LEVEL=debug` says which.
 */
export async function listTasks(glob: string, selection: SuiteSelection = {}): Promise<TaskListing[]> {
  if (selection.builtin !== false) {
    const listed = await listWithManifest(glob, selection);
    if (listed) return listed;
  }
  const { suiteNameOf } = await import("../suite/index.js");
  return (await loadTasks(glob, selection)).map((task) => listingOf(task, suiteNameOf));
}

/** What `tasks list` shows of a loaded task. */
function listingOf(task: Task, suiteNameOf: (task: Task) => string | undefined): TaskListing {
  return {
    id: task.id,
    suite: suiteNameOf(task) ?? BUILTIN_SUITE_NAME,
    domain: task.domain.id,
    // An external task's tools are its servers' and known only once they run (`tasks show` starts them).
    tools: "tools" in task ? task.tools : [],
    summary: task.summary,
    instruction: task.instruction,
  };
}

/**
 * The listing with the built-in suite's part from its manifest and only the users' suites imported, or
 * undefined when that cannot give what importing gives: a stale manifest, or a user's task in a domain of a
 * listed built-in task (only the definitions tell whether it is that domain, built on with
 * `loadBuiltinDomain`, or a different one with the same id, which `combineSuites` refuses).
 */
async function listWithManifest(glob: string, selection: SuiteSelection): Promise<TaskListing[] | undefined> {
  const logger = createLogger();
  const { readSuiteManifest, selectManifestTasks } = await import("../suite/manifest.js");
  const found = readSuiteManifest();
  if (found.state !== "fresh") {
    logger.debug(`tasks: suite manifest ${found.state} (${found.reason}); importing the task definitions`);
    return undefined;
  }
  const specs = selection.suites ?? [];
  const builtin: TaskListing[] = [];
  try {
    for (const task of selectManifestTasks(found.manifest, glob))
      builtin.push({
        id: task.id,
        suite: BUILTIN_SUITE_NAME,
        domain: task.domain,
        tools: task.tools,
        summary: task.summary,
        instruction: task.instruction,
      });
  } catch (error) {
    if (!isNothingMatched(error) || specs.length === 0) throw error;
  }
  logger.debug(`tasks: built-in tasks listed from the suite manifest ${found.path}`);
  if (specs.length === 0) return builtin;
  const { combineSuites, suiteNameOf } = await import("../suite/index.js");
  const matcher = globToRegExp(glob);
  const users = await loadUserSources(specs, selection.cwd ?? process.cwd(), (task) => matcher.test(task.id));
  const builtinDomains = new Set(builtin.map((task) => task.domain));
  if (users.some((source) => source.tasks.some((task) => builtinDomains.has(task.domain.id)))) {
    logger.debug("tasks: a user's task is in a built-in domain; importing the built-in definitions");
    return undefined;
  }
  // The checks loadTasks makes, the built-in tasks first (known by id from the manifest).
  const combined = combineSuites(users, new Map(builtin.map((task) => [task.id, BUILTIN_SUITE_NAME])));
  const listed = [...builtin, ...combined.map((task) => listingOf(task, suiteNameOf))];
  if (listed.length === 0) throw noTaskMatches(glob, true, specs);
  return listed;
}
