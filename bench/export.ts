/**
 * npm run bench:export [-- <run dir>] — exports the run `npm start` writes (232 episodes) to each SFT format
 * and the whole suite as an RL dataset, printing rows/s and tokens/s.
 *
 * Without an argument it takes the newest `runs/main-*` directory (what `npm start` writes); when there is
 * none it runs the start job first into `runs/main-bench`. Each export runs in a fresh process through the CLI
 * (tokenizer loading and cold caches included), as a user runs it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { formatTable } from "../src/cli/format-table.js";
import { SFT_FORMATS } from "../src/train/index.js";

function newestStartRun(): string {
  const runs = existsSync("runs")
    ? readdirSync("runs")
        .filter((name) => name.startsWith("main-") && existsSync(join("runs", name, "trajectories.jsonl")))
        .map((name) => join("runs", name))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    : [];
  if (runs[0]) return runs[0];
  process.stdout.write("no runs/main-* directory: running the start job first (npm start)\n");
  execFileSync("npx", ["tsx", "src/cli/main.ts", "start", "--out", "runs/main-bench"], { stdio: "inherit" });
  return "runs/main-bench";
}

const cli = resolve("bin/progagent.js");

/** Runs one export in a fresh process, as a user would: tokenizer loading and cold caches included. */
function timedExport(args: string[]): { seconds: number; output: string } {
  const started = performance.now();
  const output = execFileSync(process.execPath, [cli, "export", ...args], { encoding: "utf8" });
  return { seconds: (performance.now() - started) / 1000, output };
}

const numberAfter = (text: string, pattern: RegExp): number =>
  Number((pattern.exec(text)?.[1] ?? "0").replace(/,/g, ""));

const runDir = resolve(process.argv[2] ?? newestStartRun());
const outRoot = mkdtempSync(join(tmpdir(), "progagent-bench-export-"));
const rows: Array<Array<string | number>> = [];
try {
  process.stdout.write(`exporting ${runDir}\n\n`);
  for (const format of SFT_FORMATS) {
    const out = join(outRoot, `sft-${format}.${format === "verl" ? "parquet" : "jsonl"}`);
    const { seconds, output } = timedExport([
      "sft",
      "--in",
      runDir,
      "--format",
      format,
      "--out",
      out,
      "--val-share",
      "0.1",
    ]);
    process.stdout.write(`$ progagent export sft --format ${format}\n${output}\n`);
    const kept = numberAfter(output, /kept (\d+)/);
    const tokens = numberAfter(output, /; ([\d,]+) tokens,/);
    rows.push([
      `sft ${format}`,
      numberAfter(output, /episodes read (\d+)/),
      kept,
      seconds.toFixed(1),
      Math.round(kept / seconds),
      Math.round(tokens / seconds).toLocaleString("en-US"),
    ]);
  }
  const out = join(outRoot, "rl.parquet");
  const { seconds, output } = timedExport([
    "rl",
    "--tasks",
    "*",
    "--scales",
    "all",
    "--harness",
    "ptc",
    "--format",
    "verl",
    "--out",
    out,
    "--val-share",
    "0.1",
  ]);
  process.stdout.write(`$ progagent export rl --harness ptc\n${output}\n`);
  const rlRows = numberAfter(output, /rows: train (\d+)/) + numberAfter(output, /, val (\d+) \(/);
  rows.push(["rl verl (ptc)", "-", rlRows, seconds.toFixed(1), Math.round(rlRows / seconds), "-"]);
  process.stdout.write(
    `${formatTable(["export", "episodes read", "rows", "wall s", "rows/s", "tokens/s"], rows)}\n`,
  );
} finally {
  rmSync(outRoot, { recursive: true, force: true });
}
