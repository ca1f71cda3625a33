/**
 * Suites outside the package, through the CLI a user runs: `init-suite` writes a suite that validates, the
 * suite's tasks sit beside the built-in ones (or alone with --no-builtin) in `tasks`, `eval`, `env serve`
 * and `rollout serve`, a broken suite is one clear error, and an edit to a user's generator rebuilds.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFile, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForRolloutUrl } from "./helpers/processes.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "bin", "progagent.js");
const scratch = realpathSync(mkdtempSync(join(tmpdir(), "user-suite-")));
const cacheDir = join(scratch, "cache");
const suiteDir = join(scratch, "my-suite");

type Ran = { code: number; stdout: string; stderr: string };

/** Runs the CLI in `cwd` with a private instance cache; resolves with the exit code instead of throwing. */
function progagent(args: string[], options: { cwd?: string; cache?: string } = {}): Promise<Ran> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [cli, ...args],
      {
        cwd: options.cwd ?? scratch,
        timeout: 240_000,
        maxBuffer: 32 * 1024 * 1024,
        env: { ...process.env, PROGAGENT_CACHE_DIR: options.cache ?? cacheDir },
      },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  const init = await progagent(["init-suite", "my-suite"]);
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toContain("progagent tasks validate --suite ./my-suite --no-builtin");
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("progagent init-suite", () => {
  it("writes a suite that validates: null 0, oracle 1, replay 1, near-misses 0 at every scale", async () => {
    const files = readdirSync(suiteDir, { recursive: true }).map(String).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        "index.ts",
        "domain.ts",
        "generate.ts",
        "tools.ts",
        "package.json",
        "tasks/late-fees.ts",
      ]),
    );
    expect(readFileSync(join(suiteDir, "index.ts"), "utf8")).toContain('name: "my-suite"');

    const validated = await progagent([
      "tasks",
      "validate",
      "--suite",
      "./my-suite",
      "--no-builtin",
      "--json",
    ]);
    expect(validated.code, validated.stderr).toBe(0);
    const rows = JSON.parse(validated.stdout) as Array<{
      task: string;
      scale: string;
      nullReward: number;
      oracleReward: number;
      dtcReplayReward: number;
      nearMissRewards: Record<string, number>;
      ok: boolean;
    }>;
    expect(rows.map((row) => [row.task, row.scale])).toEqual(
      ["v0", "v1", "v2", "v3"].map((scale) => ["lending.late-fees", scale]),
    );
    for (const row of rows) {
      expect(row).toMatchObject({ nullReward: 0, oracleReward: 1, dtcReplayReward: 1, ok: true });
      expect(Object.keys(row.nearMissRewards).length).toBeGreaterThanOrEqual(2);
      expect(Object.values(row.nearMissRewards)).toEqual(Object.values(row.nearMissRewards).map(() => 0));
    }
  });

  it("refuses to write into a folder that holds files", async () => {
    const again = await progagent(["init-suite", "my-suite"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already exists and is not an empty folder");
  });
});

describe("--suite and --no-builtin", () => {
  it("`tasks list --suite` shows the suite's tasks beside the built-in ones; --no-builtin leaves those out", async () => {
    const both = await progagent([
      "tasks",
      "list",
      "--suite",
      "./my-suite",
      "--task",
      "lending.*,retail.*",
      "--json",
    ]);
    expect(both.code, both.stderr).toBe(0);
    const rows = JSON.parse(both.stdout) as Array<{ id: string; suite: string; domain: string }>;
    expect(rows.find((row) => row.id === "lending.late-fees")).toMatchObject({
      suite: "my-suite",
      domain: "lending",
    });
    expect(rows.filter((row) => row.suite === "builtin").length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.suite === "builtin").every((row) => row.domain === "retail")).toBe(true);

    const table = await progagent(["tasks", "list", "--suite", suiteDir]);
    expect(table.stdout).toMatch(/lending\.late-fees\s+my-suite\s+lending/);
    expect(table.stdout).toMatch(/retail\.\S+\s+builtin\s+retail/);

    const alone = await progagent(["tasks", "list", "--suite", "./my-suite", "--no-builtin", "--json"]);
    expect((JSON.parse(alone.stdout) as Array<{ id: string }>).map((row) => row.id)).toEqual([
      "lending.late-fees",
    ]);

    const twice = await progagent([
      "tasks",
      "list",
      "--suite",
      "./my-suite",
      "--suite",
      "my-suite/index.ts",
      "--no-builtin",
      "--json",
    ]);
    expect(twice.code, twice.stderr).toBe(0);
    expect((JSON.parse(twice.stdout) as Array<{ id: string }>).map((row) => row.id)).toEqual([
      "lending.late-fees",
    ]);

    const nothing = await progagent(["tasks", "list", "--no-builtin"]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("--no-builtin leaves no tasks: add --suite");
  });

  it("`eval --model oracle --suite ... --no-builtin` runs the suite's task and passes", async () => {
    const out = join(scratch, "eval-run");
    const ran = await progagent([
      "eval",
      "--model",
      "oracle",
      "--suite",
      "./my-suite",
      "--no-builtin",
      "--scales",
      "v0,v1",
      "--harness",
      "ptc,dtc",
      "--out",
      out,
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    const lines = readFileSync(join(out, "trajectories.jsonl"), "utf8").trim().split("\n");
    const episodes = lines.map(
      (line) => JSON.parse(line) as { task: string; reward: number; harness: string },
    );
    expect(episodes).toHaveLength(4);
    expect(episodes.every((episode) => episode.task === "lending.late-fees" && episode.reward === 1)).toBe(
      true,
    );
  });

  it("`env serve --suite` serves the suite's task over MCP", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          cli,
          "env",
          "serve",
          "--suite",
          suiteDir,
          "--no-builtin",
          "--task",
          "lending.late-fees",
          "--mode",
          "dtc",
        ],
        env: { ...(process.env as Record<string, string>), PROGAGENT_CACHE_DIR: cacheDir },
        stderr: "ignore",
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["list_loans", "charge_late_fee", "claim_done"]));
      const page = await client.callTool({ name: "list_loans", arguments: { status: "out", per_page: 2 } });
      const text = (page as { content: Array<{ text: string }> }).content[0]!.text;
      expect(JSON.parse(text)).toMatchObject({ page: 1, per_page: 2, has_more: true });
    } finally {
      await client.close();
    }
  });

  it("`rollout serve --suite --no-builtin` lists and serves the suite's task", async () => {
    const service = spawn(
      process.execPath,
      [cli, "rollout", "serve", "--port", "0", "--suite", suiteDir, "--no-builtin"],
      {
        cwd: scratch,
        env: { ...process.env, PROGAGENT_CACHE_DIR: cacheDir },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    try {
      const url = await waitForRolloutUrl(service, 120_000);
      const listed = (await (await fetch(`${url}/v1/tasks`)).json()) as { tasks: unknown };
      expect(listed.tasks).toEqual([{ id: "lending.late-fees", domain: "lending" }]);
      const created = await fetch(`${url}/v1/episodes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ task: "lending.late-fees", scale: "v0", mode: "dtc" }),
      });
      expect(created.status).toBe(201);
      const builtin = await fetch(`${url}/v1/episodes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ task: "retail.apply-supplier-recall", scale: "v0", mode: "dtc" }),
      });
      expect(builtin.status).toBe(404);
      service.kill("SIGTERM");
      expect(await new Promise<number | null>((done) => service.once("exit", (code) => done(code)))).toBe(0);
    } finally {
      if (service.exitCode === null) service.kill("SIGKILL");
    }
  });

  it("`rollout serve` with a broken --suite fails at start, naming it", async () => {
    const ran = await progagent(["rollout", "serve", "--port", "0", "--suite", "./no-such-suite"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("suite './no-such-suite'");
  });

  it("loads a JavaScript suite installed as an npm package, by its name", async () => {
    const project = join(scratch, "project");
    const installed = join(project, "node_modules", "@acme", "suite");
    cpSync(suiteDir, installed, { recursive: true });
    // The same suite, but the package's entry named by "exports" and a task id of its own.
    writeFileSync(
      join(installed, "package.json"),
      JSON.stringify({ name: "@acme/suite", type: "module", exports: "./entry.mjs" }),
    );
    writeFileSync(
      join(installed, "entry.mjs"),
      'import suite from "./index.ts";\nexport const tasks = suite.tasks;\n',
    );
    const listed = await progagent(["tasks", "list", "--suite", "@acme/suite", "--no-builtin", "--json"], {
      cwd: project,
    });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ id: "lending.late-fees", suite: "suite" }),
    ]);
  });
});

describe("a broken suite is one clear error", () => {
  /** A copy of the generated suite with one file changed. */
  function brokenCopy(name: string, file: string, change: (text: string) => string): string {
    const dir = join(scratch, "broken", name);
    cpSync(suiteDir, dir, { recursive: true });
    const path = join(dir, file);
    writeFileSync(path, change(readFileSync(path, "utf8")));
    return dir;
  }

  it.each([
    {
      name: "a syntax error",
      make: () =>
        brokenCopy("syntax", "tools.ts", (text) =>
          text.replace("export const listLoans =", "export const listLoans = {"),
        ),
      expected: /tools\.ts:\d+:\d+: ERROR: /,
    },
    {
      name: "nothing exported",
      make: () => brokenCopy("empty", "index.ts", () => "export const answer = 42;\n"),
      expected:
        /it exports no suite: expected `export default defineSuite\(\{ name, tasks \}\)`.*it exports 'answer'/,
    },
    {
      name: "a task failing defineTask's rules",
      make: () =>
        brokenCopy("bad-tool", "tasks/late-fees.ts", (text) =>
          text.replace('tools: ["list_loans", "charge_late_fee"]', 'tools: ["list_loans", "charge_fee"]'),
        ),
      expected:
        /task 'lending.late-fees' exposes unknown tool 'charge_fee' \(at tasks\/late-fees\.ts:\d+:\d+\)/,
    },
    {
      name: "a missing file",
      make: () => brokenCopy("missing", "domain.ts", (text) => text.replace('"./tools.js"', '"./tool.js"')),
      expected: /Cannot find module '.*\/missing\/tool\.js' imported from .*\/domain\.ts/,
    },
    {
      name: "a CommonJS folder",
      make: () =>
        brokenCopy("commonjs", "package.json", (text) =>
          text.replace('"type": "module"', '"type": "commonjs"'),
        ),
      expected: /suite modules are ES modules, but .*package\.json does not say "type": "module"/,
    },
    {
      name: "a task id the built-in suite has",
      make: () => {
        const dir = brokenCopy("duplicate", "tasks/late-fees.ts", (text) =>
          text.replace('id: "lending.late-fees"', 'id: "retail.process-pending-returns"'),
        );
        const domain = join(dir, "domain.ts");
        writeFileSync(domain, readFileSync(domain, "utf8").replace('id: "lending"', 'id: "retail"'));
        return dir;
      },
      expected:
        /task id 'retail.process-pending-returns' is defined by both suite 'builtin' and suite 'my-suite'.*--no-builtin/,
    },
  ])("$name", async ({ make, expected }) => {
    const dir = make();
    const ran = await progagent(["tasks", "list", "--suite", dir, "--task", "retail.*,lending.*"]);
    expect(ran.code).toBe(2);
    const lines = ran.stderr.trim().split("\n");
    expect(lines, ran.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
    if (!/builtin/.test(String(expected)))
      expect(lines[0]).toContain(`cannot load suite '${dir}' (${dir}/index.ts)`);
  });
});

describe("instance keys cover the user's sources", () => {
  it("editing the suite's generator builds a new instance; an unchanged suite reuses the cached one", async () => {
    const dir = join(scratch, "keyed");
    cpSync(suiteDir, dir, { recursive: true });
    const cache = join(scratch, "keyed-cache");
    const build = (): Promise<Ran> =>
      progagent(["tasks", "build", "--suite", dir, "--no-builtin", "--scale", "v0"], { cache });
    const instances = (): string[] =>
      readdirSync(cache).filter((name) => name.startsWith("lending.late-fees-v0-0-"));

    expect((await build()).code).toBe(0);
    const [first] = instances();
    expect(instances()).toHaveLength(1);
    expect((await build()).code).toBe(0);
    expect(instances()).toEqual([first]);

    const generator = join(dir, "generate.ts");
    writeFileSync(
      generator,
      readFileSync(generator, "utf8").replace("n < 30 * factors.rows", "n < 31 * factors.rows"),
    );
    const rebuilt = await build();
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(instances()).toHaveLength(2);
    const added = instances().find((name) => name !== first)!;
    const rows = (name: string): number =>
      (
        JSON.parse(readFileSync(join(cache, name, "manifest.json"), "utf8")) as {
          stats: { rowsPerTable: { loans: number } };
        }
      ).stats.rowsPerTable.loans;
    expect(rows(added)).toBe(rows(first!) + 1);
  });
});
