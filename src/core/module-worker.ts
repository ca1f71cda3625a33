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
  const options = { workerData, execArgv: workerExecArgv() };
  if (!besideUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, besideUrl), options);
  const entry = new URL(`./${name}.ts`, besideUrl).href;
  const source = `import(${JSON.stringify(tsxApiUrl())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(source, { ...options, eval: true });
}

/**
 * This process's Node flags as a worker takes them: all of them but `--input-type`, which Node refuses for a
 * worker (a host started as `node --input-type=module -e ...` could start no thread at all otherwise).
 */
function workerExecArgv(): string[] {
  const flags: string[] = [];
  for (let index = 0; index < process.execArgv.length; index += 1) {
    const flag = process.execArgv[index]!;
    if (flag === "--input-type") index += 1;
    else if (!flag.startsWith("--input-type=")) flags.push(flag);
  }
  return flags;
}
