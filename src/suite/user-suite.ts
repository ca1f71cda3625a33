import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { register as registerHooks } from "node:module";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ERROR_CODES, ProgAgentError, errorMessage, type JsonValue } from "../core/index.js";
import {
  defineSuite,
  defineTask,
  fingerprintFolder,
  setTaskSourceFingerprint,
  type DomainDefinition,
  type SuiteDefinition,
  type ExternalDomain,
  type Task,
  type TaskDefinition,
} from "../envs/index.js";

/** A user's suite as loaded: its definition plus where it came from. */
export interface LoadedSuite extends SuiteDefinition {
  /** What the user passed to `--suite` (a path or a package name). */
  spec: string;
  /** The folder whose sources the suite's instances are keyed on (the folder, package or entry's folder). */
  root: string;
  /** The module that was imported. */
  entryPath: string;
}

export interface LoadUserSuiteOptions {
  /** Where relative paths and package names are resolved from (default: the working directory). */
  cwd?: string;
}

/** File names tried, in order, when a suite is a folder without a package.json entry. */
export const SUITE_INDEX_FILES = ["index.ts", "index.mts", "index.js", "index.mjs"] as const;

const NPM_PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

const suiteOfTask = new WeakMap<Task, string>();

/** The name of the user's suite a task was loaded from; undefined for the built-in tasks. */
export function suiteNameOf(task: Task): string | undefined {
  return suiteOfTask.get(task);
}

/** Records which suite tasks come from (an external suite's loader; `loadUserSuite` does it for its own). */
export function markSuiteTasks(name: string, tasks: readonly Task[]): void {
  for (const task of tasks) suiteOfTask.set(task, name);
}

function suiteError(
  code: string,
  message: string,
  details: Record<string, JsonValue>,
  cause?: unknown,
): ProgAgentError {
  return new ProgAgentError(message, {
    code,
    category: "user",
    details,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The folder of an installed package, searched in `node_modules` from `cwd` upwards, as Node does. */
function findInstalledPackage(name: string, cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/** The module a package.json names for `import`: `exports["."]` (string or import/default condition), else `main`. */
function packageEntry(folder: string): string | undefined {
  const manifestPath = join(folder, "package.json");
  if (!existsSync(manifestPath)) return undefined;
  let manifest: { exports?: unknown; main?: unknown };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as typeof manifest;
  } catch (error) {
    throw suiteError(
      ERROR_CODES.SUITE_INVALID,
      `cannot read ${manifestPath}: ${errorMessage(error)}`,
      { path: manifestPath },
      error,
    );
  }
  const pick = (value: unknown): string | undefined => {
    if (typeof value === "string") return value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const record = value as Record<string, unknown>;
    if ("." in record) return pick(record["."]);
    return pick(record.import) ?? pick(record.node) ?? pick(record.default);
  };
  const entry = pick(manifest.exports) ?? (typeof manifest.main === "string" ? manifest.main : undefined);
  return entry === undefined ? undefined : resolve(folder, entry);
}

function folderEntry(folder: string, spec: string): string {
  const fromManifest = packageEntry(folder);
  if (fromManifest !== undefined) {
    if (!existsSync(fromManifest))
      throw suiteError(
        ERROR_CODES.SUITE_NOT_FOUND,
        `suite '${spec}': its package.json names ${fromManifest}, which does not exist (build the package, or point "exports"/"main" at its index)`,
        { spec, entryPath: fromManifest },
      );
    return fromManifest;
  }
  for (const name of SUITE_INDEX_FILES) {
    const candidate = join(folder, name);
    if (existsSync(candidate)) return candidate;
  }
  throw suiteError(
    ERROR_CODES.SUITE_NOT_FOUND,
    `suite '${spec}': the folder ${folder} has no ${SUITE_INDEX_FILES.join(", ")} and no package.json "exports"/"main" (progagent init-suite <dir> writes a working one)`,
    { spec, folder },
  );
}

/**
 * Where a `--suite` spec points: a folder (its package.json entry or index file), a module file, or the name
 * of an installed npm package. Paths are tried first, so `./my-suite` and `my-suite` (an existing folder)
 * both work; a name that is no path is looked up in `node_modules` from `cwd` upwards.
 */
export function resolveSuiteEntry(spec: string, cwd = process.cwd()): { root: string; entryPath: string } {
  if (typeof spec !== "string" || spec.trim() === "")
    throw suiteError(
      ERROR_CODES.INVALID_ARGUMENT,
      "--suite expects a folder, a module file or a package name",
      {
        spec: String(spec),
      },
    );
  const path = resolve(cwd, spec);
  if (existsSync(path)) {
    const real = realpathSync(path);
    if (statSync(real).isDirectory()) return { root: real, entryPath: folderEntry(real, spec) };
    return { root: dirname(real), entryPath: real };
  }
  const looksLikePath =
    spec.startsWith(".") || isAbsolute(spec) || (spec.includes(sep) && !spec.startsWith("@"));
  if (!looksLikePath && NPM_PACKAGE_NAME.test(spec)) {
    const folder = findInstalledPackage(spec, cwd);
    if (folder) return { root: folder, entryPath: folderEntry(folder, spec) };
    throw suiteError(
      ERROR_CODES.SUITE_NOT_FOUND,
      `suite '${spec}': no such folder or file, and no package '${spec}' is installed in node_modules from ${resolve(cwd)} upwards (npm install ${spec}, or give a path)`,
      { spec, cwd: resolve(cwd) },
    );
  }
  throw suiteError(
    ERROR_CODES.SUITE_NOT_FOUND,
    `suite '${spec}': ${path} does not exist (expected a suite folder, a module file or an installed package name)`,
    { spec, path },
  );
}

/**
 * Resolve hooks for suite modules, registered once per process:
 * - `progagent` resolves to the running progagent's own entry, so a suite's `defineDomain` is the very
 *   function the runner uses (and the suite folder needs no node_modules);
 * - any other bare specifier a suite cannot resolve from its own folder (`zod`) is resolved from the
 *   running progagent's dependencies, so a suite uses the same zod the tools are rendered with.
 * Written as a data: module, so the published package needs no extra file for it.
 */
const RESOLVE_HOOKS_SOURCE = `
let entryUrl = "";
let packageUrl = "";
let entryThroughSuiteLoader = false;
export async function initialize(data) {
  entryUrl = data.entryUrl;
  packageUrl = data.packageUrl;
  entryThroughSuiteLoader = data.entryThroughSuiteLoader;
}
const bare = (specifier) => !/^(\\.|\\/|[a-zA-Z][a-zA-Z0-9+.-]*:)/.test(specifier);
export async function resolve(specifier, context, nextResolve) {
  // Resolved as if imported from progagent itself, so the module is the running one (never a namespaced copy),
  // unless nothing else in the process can load TypeScript sources.
  if (specifier === "progagent") {
    if (!entryThroughSuiteLoader || !context.parentURL)
      return nextResolve(entryUrl, { ...context, parentURL: packageUrl + "package.json" });
    // A relative import from the (namespaced) suite module, so the suite's tsx loads it like its own files.
    const from = new URL(context.parentURL).pathname.split("/").slice(0, -1);
    const to = new URL(entryUrl).pathname.split("/");
    let common = 0;
    while (common < from.length && from[common] === to[common]) common += 1;
    const relative = [...from.slice(common).map(() => ".."), ...to.slice(common)].join("/");
    return nextResolve(relative.startsWith(".") ? relative : "./" + relative, context);
  }
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const parent = context.parentURL ?? "";
    if (!bare(specifier) || parent.startsWith(packageUrl) || error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    return nextResolve(specifier, { ...context, parentURL: packageUrl + "package.json" });
  }
}
`;

type ScopedImport = (specifier: string, parentUrl: string) => Promise<unknown>;
let scopedImport: Promise<ScopedImport> | undefined;

/** The running progagent's public entry: `src/index.ts` from a clone, `dist/index.js` when installed. */
function runningEntryUrl(): URL {
  return new URL(import.meta.url.endsWith(".ts") ? "../index.ts" : "../index.js", import.meta.url);
}

/** Whether this process already loads TypeScript through a global tsx. */
function globalTsxLoaded(): boolean {
  if ((globalThis as Record<symbol, unknown>)[Symbol.for("progagent.tsx")] === true) return true;
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((option) => /\btsx\b/.test(option));
}

/** Registers tsx (namespaced, so it never doubles a tsx the process already runs under) and the hooks. */
async function suiteImporter(): Promise<ScopedImport> {
  scopedImport ??= (async () => {
    const entryUrl = runningEntryUrl();
    // Sources (a clone) normally run under a global tsx (bin/progagent.js marks the one it registers; the tsx
    // CLI and `node --import tsx` show in the process's options); without one (a test runner with its own
    // module loader) the running entry can only be loaded through the suite's tsx, as a copy.
    const entryThroughSuiteLoader = entryUrl.pathname.endsWith(".ts") && !globalTsxLoaded();
    const { register } = await import("tsx/esm/api");
    const tsx = register({ namespace: "progagent-suite" });
    registerHooks(`data:text/javascript,${encodeURIComponent(RESOLVE_HOOKS_SOURCE)}`, {
      data: { entryUrl: entryUrl.href, packageUrl: new URL("..", entryUrl).href, entryThroughSuiteLoader },
    });
    return tsx.import;
  })();
  return scopedImport;
}

/**
 * Suites are ES modules (top-level await, `import` of the running progagent): a `.ts`/`.js` entry needs a
 * package.json with `"type": "module"` in its folder or above (`.mts`/`.mjs` are ES modules anywhere).
 * Without it Node and tsx would load it as CommonJS, where neither works.
 */
function moduleFormatProblem(entryPath: string): string | undefined {
  if (/\.m[tj]s$/.test(entryPath)) return undefined;
  for (let dir = dirname(entryPath); ; dir = dirname(dir)) {
    const manifestPath = join(dir, "package.json");
    if (existsSync(manifestPath)) {
      let type: unknown;
      try {
        type = (JSON.parse(readFileSync(manifestPath, "utf8")) as { type?: unknown }).type;
      } catch (error) {
        return `cannot read ${manifestPath}: ${errorMessage(error)}`;
      }
      return type === "module"
        ? undefined
        : `suite modules are ES modules, but ${manifestPath} does not say "type": "module" (add it, or name the files .mts/.mjs)`;
    }
    if (dirname(dir) === dir)
      return `suite modules are ES modules: add a package.json with {"type": "module"} to ${dirname(entryPath)} (progagent init-suite writes one), or name the files .mts/.mjs`;
  }
}

/** The first frame of an error's stack inside the suite's folder: `domain.ts:12:7`. */
function locateInSuite(error: unknown, root: string): string | undefined {
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  for (const line of stack.split("\n").slice(1)) {
    const match = /\(?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?$/.exec(line.trim());
    if (!match) continue;
    const file = match[1]!.startsWith("file://") ? fileURLToPath(match[1]!.split("?")[0]!) : match[1]!;
    const inside = relative(root, file);
    if (!inside.startsWith("..") && !isAbsolute(inside) && !inside.includes("node_modules"))
      return `${inside}:${match[2]}:${match[3]}`;
  }
  return undefined;
}

/** A tsx/esbuild transform error spans many lines; its first "file:line:col: ERROR: ..." line says it all. */
function firstLines(message: string): string {
  const lines = message.split("\n").filter((line) => line.trim() !== "");
  const located = lines.find((line) => /:\d+:\d+: ERROR: /.test(line));
  return (located ?? lines.slice(0, 3).join(" ")).trim();
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

/** The suite a module exports: its default export or `suite` (a defineSuite result), or `tasks` (an array). */
function suiteFromModule(moduleNamespace: Record<string, unknown>, fallbackName: string): SuiteDefinition {
  const candidate = moduleNamespace.default ?? moduleNamespace.suite;
  if (typeof candidate === "object" && candidate !== null && !Array.isArray(candidate)) {
    return candidate as SuiteDefinition;
  }
  if (Array.isArray(candidate)) return { name: fallbackName, tasks: candidate as TaskDefinition[] };
  if (Array.isArray(moduleNamespace.tasks))
    return { name: fallbackName, tasks: moduleNamespace.tasks as TaskDefinition[] };
  const exported = Object.keys(moduleNamespace);
  throw new Error(
    `it exports no suite: expected \`export default defineSuite({ name, tasks })\`, \`export const suite = defineSuite(...)\` or \`export const tasks = [defineTask(...), ...]\`; it exports ${exported.length === 0 ? "nothing" : exported.map((name) => `'${name}'`).join(", ")}${candidate === undefined ? "" : ` (the default export is ${describeValue(candidate)})`}`,
  );
}

/** Checks what defineTask does not (a plain object can pass for a task), then defineTask's own rules. */
function checkTask(task: TaskDefinition, index: number): void {
  const where = `tasks[${index}]${typeof task?.id === "string" ? ` ('${task.id}')` : ""}`;
  if (typeof task !== "object" || task === null)
    throw new Error(`${where} is ${describeValue(task)}, not a task`);
  const domain = task.domain as DomainDefinition | undefined;
  if (typeof domain !== "object" || domain === null || typeof domain.id !== "string")
    throw new Error(`${where} has no domain: expected defineTask({ domain: defineDomain(...), ... })`);
  if (
    typeof domain.generate !== "function" ||
    typeof domain.schemaSql !== "string" ||
    !Array.isArray(domain.tools)
  )
    throw new Error(
      `${where}: its domain '${domain.id}' is not a defineDomain result (schemaSql, generate, tools)`,
    );
  for (const field of ["id", "summary", "instruction"] as const)
    if (typeof task[field] !== "string" || task[field].trim() === "")
      throw new Error(`${where}: '${field}' must be a non-empty string`);
  if (typeof task.verify !== "function") throw new Error(`${where}: 'verify' must be a function`);
  if (task.prepare !== undefined && typeof task.prepare !== "function")
    throw new Error(`${where}: 'prepare' must be a function when given`);
  if (!Array.isArray(task.tools) || task.tools.some((name) => typeof name !== "string"))
    throw new Error(`${where}: 'tools' must be an array of tool names`);
  if (!Array.isArray(task.oracle) || task.oracle.some((cell) => typeof cell !== "string"))
    throw new Error(`${where}: 'oracle' must be an array of Python cells (strings)`);
  if (
    !Array.isArray(task.nearMisses) ||
    task.nearMisses.some(
      (nearMiss) =>
        typeof nearMiss?.id !== "string" ||
        !Array.isArray(nearMiss.cells) ||
        nearMiss.cells.some((cell) => typeof cell !== "string"),
    )
  )
    throw new Error(`${where}: 'nearMisses' must be [{ id, description, cells: [python, ...] }, ...]`);
  defineTask(task);
}

/** `my-suite` from a folder or package name, made a valid suite name. */
function nameFromRoot(root: string): string {
  const manifestPath = join(root, "package.json");
  let name = basename(root);
  if (existsSync(manifestPath)) {
    try {
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { name?: unknown };
      if (typeof manifest.name === "string") name = manifest.name.replace(/^@[^/]+\//, "");
    } catch {
      // packageEntry reports an unreadable package.json; the folder name will do here.
    }
  }
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[^a-z]+/, "");
  return (cleaned || "suite").slice(0, 64);
}

/**
 * Loads a user's suite: a folder (its package.json entry or `index.ts`/`index.js`), a module file, or an
 * installed npm package name. TypeScript loads through tsx; `import ... from "progagent"` inside it is the
 * running progagent. The module default-exports `defineSuite({ name, tasks })` (or exports `suite`, or a
 * `tasks` array, the suite then named after the folder or package). Every problem (no such suite, a syntax
 * error, a failing import, nothing exported, a task failing defineTask's rules) is one `ProgAgentError`
 * naming the module and the problem. Each task's instance key covers every source file of the suite folder.
 *
 * Modules load once per process (Node's module cache): a suite edited after it was loaded needs a new
 * process to be seen.
 */
export async function loadUserSuite(spec: string, options: LoadUserSuiteOptions = {}): Promise<LoadedSuite> {
  const { root, entryPath } = resolveSuiteEntry(spec, options.cwd);
  const details = { spec, entryPath };
  const fail = (problem: string, cause?: unknown): ProgAgentError =>
    suiteError(
      ERROR_CODES.SUITE_INVALID,
      `cannot load suite '${spec}' (${entryPath}): ${problem}`,
      details,
      cause,
    );

  const format = moduleFormatProblem(entryPath);
  if (format !== undefined) throw fail(format);
  let moduleNamespace: Record<string, unknown>;
  try {
    const importer = await suiteImporter();
    const url = pathToFileURL(entryPath).href;
    moduleNamespace = (await importer(url, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    const where = locateInSuite(error, root);
    throw fail(`${firstLines(errorMessage(error))}${where ? ` (at ${where})` : ""}`, error);
  }

  let suite: SuiteDefinition;
  try {
    suite = suiteFromModule(moduleNamespace, nameFromRoot(root));
    if (!Array.isArray(suite.tasks) || suite.tasks.length === 0)
      throw new Error(`suite '${String(suite.name)}' has no tasks: expected tasks: [defineTask(...), ...]`);
    suite.tasks.forEach(checkTask);
    defineSuite(suite);
  } catch (error) {
    throw fail(errorMessage(error), error);
  }

  const fingerprint = fingerprintFolder(root);
  for (const task of suite.tasks) {
    setTaskSourceFingerprint(task, fingerprint);
    suiteOfTask.set(task, suite.name);
  }
  return { ...suite, tasks: [...suite.tasks], spec, root, entryPath };
}

/** One source of tasks for {@link combineSuites}: the built-in suite or a loaded user's suite. */
export interface TaskSource {
  name: string;
  tasks: readonly Task[];
}

/**
 * The tasks of several suites as one list, in order. A task id that two suites both define, or two different
 * domain objects with one id, is one clear error naming both suites. `listedBefore` holds tasks listed ahead of
 * the sources without their definitions (task id -> suite name: the built-in suite read from its manifest).
 */
export function combineSuites(
  sources: readonly TaskSource[],
  listedBefore: ReadonlyMap<string, string> = new Map(),
): Task[] {
  const owners = new Map<string, string>(listedBefore);
  const domains = new Map<string, { domain: DomainDefinition | ExternalDomain; suite: string }>();
  const tasks: Task[] = [];
  for (const source of sources) {
    for (const task of source.tasks) {
      const owner = owners.get(task.id);
      if (owner !== undefined)
        throw new ProgAgentError(
          `task id '${task.id}' is defined by both suite '${owner}' and suite '${source.name}': task ids must be unique across the suites loaded together (rename one, or leave a suite out${owner === "builtin" ? " with --no-builtin" : ""})`,
          {
            code: ERROR_CODES.TASK_ID_CONFLICT,
            category: "user",
            details: { task: task.id, suites: [owner, source.name] },
          },
        );
      owners.set(task.id, source.name);
      const known = domains.get(task.domain.id);
      if (known && known.domain !== task.domain)
        throw new ProgAgentError(
          `domain id '${task.domain.id}' names two different domains, in suite '${known.suite}' and suite '${source.name}': give your domain its own id, or build on the built-in one with loadBuiltinDomain('${task.domain.id}')`,
          {
            code: ERROR_CODES.TASK_ID_CONFLICT,
            category: "user",
            details: { domain: task.domain.id, suites: [known.suite, source.name] },
          },
        );
      if (!known) domains.set(task.domain.id, { domain: task.domain, suite: source.name });
      tasks.push(task);
    }
  }
  return tasks;
}
