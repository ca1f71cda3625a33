import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * tsx's ESM API (whose `register` adds its loader to the calling thread), found through tsx's own export map
 * from this file, so it resolves whatever the working directory.
 */
function tsxApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve("tsx/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    exports?: Record<string, { import?: { default?: string } }>;
  };
  const target = manifest.exports?.["./esm/api"]?.import?.default;
  if (target === undefined) throw new Error(`${manifestPath} exports no ESM "./esm/api"`);
  return pathToFileURL(join(dirname(manifestPath), target)).href;
}

/**
 * A worker thread running the module `name` (without extension) beside the module at `besideUrl` (its
 * `import.meta.url`): the compiled `.js` in the package, the TypeScript source through tsx in a clone (the
 * thread registers tsx itself: a loader registered in this thread does not reach new threads).
 */
export function startModuleWorker(besideUrl: string, name: string, workerData?: unknown): Worker {
  const start = (execArgv?: string[]): Worker => {
    const options = { workerData, ...(execArgv ? { execArgv } : {}) };
    if (!besideUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, besideUrl), options);
    const entry = new URL(`./${name}.ts`, besideUrl).href;
    const source = `import(${JSON.stringify(tsxApiUrl())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
    return new Worker(source, { ...options, eval: true });
  };
  // A worker inherits this process's Node flags, leaving out those only a process takes (--expose-gc), but
  // refuses an inherited --input-type: a host started as `node --input-type=module -e ...` gets the flags
  // without it, or, when one of them is a process-only flag (which explicit flags may not name), none.
  const flags = process.execArgv;
  const inputType = (flag: string): boolean => flag === "--input-type" || flag.startsWith("--input-type=");
  if (!flags.some(inputType)) return start();
  const kept = flags.filter((flag, index) => !inputType(flag) && flags[index - 1] !== "--input-type");
  try {
    return start(kept);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error;
    return start([]);
  }
}
