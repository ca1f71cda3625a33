/**
 * The packed package is the product: `npm pack` the project, install the tarball into an empty project
 * (offline, from the npm cache) and use it there the way a user would: the `progagent` bin (`tasks validate`,
 * `serve` over stdio MCP, `init-suite` and a user's suite) and the library entry (`import ... from
 * "progagent"`, JavaScript and TypeScript).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

/**
 * Type-checks `include` in the consumer project against the installed package's declarations, with the
 * strict settings a user's editor would have; returns tsc's output (empty when everything checks).
 */
async function typeCheck(
  consumer: string,
  configName: string,
  include: string[],
  extra: Record<string, boolean> = {},
): Promise<string> {
  writeFileSync(
    join(consumer, configName),
    JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        ...extra,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include,
    }),
  );
  const tsc = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");
  const result = await run(process.execPath, [tsc, "-p", join(consumer, configName)], {
    cwd: consumer,
    timeout: 300_000,
  }).catch((error: { stdout: string }) => error);
  return result.stdout;
}
const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), "progagent-package-test-"));
const staging = join(scratch, "staging");
const consumer = join(scratch, "consumer");
const installed = join(consumer, "node_modules", "progagent");
const bin = join(consumer, "node_modules", ".bin", "progagent");
// Everything the consumer runs keeps its caches in the scratch directory.
const env = {
  ...process.env,
  PROGAGENT_CACHE_DIR: join(scratch, "cache"),
  npm_config_update_notifier: "false",
};
let tarball = "";

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  version?: string;
  [key: string]: unknown;
}

/** Copies what `npm pack` reads into a staging directory, so packing never touches the working tree's dist/. */
function stageProject(): void {
  mkdirSync(staging);
  for (const entry of ["package.json", "README.md", "tsconfig.json", "tsconfig.build.json"])
    cpSync(join(projectRoot, entry), join(staging, entry));
  for (const folder of ["bin", "src", "scripts", "templates"])
    cpSync(join(projectRoot, folder), join(staging, folder), { recursive: true });
  symlinkSync(join(projectRoot, "node_modules"), join(staging, "node_modules"), "dir");
}

/**
 * The consumer's lockfile: the tarball plus the project's own locked runtime dependencies, so that `npm ci
 * --offline` resolves everything from the npm cache (which holds every locked tarball after `npm ci`) and
 * needs no registry metadata.
 */
function writeConsumerProject(tarballPath: string): void {
  mkdirSync(join(consumer, "app"), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as {
    version: string;
    license: string;
    dependencies: Record<string, string>;
    bin: Record<string, string>;
    engines: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(projectRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const spec = `file:${tarballPath}`;
  const integrity = `sha512-${createHash("sha512").update(readFileSync(tarballPath)).digest("base64")}`;
  const packages: Record<string, LockEntry> = {
    "": { name: "consumer", version: "1.0.0", dependencies: { progagent: spec } },
    "node_modules/progagent": {
      version: manifest.version,
      resolved: spec,
      integrity,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === "" || entry.dev) continue;
    const copy = { ...entry };
    delete copy.devOptional;
    packages[path] = copy;
  }
  const packageJson = { name: "consumer", version: "1.0.0", private: true, type: "module" };
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ ...packageJson, dependencies: { progagent: spec } }, null, 2),
  );
  writeFileSync(
    join(consumer, "package-lock.json"),
    JSON.stringify({ ...packageJson, lockfileVersion: 3, requires: true, packages }, null, 2),
  );
}

/**
 * better-sqlite3 compiles SQLite from source when no prebuilt binary can be downloaded (a minute of CPU, and
 * not what this test is about): install without scripts, then reuse the project's own build of the same version.
 */
async function provideSqliteBinary(): Promise<void> {
  const ours = dirname(require.resolve("better-sqlite3/package.json"));
  const theirs = join(consumer, "node_modules", "better-sqlite3");
  const version = (dir: string): string =>
    (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  if (
    version(ours) === version(theirs) &&
    existsSync(join(ours, "build", "Release", "better_sqlite3.node"))
  ) {
    mkdirSync(join(theirs, "build", "Release"), { recursive: true });
    cpSync(
      join(ours, "build", "Release", "better_sqlite3.node"),
      join(theirs, "build", "Release", "better_sqlite3.node"),
    );
  } else {
    await run("npm", ["rebuild", "better-sqlite3", "--offline"], { cwd: consumer, env, timeout: 600_000 });
  }
}

beforeAll(async () => {
  stageProject();
  // The build under npm pack compiles the whole project: minutes on a loaded 2-core machine.
  await run("npm", ["pack", "--pack-destination", scratch], {
    cwd: staging,
    env,
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const packed = readdirSync(scratch).find((name) => name.endsWith(".tgz"));
  if (!packed) throw new Error(`npm pack wrote no tarball into ${scratch}`);
  tarball = join(scratch, packed);
  writeConsumerProject(tarball);
  await run("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: consumer,
    env,
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  await provideSqliteBinary();
}, 1_500_000);

// A build killed by its deadline may still be writing while the folder goes: retry instead of ENOTEMPTY.
afterAll(() => rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 }));

describe("the packed package, installed into an empty project", () => {
  it("ships the compiled code, its types and the runtime assets, and no sources", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.split("\n").filter(Boolean);
    // The kernel's host-side helpers: without the meter the disk budget's walk falls back to the host's thread.
    for (const helper of ["bootstrap.py", "launch.py", "spawner.py", "template.py", "workspace_meter.py"])
      expect(files).toContain(`package/dist/kernel/python/${helper}`);
    expect(files).toContain("package/dist/index.js");
    expect(files).toContain("package/dist/index.d.ts");
    expect(files).toContain("package/bin/progagent.js");
    expect(files).toContain("package/dist/suite/manifest.json");
    expect(files).toContain("package/templates/suite/tasks/late-fees.ts");
    expect(files.filter((file) => file.startsWith("package/src/"))).toEqual([]);
    expect(files.filter((file) => /\.test\.(js|d\.ts)$/.test(file))).toEqual([]);
  });

  it("in a clone, runs the sources even when dist/ is stale", async () => {
    // The staging copy is a clone that has been built; make its build stale.
    writeFileSync(
      join(staging, "dist", "cli", "main.js"),
      'process.stderr.write("stale dist\\n"); process.exit(9);\n',
    );
    const { stdout } = await run(
      process.execPath,
      [
        join(staging, "bin", "progagent.js"),
        "tasks",
        "list",
        "--task",
        "retail.apply-supplier-recall",
        "--json",
      ],
      { cwd: staging, env, timeout: 120_000 },
    );
    expect((JSON.parse(stdout) as Array<{ id: string }>).map((row) => row.id)).toEqual([
      "retail.apply-supplier-recall",
    ]);
  });

  it("lists the built-in tasks from the manifest its build generated, as the clone lists them", async () => {
    const installedList = await run(bin, ["tasks", "list", "--json"], {
      cwd: consumer,
      env: { ...env, PROGAGENT_LOG_LEVEL: "debug" },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(installedList.stderr).toContain(
      `listed from the suite manifest ${join(installed, "dist", "suite", "manifest.json")}`,
    );
    const cloneList = await run(
      process.execPath,
      [join(projectRoot, "bin", "progagent.js"), "tasks", "list", "--json"],
      { cwd: projectRoot, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    );
    expect(installedList.stdout).toBe(cloneList.stdout);
  });

  it("validates a built-in task with the installed bin", async () => {
    const { stdout } = await run(
      bin,
      ["tasks", "validate", "--task", "retail.apply-supplier-recall", "--scale", "v0"],
      { cwd: consumer, env, timeout: 300_000 },
    );
    expect(stdout).toMatch(/retail\.apply-supplier-recall\s+v0\s+0\s+1\s+1\s+[0,]+\s+\d+\s+ok/);
    expect(stdout).toContain("1 passed, 0 failed");
  });

  it("evaluates the oracle with the installed bin, its token counts from the compiled counting worker", async () => {
    const out = join(consumer, "eval-out");
    const { stdout } = await run(
      bin,
      [
        "eval",
        "--model",
        "oracle",
        "--tasks",
        "retail.apply-supplier-recall",
        "--scales",
        "v0",
        "--out",
        out,
      ],
      { cwd: consumer, env, timeout: 300_000 },
    );
    expect(stdout).toMatch(/DTC\s+v0\s+1\s+1\s+0\s+1\.00/);
    expect(stdout).toMatch(/PTC\s+v0\s+1\s+1\s+0\s+1\.00/);
    const trajectories = readFileSync(join(out, "trajectories.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { harness: string; reward: number; finalContextTokens: number });
    expect(trajectories.map((trajectory) => trajectory.harness).sort()).toEqual(["dtc", "ptc"]);
    for (const trajectory of trajectories) {
      expect(trajectory.reward).toBe(1);
      expect(trajectory.finalContextTokens).toBeGreaterThan(1000);
    }
  });

  it("writes a suite with `init-suite` that validates with the installed bin, outside any node_modules", async () => {
    // Outside the consumer project: "progagent" and "zod" must resolve to the installed package and its copy.
    const suite = join(scratch, "outside-suite");
    await run(bin, ["init-suite", suite], { cwd: consumer, env, timeout: 120_000 });
    const { stdout } = await run(
      bin,
      ["tasks", "validate", "--suite", suite, "--no-builtin", "--scale", "v0,v3"],
      { cwd: consumer, env, timeout: 300_000 },
    );
    expect(stdout).toMatch(/lending\.late-fees\s+v0\s+0\s+1\s+1\s+0,0\s+\d+\s+ok/);
    expect(stdout).toContain("2 passed, 0 failed");

    // The template type-checks against the published declarations (what a user's editor sees).
    cpSync(suite, join(consumer, "my-suite"), { recursive: true });
    expect(
      await typeCheck(consumer, "tsconfig.suite.json", ["my-suite/**/*.ts"], {
        noUncheckedIndexedAccess: true,
      }),
    ).toBe("");
  });

  it("runs a program through `progagent serve` (stdio MCP) over an upstream server", async () => {
    const memoryServer = join(
      dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
      "dist",
      "index.js",
    );
    const config = join(consumer, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [memoryServer],
            env: { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") },
          },
        },
      }),
    );
    const transport = new StdioClientTransport({
      command: bin,
      args: ["serve", "--config", config, "--timeout", "30"],
      cwd: consumer,
      env: env,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "package-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: "programmatic_tool_call",
        arguments: {
          code: [
            'tools["create_entities"](entities=[{"name": "ada", "entityType": "person", "observations": ["wrote programs"]}])',
            'graph = tools["read_graph"]()',
            'print(sorted(entity["name"] for entity in graph["entities"]), 6 * 7)',
          ].join("\n"),
        },
      });
      const text = (result as { content: Array<{ text: string }> }).content[0]?.text ?? "";
      expect(text.trim(), stderr).toBe("['ada'] 42");
    } finally {
      await client.close();
    }
  });

  it("is a library: defines a domain, a task and a tool, validates the task and runs a PTC session", async () => {
    writeFileSync(
      join(consumer, "app", "library.mjs"),
      `
import { z } from "zod";
import { bindTool, createPtcSession, defineDomain, defineTask, defineTool, validateTaskInstance, SCALES } from "progagent";

const listItems = defineTool({
  name: "list_items",
  description: "Lists the items in stock.",
  kind: "read",
  inputSchema: z.object({}),
  handler: (_input, { db }) => ({ items: db.prepare("SELECT name, count FROM items ORDER BY name").all() }),
});
const shop = defineDomain({
  id: "shop",
  title: "Shop",
  description: "A tiny shop.",
  version: 1,
  schemaSql: "CREATE TABLE items (name TEXT PRIMARY KEY, count INTEGER NOT NULL);",
  generate: ({ db, factors, random }) => {
    const insert = db.prepare("INSERT INTO items VALUES (?, ?)");
    for (let index = 0; index < 3 * factors.rows; index += 1) insert.run("item" + index, random.int(1, 9));
  },
  tools: [listItems],
});
const total = defineTask({
  id: "shop.total-stock",
  domain: shop,
  summary: "Sum the stock",
  instruction: "How many items are in stock in all? Reply with only the number.",
  tools: ["list_items"],
  verify: ({ initial, answer }) => {
    const expected = initial.db.prepare("SELECT SUM(count) AS total FROM items").get().total;
    return [{ id: "total", passed: answer.trim() === String(expected), message: "expected the total" }];
  },
  oracle: ['print(sum(item["count"] for item in tools["list_items"]()["items"]))'],
  nearMisses: [{ id: "first-only", description: "counts one item", cells: ['print(tools["list_items"]()["items"][0]["count"])'] }],
});
const row = await validateTaskInstance(total, "v0", 0);

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  kind: "read",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => ({ sum: a + b }),
});
const session = createPtcSession({ endpoints: [bindTool(add, {})] });
let output;
try {
  output = (await session.run('print(sum(tools.add(a=i, b=1)["sum"] for i in range(3)))')).text;
} finally {
  await session.dispose();
}
console.log(JSON.stringify({ ok: row.ok, problems: row.problems, oracle: row.oracleReward, output, scales: SCALES }));
`,
    );
    const { stdout } = await run(process.execPath, [join(consumer, "app", "library.mjs")], {
      cwd: consumer,
      env,
      timeout: 300_000,
    });
    expect(JSON.parse(stdout.trim())).toEqual({
      ok: true,
      problems: [],
      oracle: 1,
      output: "6",
      scales: ["v0", "v1", "v2", "v3"],
    });
  });

  it("has types: a TypeScript consumer type-checks against the published declarations", async () => {
    writeFileSync(
      join(consumer, "app", "typed.ts"),
      `
import { createKernel, runEvaluation, type EvaluationOptions, type Kernel, type StateView, type TaskDefinition } from "progagent";
const kernel: Kernel = createKernel({});
const plan: Pick<EvaluationOptions, "samples" | "seed"> = { samples: 1, seed: 0 };
const tasks: TaskDefinition[] = [];
export const started: Promise<unknown> = runEvaluation({ ...plan, model: "oracle", tasks, harnesses: ["ptc"], scales: ["v0"], outDir: "out", concurrency: 1 });
export const disposed: Promise<void> = kernel.dispose();
// @ts-expect-error samples is a number
export const wrong: EvaluationOptions["samples"] = "one";
// The database handle is typed (better-sqlite3's types ship with the package), not any
// @ts-expect-error a Database is not a number
export const database: number = ({} as StateView).db;
`,
    );
    expect(await typeCheck(consumer, "tsconfig.json", ["app/typed.ts"])).toBe("");
    expect(existsSync(join(installed, "dist", "index.d.ts"))).toBe(true);
  });
});
