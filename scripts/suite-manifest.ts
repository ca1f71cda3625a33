/**
 * Generates the built-in suite's manifest (see src/suite/manifest.ts) from the task definitions themselves.
 *
 * `npm run suite:manifest` writes `src/suite/manifest.json` (checked in; a test fails when it is stale), and
 * `npm run build` writes `dist/suite/manifest.json` over the compiled files with {@link writeSuiteManifest}.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { ProgAgentError, ERROR_CODES } from "../src/core/index.js";
import {
  SUITE_MANIFEST_FILE,
  SUITE_MANIFEST_SCHEMA_VERSION,
  hashSourceFile,
  type SuiteManifest,
} from "../src/suite/manifest.js";
import { SUITE_DOMAINS, loadBuiltinDomainTasks } from "../src/suite/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The TypeScript sources: the definitions are imported from here, whatever tree the manifest describes. */
export const SOURCE_DIR = join(root, "src");
/** The folders (under src/) whose files the manifest's hashes cover. */
const DEFINITION_LAYERS = ["suite/", "envs/"];
/** Where the suite's import graph starts: the module with the domain loaders. */
const SUITE_ENTRY = "suite/index.ts";

const COMMENT =
  "Generated from the built-in task definitions by `npm run suite:manifest` (src/) and `npm run build` (dist/); " +
  "do not edit. `progagent tasks list` uses it only while every file in `sources` has the hash recorded here, " +
  "and imports the definitions otherwise.";

/**
 * Every module of the definition layers (suite/, envs/) the built-in suite's definitions can load, as paths
 * relative to `src/`, sorted: the import graph from `suite/index.ts` over relative imports (static, dynamic and
 * type-only, which only over-approximates).
 * A relative import that names no file is an error: the graph would be incomplete.
 */
export function suiteSourceFiles(sourceDir: string = SOURCE_DIR): string[] {
  const seen = new Set<string>();
  const pending = [SUITE_ENTRY];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(sourceDir, file), "utf8");
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const specifier = imported.fileName;
      if (!specifier.startsWith(".")) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, ".ts");
      if (!target.endsWith(".ts") || target.startsWith("../"))
        throw new ProgAgentError(
          `${file} imports '${specifier}', which is not a .js module inside src/; the suite manifest cannot follow it`,
          { code: ERROR_CODES.SUITE_INVALID, category: "system", details: { file, specifier } },
        );
      try {
        readFileSync(join(sourceDir, target));
      } catch {
        throw new ProgAgentError(`${file} imports '${specifier}', but src/${target} does not exist`, {
          code: ERROR_CODES.SUITE_INVALID,
          category: "system",
          details: { file, specifier },
        });
      }
      pending.push(target);
    }
  }
  // What a listing shows comes from the definitions (the suite and the envs layer they are written with); the
  // machinery below them (kernel, runtime, core) cannot change it, and hashing it would make every kernel change
  // stale the manifest. The test that compares the manifest with the definitions covers everything.
  return [...seen].filter((file) => DEFINITION_LAYERS.some((layer) => file.startsWith(layer))).sort();
}

export interface GenerateSuiteManifestOptions {
  /** The tree whose files the manifest's hashes describe: `src/` (default) or a build's `dist/`. */
  treeDir?: string;
  /** The extension of the tree's modules: `.ts` for `src/`, `.js` for `dist/`. */
  moduleExtension?: ".ts" | ".js";
}

/** The manifest of the built-in suite as its definitions give it now. */
export async function generateSuiteManifest(
  options: GenerateSuiteManifestOptions = {},
): Promise<SuiteManifest> {
  const treeDir = options.treeDir ?? SOURCE_DIR;
  const extension = options.moduleExtension ?? ".ts";
  const sources: Record<string, string> = {};
  for (const file of suiteSourceFiles()) {
    const path = file.replace(/\.ts$/, extension);
    sources[path] = hashSourceFile(join(treeDir, path));
  }
  const domains: SuiteManifest["domains"] = [];
  for (const domain of SUITE_DOMAINS) {
    const tasks = await loadBuiltinDomainTasks(domain);
    domains.push({
      id: domain,
      tasks: tasks.map((task) => ({
        id: task.id,
        domain: task.domain.id,
        summary: task.summary,
        instruction: task.instruction,
        tools: [...task.tools],
      })),
    });
  }
  return { schemaVersion: SUITE_MANIFEST_SCHEMA_VERSION, comment: COMMENT, sources, domains };
}

/** The manifest as the file holds it. */
export function renderSuiteManifest(manifest: SuiteManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Generates the manifest for a tree and writes it to `<treeDir>/suite/manifest.json`; returns its path. */
export async function writeSuiteManifest(options: GenerateSuiteManifestOptions = {}): Promise<string> {
  const manifest = await generateSuiteManifest(options);
  const path = join(options.treeDir ?? SOURCE_DIR, "suite", SUITE_MANIFEST_FILE);
  writeFileSync(path, renderSuiteManifest(manifest));
  return path;
}

async function main(): Promise<void> {
  const path = await writeSuiteManifest();
  const manifest = JSON.parse(readFileSync(path, "utf8")) as SuiteManifest;
  const taskCount = manifest.domains.reduce((sum, domain) => sum + domain.tasks.length, 0);
  process.stdout.write(
    `suite manifest: ${relative(root, path)} (${taskCount} tasks, ${Object.keys(manifest.sources).length} source files)\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
