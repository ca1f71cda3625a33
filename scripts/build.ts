/**
 * Builds the published package: a clean `dist/` with the compiled JavaScript and `.d.ts`, plus every file
 * the library reads at run time (Python sources, templates, data), copied beside the module that reads it.
 *
 * Run with `npm run build` (also `prepack`, so `npm pack` and `npm publish` never ship a stale build).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Files under `src/` that are read at run time and are not compiled by tsc, as globs relative to `src/`
 * (`**` any folders, `*` any name part). Add a line here when a module starts reading a new kind of file.
 */
export const RUNTIME_ASSET_GLOBS: readonly string[] = [
  "**/*.py",
  "**/*.jinja",
  "**/*.jinja2",
  "**/*.j2",
  "**/*.json",
  "**/*.jsonl",
  "**/*.csv",
  "**/*.txt",
  "**/*.md",
  "**/*.sql",
  "**/*.html",
  "**/*.css",
];

/** Files under `src/` that are neither compiled nor shipped: unit tests and Python caches. */
const NOT_SHIPPED = [/\.test\.ts$/, /(^|\/)__pycache__\//, /\.pyc$/, /(^|\/)\.DS_Store$/];

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = join(root, "src");

export function globToPathRegExp(glob: string): RegExp {
  let pattern = "";
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index]!;
    if (glob.startsWith("**/", index)) {
      pattern += "(?:.*/)?";
      index += 2;
    } else if (character === "*") pattern += "[^/]*";
    else if (character === "?") pattern += "[^/]";
    else pattern += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`);
}

function listFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** `--out-dir <dir>` builds elsewhere (bench:scale times a staged package); default `dist/`. */
function outDirFrom(argv: readonly string[]): string {
  const at = argv.indexOf("--out-dir");
  if (at < 0) return join(root, "dist");
  const dir = argv[at + 1];
  if (!dir || dir.startsWith("--")) throw new Error("build: --out-dir expects a directory");
  return resolve(dir);
}

async function main(): Promise<void> {
  const outDir = outDirFrom(process.argv.slice(2));
  rmSync(outDir, { recursive: true, force: true });
  const tsc = spawnSync(
    process.execPath,
    [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json", "--outDir", outDir],
    { cwd: root, stdio: "inherit" },
  );
  if (tsc.status !== 0) {
    process.stderr.write("build: tsc failed\n");
    process.exit(tsc.status ?? 1);
  }
  const assetPatterns = RUNTIME_ASSET_GLOBS.map(globToPathRegExp);
  const unclaimed: string[] = [];
  let copied = 0;
  for (const file of listFiles(sourceDir)) {
    const path = relative(sourceDir, file).split("\\").join("/");
    if (path.endsWith(".ts") || NOT_SHIPPED.some((pattern) => pattern.test(path))) continue;
    if (!assetPatterns.some((pattern) => pattern.test(path))) {
      unclaimed.push(path);
      continue;
    }
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    copyFileSync(file, join(outDir, path));
    copied += 1;
  }
  // A new kind of file under src/ is either a runtime asset (add its glob) or a mistake; never silently dropped.
  if (unclaimed.length > 0) {
    process.stderr.write(
      `build: files under src/ match no runtime asset glob (scripts/build.ts RUNTIME_ASSET_GLOBS): ${unclaimed.join(", ")}\n`,
    );
    process.exit(1);
  }
  // The checked-in manifest describes src/; the package's describes the compiled files it ships beside.
  const { writeSuiteManifest } = await import("./suite-manifest.js");
  const manifestPath = await writeSuiteManifest({ treeDir: outDir, moduleExtension: ".js" });
  const shown = (path: string): string => (path.startsWith(`${root}/`) ? relative(root, path) : path);
  process.stdout.write(
    `build: ${shown(outDir)}/ compiled, ${copied} runtime asset(s) copied, ${shown(manifestPath)} generated\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
