import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLocaBench } from "../src/benchmarks/loca-bench/index.js";
import {
  createEpisode,
  createEpisodeDriver,
  episodeInstructions,
  prepareExternalInstance,
  validateExternalInstance,
  type ExternalTaskDefinition,
  type ExternalValidationRow,
} from "../src/envs/index.js";
import { runEvaluation } from "../src/eval/index.js";
import { exportSft } from "../src/train/index.js";
import { readTrajectories, type ChatMessage, type Trajectory } from "../src/harness/index.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const fixture = join(projectRoot, "test", "fixtures", "loca-layout");
const standIn = join(projectRoot, "test", "fixtures", "python-mcp-standin");
const python = "/usr/bin/python3";
const cli = join(projectRoot, "bin", "progagent.js");
const scratch = mkdtempSync(join(tmpdir(), "progagent-loca-test-"));
const cacheDir = join(scratch, "cache");
// Episodes an evaluation opens build their instances in the default cache: this test's own.
process.env.PROGAGENT_CACHE_DIR = cacheDir;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const load = (dir = fixture) => loadLocaBench(dir, { python, pythonPath: [standIn] });
let summary: ExternalTaskDefinition;
let flags: ExternalTaskDefinition;
beforeAll(async () => {
  const suite = await load();
  summary = suite.tasks.find((task) => task.id === "loca.ledger_summary")!;
  flags = suite.tasks.find((task) => task.id === "loca.ledger_flags")!;
}, 60_000);

/** A copy of the fixture suite with one file changed, for the cases that need a broken or different checkout. */
function fixtureVariant(name: string, change: (root: string) => void): string {
  const root = join(scratch, name);
  cpSync(fixture, root, { recursive: true });
  change(root);
  return root;
}

/** The instance's ground truth, read from the cache (what a hand-written trajectory must do). */
function expectedFlags(): string[] {
  const folder = readdirSync(join(cacheDir, "loca-bench")).find((name) =>
    name.startsWith("ledger_flags-8k-42-"),
  )!;
  return JSON.parse(
    readFileSync(
      join(cacheDir, "loca-bench", folder, "task", "groundtruth_workspace", "expected_flags.json"),
      "utf8",
    ),
  ) as string[];
}

describe("LOCA-bench through progagent (a fixture suite in LOCA's layout)", () => {
  it("validates what such a suite allows: null 0, reference 1, perturbed 0, or why there is no reference", async () => {
    const withReference = await validateExternalInstance(summary, "v0", 0, { cacheDir });
    expect(withReference).toMatchObject({ nullReward: 0, referenceReward: 1, perturbedReward: 0, ok: true });
    const without = await validateExternalInstance(flags, "v0", 0, { cacheDir });
    expect(without).toMatchObject({ nullReward: 0, ok: true });
    expect(without.referenceReward).toBeUndefined();
    expect(without.referenceUnavailable).toMatch(/no reference final state/);
  }, 240_000);

  it("`tasks validate --json` reports a class whose server is missing as skipped, with the reason", async () => {
    const root = fixtureVariant("missing-server", (dir) => {
      for (const size of ["8k", "16k", "32k", "64k"]) {
        const path = join(dir, "task-configs", `final_${size}_set_config.json`);
        const config = JSON.parse(readFileSync(path, "utf8")) as {
          configurations: Array<{ name: string; mcp_servers: Record<string, unknown> }>;
        };
        for (const entry of config.configurations)
          if (entry.name === "LedgerFlagsS2LEnv")
            entry.mcp_servers.spreadsheet = { enabled: true, type: "spreadsheet", params: {} };
        writeFileSync(path, JSON.stringify(config));
      }
    });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, "tasks", "validate", "--suite", `loca-bench:${root}`, "--no-builtin", "--scale", "v0", "--json"],
      {
        timeout: 200_000,
        env: {
          ...process.env,
          PROGAGENT_LOCA_PYTHON: python,
          PYTHONPATH: standIn,
          PROGAGENT_CACHE_DIR: cacheDir,
        },
      },
    );
    const rows = JSON.parse(stdout) as ExternalValidationRow[];
    expect(rows.find((row) => row.task === "loca.ledger_flags")).toMatchObject({
      ok: true,
      skipped: expect.stringMatching(/spreadsheet \('progagent-fixture-spreadsheet-server' is not on PATH\)/),
    });
    expect(rows.find((row) => row.task === "loca.ledger_summary")).toMatchObject({
      nullReward: 0,
      referenceReward: 1,
      perturbedReward: 0,
      ok: true,
    });
  }, 240_000);

  it("gives a program the servers' tools with native values, a workspace it shares with them, and nothing hidden", async () => {
    const episode = await createEpisode(summary, "v0", 0, { cacheDir, withKernel: true, mode: "ptc" });
    const driver = createEpisodeDriver(episode, { mode: "ptc" });
    try {
      const code = [
        "page = tools.ledger_list_entries(per_page=5)",
        "print(type(page).__name__, type(page['entries'][0]['amount']).__name__, page['total'])",
        "open('note.txt', 'w').write('written in the sandbox')",
        "print(tools.read_text_file(path='note.txt'))",
        "import os",
        "hits = []",
        "for folder, folders, files in os.walk('/'):",
        "    folders[:] = [name for name in folders if os.path.join(folder, name) not in ('/proc', '/sys')]",
        "    hits += [os.path.join(folder, name) for name in folders + files if 'groundtruth' in name or 'local_db' in name]",
        "print('hidden files seen:', hits)",
      ].join("\n");
      const outcome = await driver.call("programmatic_tool_call", { code });
      expect(outcome.runtimeError, outcome.text).toBe(false);
      expect(outcome.text).toContain("dict float 12");
      expect(outcome.text).toContain("written in the sandbox");
      expect(outcome.text).toContain("hidden files seen: []");
    } finally {
      await driver.dispose();
    }
  }, 120_000);

  it("serves an episode as `env serve` does: the instance's instruction, and under DTC the suite's code tool", async () => {
    const episode = await createEpisode(flags, "v0", 0, { cacheDir, withKernel: false, mode: "dtc" });
    const driver = createEpisodeDriver(episode, { mode: "dtc" });
    try {
      expect(episodeInstructions(driver)).toContain(flags.instruction);
      expect(driver.tools.map((tool) => tool.name)).toEqual([
        "ledger_list_entries",
        "ledger_get_entry",
        "ledger_flag_entry",
        "python_execute",
        "claim_done",
      ]);
      expect((await driver.call("python_execute", { code: "print(6 * 7)" })).text).toContain("42");
    } finally {
      await driver.dispose();
    }
  }, 120_000);

  it("judges the final workspace without following links the agent planted to the ground truth", async () => {
    const episode = await createEpisode(summary, "v0", 0, { cacheDir, withKernel: true, mode: "ptc" });
    const driver = createEpisodeDriver(episode, { mode: "ptc" });
    try {
      const code = [
        "import os",
        "os.remove('summary.csv')",
        "os.symlink('../groundtruth_workspace/summary.csv', 'summary.csv')",
        "print(os.path.islink('summary.csv'))",
      ].join("\n");
      expect((await driver.call("programmatic_tool_call", { code })).text).toContain("True");
      const done = await driver.call("claim_done", { answer: "done" });
      expect(done.verdict).toMatchObject({ reward: 0 });
      expect(done.verdict?.checks[0]?.message).toMatch(/summary\.csv is missing/);
    } finally {
      await driver.dispose();
    }
  }, 120_000);

  it("keeps serving after a server dies mid-call: that call fails, the next one restarts it", async () => {
    const episode = await createEpisode(flags, "v0", 0, { cacheDir, withKernel: true, mode: "ptc" });
    const driver = createEpisodeDriver(episode, { mode: "ptc" });
    try {
      const code = [
        "try:",
        "    tools.ledger_get_entry(entry_id='E-crash')",
        "except ToolError as error:",
        "    print('failed:', 'closed the connection' in str(error))",
        "print('after:', tools.ledger_list_entries(per_page=1)['total'])",
      ].join("\n");
      const outcome = await driver.call("programmatic_tool_call", { code });
      expect(outcome.text).toContain("failed: True");
      expect(outcome.text).toContain("after: 12");
    } finally {
      await driver.dispose();
    }
  }, 120_000);
});

/** A hand-written trajectory: the assistant turns a replay sends, in a line `eval --model replay:` reads. */
function recorded(task: string, harness: Trajectory["harness"], calls: Array<[string, object]>): Trajectory {
  const messages: ChatMessage[] = calls.map(([name, args], index) => ({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: `call_${index}`, type: "function", function: { name, arguments: JSON.stringify(args) } },
    ],
  }));
  return {
    schemaVersion: 2,
    runId: "hand-written",
    episodeId: `${task}|v0|${harness}|0`,
    task,
    scale: "v0",
    seed: 0,
    harness,
    model: "hand",
    sample: 0,
    messages,
    turns: [],
    toolCalls: [],
    codeBlocks: [],
    runtimeErrors: 0,
    refusedDirectCalls: 0,
    toolOutputTokens: 0,
    finalContextTokens: 0,
    endReason: "claim_done",
    answer: "",
    reward: 1,
    checks: [],
    verifierError: null,
    error: null,
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
  };
}

/** Under DTC the suite's code tool runs alone, as in the suite's own harness: a program reaches no tool. */
const PROBE_TOOLS = [
  "try:",
  "    tools.ledger_list_entries(per_page=1)",
  "    print('a tool answered')",
  "except Exception as error:",
  "    print('no tools here:', type(error).__name__)",
].join("\n");

describe("eval on an external suite", () => {
  it("replays hand-written trajectories under PTC, DTC (with the suite's code tool in the sandbox) and Hybrid", async () => {
    await prepareExternalInstance(flags, "v0", 0, { cacheDir });
    const flagged = expectedFlags();
    const flagInCode = [
      "entries = tools.ledger_list_entries(per_page=50)['entries']",
      "over = [entry['id'] for entry in entries if entry['amount'] > 900]",
      "for entry_id in over: tools.ledger_flag_entry(entry_id=entry_id)",
      "print(len(over))",
    ].join("\n");
    const file = join(scratch, "hand-written.jsonl");
    const lines = [
      recorded("loca.ledger_flags", "ptc", [
        ["programmatic_tool_call", { code: flagInCode }],
        ["claim_done", { answer: "flagged" }],
      ]),
      recorded("loca.ledger_flags", "dtc", [
        ["ledger_list_entries", { per_page: 50 }],
        ["python_execute", { code: PROBE_TOOLS }],
        ...flagged.map((id): [string, object] => ["ledger_flag_entry", { entry_id: id }]),
        ["claim_done", { answer: "flagged" }],
      ]),
      recorded("loca.ledger_flags", "hybrid", [
        ["ledger_get_entry", { entry_id: "E-0001" }],
        ["programmatic_tool_call", { code: flagInCode }],
        ["claim_done", { answer: "flagged" }],
      ]),
    ];
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n"));
    const outDir = join(scratch, "replayed");
    const outcome = await runEvaluation({
      model: `replay:${file}`,
      tasks: [flags],
      harnesses: ["ptc", "dtc", "hybrid"],
      scales: ["v0"],
      samples: 1,
      seed: 0,
      outDir,
      concurrency: 1,
    });
    expect(outcome.environmentErrors).toEqual([]);
    const trajectories = readTrajectories(join(outDir, "trajectories.jsonl"));
    expect(
      trajectories.map((trajectory) => [trajectory.harness, trajectory.endReason, trajectory.reward]),
    ).toEqual(
      expect.arrayContaining([
        ["ptc", "claim_done", 1],
        ["dtc", "claim_done", 1],
        ["hybrid", "claim_done", 1],
      ]),
    );
    const dtc = trajectories.find((trajectory) => trajectory.harness === "dtc")!;
    // The suite's code tool ran in the sandbox, with no tools inside (as in the suite's own harness).
    expect(dtc.codeBlocks).toHaveLength(1);
    expect(dtc.codeBlocks[0]!.output).toContain("no tools here");
    expect(dtc.tools?.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(["ledger_list_entries", "python_execute", "claim_done"]),
    );
    // The first user message is the instance's instruction; SFT export takes the trajectories as they are.
    expect(dtc.messages.find((message) => message.role === "user")?.content).toContain("ledger_flag_entry");
    const exported = exportSft({ inputs: [outDir], format: "openai", outPath: join(scratch, "sft.jsonl") });
    expect(exported.rows.train + exported.rows.val).toBe(3);
  }, 300_000);

  it("`eval` runs a replay on the suite and reports it beside the paper, with what the run cost; refuses the oracle", async () => {
    const file = join(scratch, "flags-ptc.jsonl");
    const flagInCode = [
      "entries = tools.ledger_list_entries(per_page=50)['entries']",
      "for entry in entries:",
      "    if entry['amount'] > 900: tools.ledger_flag_entry(entry_id=entry['id'])",
    ].join("\n");
    writeFileSync(
      file,
      JSON.stringify(
        recorded("loca.ledger_flags", "ptc", [
          ["programmatic_tool_call", { code: flagInCode }],
          ["claim_done", { answer: "flagged" }],
        ]),
      ),
    );
    const outDir = join(scratch, "cli-eval");
    const common = ["--suite", `loca-bench:${fixture}`, "--no-builtin", "--tasks", "loca.ledger_flags"];
    const environment = {
      ...process.env,
      PROGAGENT_LOCA_PYTHON: python,
      PYTHONPATH: standIn,
      PROGAGENT_CACHE_DIR: cacheDir,
    };
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, [cli, ...args], { timeout: 200_000, env: environment })
        .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
        .catch((error: { code: number; stdout: string; stderr: string }) => error);
    const ran = await run(
      "eval",
      "--model",
      `replay:${file}`,
      "--harness",
      "ptc",
      "--scales",
      "v0",
      "--out",
      outDir,
      ...common,
    );
    expect(ran.code, ran.stderr).toBe(0);
    const report = readFileSync(join(outDir, "report.md"), "utf8");
    expect(report).toContain("LOCA-bench: this run beside the paper");
    expect(report).toMatch(/\| PTC \| 1\.00 \| 1\.00 \|/);
    expect(report).toContain("| ProgAgent-14B | PTC | 64k | 30.7% |");
    expect(report).toMatch(/## What the run cost[\s\S]*\| 1 \| [\d.]+ \| 1 \| [\d.]+ \|/);

    const refused = await run(
      "eval",
      "--model",
      "oracle",
      "--harness",
      "ptc",
      "--scales",
      "v0",
      "--out",
      join(scratch, "cli-oracle"),
      ...common,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--model oracle cannot run loca.ledger_flags: external suites");
  }, 300_000);

  it("refuses --model oracle for external tasks with a clear message", async () => {
    await expect(
      runEvaluation({
        model: "oracle",
        tasks: [flags],
        harnesses: ["ptc"],
        scales: ["v0"],
        samples: 1,
        seed: 0,
        outDir: join(scratch, "oracle"),
        concurrency: 1,
      }),
    ).rejects.toThrow(/--model oracle cannot run loca\.ledger_flags: external suites .* have no oracle/);
  });
});

describe("bad LOCA-bench input is one clear line", () => {
  it("a missing checkout or a wrong layout names the folder and what was expected", async () => {
    await expect(load(join(scratch, "nothing-here"))).rejects.toThrow(
      /not a LOCA-bench checkout .*: no such folder/,
    );
    const noConfigs = fixtureVariant("no-configs", (dir) =>
      rmSync(join(dir, "task-configs"), { recursive: true }),
    );
    await expect(load(noConfigs)).rejects.toThrow(
      /task-configs\/final_8k_set_config\.json is missing .*8cd474d/,
    );
  });

  it("a class that fails to generate fails its episodes with one line, and the run goes on", async () => {
    const root = fixtureVariant("broken-class", (dir) => {
      const path = join(dir, "gem", "envs", "ledger_flags_s2l", "ledger_flags_s2l.py");
      writeFileSync(
        path,
        readFileSync(path, "utf8").replace("entries = make_entries(", "entries = make_entriez("),
      );
    });
    const suite = await load(root);
    const broken = suite.tasks.find((task) => task.id === "loca.ledger_flags")!;
    const error = await prepareExternalInstance(broken, "v0", 0, { cacheDir }).catch(
      (caught: Error) => caught,
    );
    expect(String(error)).toMatch(
      /loca\.ledger_flags \(v0, seed 0\) could not be prepared: .*NameError.*make_entriez/,
    );
    expect(String(error).split("\n")).toHaveLength(1);

    const working = suite.tasks.find((task) => task.id === "loca.ledger_summary")!;
    const file = join(scratch, "summary-ptc.jsonl");
    const writeSummary = [
      "import csv",
      "entries = tools.ledger_list_entries(per_page=50)['entries']",
      "totals = {}",
      "for entry in entries: totals[entry['account']] = totals.get(entry['account'], 0.0) + entry['amount']",
      "with open('summary.csv', 'w', newline='') as handle:",
      "    writer = csv.writer(handle, lineterminator='\\n')",
      "    writer.writerow(['account', 'total'])",
      "    for account in sorted(totals): writer.writerow([account, f'{totals[account]:.2f}'])",
    ].join("\n");
    writeFileSync(
      file,
      JSON.stringify(
        recorded("loca.ledger_summary", "ptc", [
          ["programmatic_tool_call", { code: writeSummary }],
          ["claim_done", { answer: "done" }],
        ]),
      ),
    );
    const outDir = join(scratch, "goes-on");
    const outcome = await runEvaluation({
      model: `replay:${file}`,
      tasks: [broken, working],
      harnesses: ["ptc"],
      scales: ["v0"],
      samples: 1,
      seed: 0,
      outDir,
      concurrency: 1,
    });
    expect(outcome.environmentErrors.map((failure) => failure.episodeId)).toEqual([
      "loca.ledger_flags|v0|ptc|0",
    ]);
    expect(
      readTrajectories(join(outDir, "trajectories.jsonl")).map((line) => [line.task, line.reward]),
    ).toEqual([["loca.ledger_summary", 1]]);
  }, 240_000);
});
