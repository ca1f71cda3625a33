/**
 * `npm run test:loca -- <LOCA-bench checkout> [--sizes 8k,64k] [--seed 0] [--tasks <glob>] [--json <file>]`
 *
 * Runs the LOCA-bench adapter against a real checkout (what CI cannot: it has no network to fetch one). For every
 * class and size: the instance is generated (timed), the null agent must score 0, and where the ground truth is
 * a workspace file, the ground truth must score 1 and a copy with one row dropped 0, all through progagent's
 * verdict path; a class whose servers cannot start here is reported as skipped, with the reason. Then a PTC
 * program calls the canvas server's tools (native Python values) and searches the sandbox for the ground truth
 * and the mock databases (it must find nothing). Prints a table; exit code 1 when a check failed.
 *
 * Without the MCP Python SDK (`mcp`) for the chosen Python (PROGAGENT_LOCA_PYTHON, default python3), the
 * repository's stand-in (test/fixtures/python-mcp-standin) is put on PYTHONPATH, and the output says so.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { globToRegExp } from "../src/core/index.js";
import { LOCA_CHECKED_COMMIT, LOCA_SIZES, loadLocaBench } from "../src/benchmarks/loca-bench/index.js";
import {
  createEpisode,
  createEpisodeDriver,
  prepareExternalInstance,
  validateExternalInstance,
  type ExternalTaskDefinition,
  type ExternalValidationRow,
  type Scale,
} from "../src/envs/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STAND_IN = join(root, "test", "fixtures", "python-mcp-standin");

interface Arguments {
  checkout: string;
  sizes: string[];
  seed: number;
  /** A task id glob (`loca.canvas_*`); default every class. */
  tasks: string;
  json?: string;
}

function parseArguments(argv: readonly string[]): Arguments {
  const [checkout, ...rest] = argv;
  if (!checkout || checkout.startsWith("--"))
    throw new Error(
      "usage: npm run test:loca -- <LOCA-bench checkout> [--sizes 8k,64k] [--seed 0] [--json <file>]",
    );
  const value = (flag: string): string | undefined => {
    const at = rest.indexOf(flag);
    return at < 0 ? undefined : rest[at + 1];
  };
  const sizes = (value("--sizes") ?? "8k,64k").split(",").map((size) => size.trim());
  const known = Object.values(LOCA_SIZES);
  for (const size of sizes) if (!known.includes(size)) throw new Error(`--sizes takes ${known.join(", ")}`);
  const json = value("--json");
  return {
    checkout,
    sizes,
    seed: Number(value("--seed") ?? 0),
    tasks: value("--tasks") ?? "*",
    ...(json ? { json } : {}),
  };
}

/** The stand-in SDK's folder when the chosen Python has no `mcp` of its own. */
function pythonPathFor(python: string): string[] {
  const probe = spawnSync(python, ["-c", "import mcp.server"], { encoding: "utf8" });
  if (probe.status === 0) return [];
  process.stdout.write(`note: ${python} has no MCP Python SDK; using the stand-in in ${STAND_IN}\n`);
  return [STAND_IN];
}

const scaleOf = (size: string): Scale =>
  (Object.entries(LOCA_SIZES) as Array<[Scale, string]>).find(([, name]) => name === size)![0];

interface Row extends ExternalValidationRow {
  size: string;
  generateSeconds: number | null;
}

async function validateClass(task: ExternalTaskDefinition, size: string, seed: number): Promise<Row> {
  const scale = scaleOf(size);
  let generateSeconds: number | null = null;
  const started = performance.now();
  try {
    await prepareExternalInstance(task, scale, seed);
    generateSeconds = (performance.now() - started) / 1000;
  } catch {
    // validateExternalInstance reports it
  }
  return { ...(await validateExternalInstance(task, scale, seed)), size, generateSeconds };
}

/** A PTC program over the canvas server: native values back, and nothing of the hidden state in the sandbox. */
async function probeSandbox(task: ExternalTaskDefinition, size: string, seed: number): Promise<string[]> {
  const episode = await createEpisode(task, scaleOf(size), seed, { withKernel: true, mode: "ptc" });
  const driver = createEpisodeDriver(episode, { mode: "ptc" });
  try {
    const code = [
      "courses = tools.canvas_list_courses()",
      "print('canvas_list_courses ->', type(courses).__name__, len(courses), 'items; first is a', type(courses[0]).__name__ if courses else None)",
      "import os",
      "hits = []",
      "for folder, folders, files in os.walk('/'):",
      "    folders[:] = [name for name in folders if os.path.join(folder, name) not in ('/proc', '/sys')]",
      "    hits += [os.path.join(folder, name) for name in folders + files if 'groundtruth' in name or 'local_db' in name]",
      "print('sandbox search for groundtruth/local_db:', hits)",
    ].join("\n");
    const outcome = await driver.call("programmatic_tool_call", { code });
    return outcome.text.split("\n").filter((line) => line.trim() !== "");
  } finally {
    await driver.dispose();
  }
}

function table(rows: readonly Row[]): string {
  const header = ["task", "size", "generate s", "null", "reference", "perturbed", "result"];
  const lines = rows.map((row) => [
    row.task,
    row.size,
    row.generateSeconds === null ? "-" : row.generateSeconds.toFixed(1),
    String(row.nullReward ?? "-"),
    String(row.referenceReward ?? "-"),
    String(row.perturbedReward ?? "-"),
    row.skipped !== undefined
      ? `skipped: ${row.skipped}${row.ok ? "" : " (and FAILED: " + row.problems.join("; ") + ")"}`
      : row.ok
        ? "ok"
        : `FAIL: ${row.problems.join("; ")}`,
  ]);
  const widths = header.map((name, column) =>
    column === header.length - 1 ? 0 : Math.max(name.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (cells: string[]): string =>
    cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ");
  return [format(header), ...lines.map(format)].join("\n");
}

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const python = process.env.PROGAGENT_LOCA_PYTHON ?? "python3";
  const started = performance.now();
  const loaded = await loadLocaBench(options.checkout, { python, pythonPath: pythonPathFor(python) });
  const selected = globToRegExp(options.tasks);
  const suite = { ...loaded, tasks: loaded.tasks.filter((task) => selected.test(task.id)) };
  process.stdout.write(
    `LOCA-bench checkout ${suite.root} (adapter checked against ${LOCA_CHECKED_COMMIT}): ${suite.tasks.length} classes, sizes ${options.sizes.join(", ")}, seed ${options.seed}, Python ${python}\n`,
  );
  const rows: Row[] = [];
  for (const size of options.sizes)
    for (const task of suite.tasks) {
      const row = await validateClass(task, size, options.seed);
      rows.push(row);
      process.stdout.write(`${row.ok ? (row.skipped ? "skip" : "ok  ") : "FAIL"} ${task.id} ${size}\n`);
    }
  process.stdout.write(`\n${table(rows)}\n\n`);
  const canvas = suite.tasks.find(
    (task) => task.id === "loca.canvas_list_test" && task.skipped === undefined,
  );
  const probes: Record<string, string[]> = {};
  if (canvas)
    for (const size of options.sizes) {
      const lines = await probeSandbox(canvas, size, options.seed);
      probes[size] = lines;
      process.stdout.write(
        `PTC probe (${canvas.id}, ${size}):\n${lines.map((line) => `  ${line}`).join("\n")}\n`,
      );
    }
  else process.stdout.write("PTC probe: loca.canvas_list_test cannot run here (see its row)\n");
  const failed = rows.filter((row) => !row.ok);
  const probeFailed = Object.values(probes).some((lines) => !lines.some((line) => line.endsWith(": []")));
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `\n${rows.length} class x size rows: ${rows.filter((row) => row.ok && !row.skipped).length} ok, ${rows.filter((row) => row.skipped).length} skipped, ${failed.length} failed; ${seconds.toFixed(0)} s\n`,
  );
  if (options.json) writeFileSync(options.json, JSON.stringify({ rows, probes, seconds }, null, 2));
  if (failed.length > 0 || probeFailed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`test:loca: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
