/**
 * npm run bench:export [-- <run dir>] — exports the run `npm start` writes (232 episodes) to each SFT format
 * and the whole suite as an RL dataset, printing rows/s and tokens/s.
 *
 * Without an argument it takes the newest `runs/main-*` directory (what `npm start` writes); when there is
 * none it runs the start job first into `runs/main-bench`. Wall time depends on what else the machine runs, so
 * the CPU time of this process is printed beside it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { formatTable } from "../src/cli/format-table.js";
import { loadSuite } from "../src/suite/index.js";
import { exportRl, exportSft, SFT_FORMATS, taskPrompt } from "../src/train/index.js";

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

const cpuSeconds = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

const runDir = resolve(process.argv[2] ?? newestStartRun());
const suite = new Map((await loadSuite("*")).map((task) => [task.id, task]));
const outRoot = mkdtempSync(join(tmpdir(), "progagent-bench-export-"));
const rows: Array<Array<string | number>> = [];
try {
  process.stdout.write(`exporting ${runDir}\n\n`);
  for (const format of SFT_FORMATS) {
    const wallStart = performance.now();
    const cpuStart = cpuSeconds();
    const summary = exportSft({
      inputs: [runDir],
      format,
      outPath: join(outRoot, `sft-${format}.${format === "verl" ? "parquet" : "jsonl"}`),
      valShare: 0.1,
      toolsFor: (task, harness) => {
        const definition = suite.get(task);
        return definition ? taskPrompt(definition, harness).tools : undefined;
      },
    });
    const seconds = (performance.now() - wallStart) / 1000;
    rows.push([
      `sft ${format}`,
      summary.episodesRead,
      summary.kept,
      seconds.toFixed(1),
      (cpuSeconds() - cpuStart).toFixed(1),
      Math.round(summary.kept / seconds),
      Math.round(summary.tokensPerRow.total / seconds).toLocaleString("en-US"),
    ]);
  }
  const wallStart = performance.now();
  const cpuStart = cpuSeconds();
  const rl = exportRl({
    tasks: [...suite.values()],
    scales: ["v0", "v1", "v2", "v3"],
    harness: "ptc",
    format: "verl",
    outPath: join(outRoot, "rl.parquet"),
    valShare: 0.1,
  });
  const seconds = (performance.now() - wallStart) / 1000;
  const rlRows = rl.rows.train + rl.rows.val;
  rows.push([
    "rl verl (ptc)",
    "-",
    rlRows,
    seconds.toFixed(1),
    (cpuSeconds() - cpuStart).toFixed(1),
    Math.round(rlRows / seconds),
    Math.round((rl.promptTokens.total * 1) / seconds).toLocaleString("en-US"),
  ]);
  process.stdout.write(
    `${formatTable(["export", "episodes read", "rows", "wall s", "cpu s", "rows/s", "tokens/s"], rows)}\n`,
  );
} finally {
  rmSync(outRoot, { recursive: true, force: true });
}
