/**
 * npm run bench:eval — the oracle policy's throughput per harness and, per scale, the tool-output tokens
 * that enter the context under PTC against DTC (the peer measured in the same run).
 *
 * BENCH_TASKS (glob, default "*") and BENCH_SCALES (default "v0,v1,v2,v3") narrow the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTable } from "../src/cli/format-table.js";
import { parseScaleList, type HarnessMode } from "../src/envs/index.js";
import { runEvaluation } from "../src/eval/index.js";
import { readTrajectories, type Trajectory } from "../src/harness/index.js";
import { loadSuite } from "../src/suite/index.js";
import { formatNumber } from "./stats.js";

const tasks = await loadSuite(process.env.BENCH_TASKS ?? "*");
const scales = parseScaleList(process.env.BENCH_SCALES ?? "v0,v1,v2,v3");
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 2);
const outRoot = mkdtempSync(join(tmpdir(), "progagent-bench-eval-"));
const trajectories = new Map<HarnessMode, Trajectory[]>();
const throughput: Array<Array<string | number>> = [];

try {
  for (const harness of ["ptc", "dtc"] as const) {
    const outDir = join(outRoot, harness);
    const started = performance.now();
    const outcome = await runEvaluation({
      model: "oracle",
      tasks,
      harnesses: [harness],
      scales,
      samples: 1,
      seed: 0,
      outDir,
      concurrency,
      limits: { maxTurns: 5_000, maxToolCalls: 10_000 },
    });
    const minutes = (performance.now() - started) / 60_000;
    const list = readTrajectories(outcome.trajectoriesPath);
    trajectories.set(harness, list);
    const passed = list.filter((trajectory) => trajectory.reward === 1).length;
    throughput.push([
      harness.toUpperCase(),
      list.length,
      formatNumber(minutes * 60, 1),
      formatNumber(list.length / minutes, 1),
      `${passed}/${list.length}`,
    ]);
  }
} finally {
  rmSync(outRoot, { recursive: true, force: true });
}

const mean = (values: number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
const tokenRows = scales.map((scale) => {
  const of = (harness: HarnessMode) =>
    (trajectories.get(harness) ?? []).filter((trajectory) => trajectory.scale === scale);
  const ptc = mean(of("ptc").map((trajectory) => trajectory.toolOutputTokens));
  const dtc = mean(of("dtc").map((trajectory) => trajectory.toolOutputTokens));
  const ratio = ptc / dtc;
  const contextStops = of("dtc").filter((trajectory) => trajectory.endReason === "context_limit").length;
  return [
    scale,
    formatNumber(ptc, 0),
    formatNumber(dtc, 0),
    `${formatNumber(ratio, 3)}x`,
    scale === "v3" ? (ratio <= 0.1 ? "met (<= 0.1x)" : "missed (<= 0.1x)") : "",
    `${contextStops}/${of("dtc").length}`,
  ];
});

process.stdout.write(
  `\nprogagent eval benchmark: oracle policy, ${tasks.length} tasks x ${scales.length} scales, concurrency ${concurrency}\n\n`,
);
process.stdout.write(
  `${formatTable(["harness", "episodes", "seconds", "episodes/min", "passed"], throughput)}\n`,
);
process.stdout.write(
  "(DTC time includes recording each oracle's direct-call form once per instance, a PTC run.)\n\n",
);
process.stdout.write(
  `${formatTable(["scale", "PTC tool-output tokens", "DTC tool-output tokens", "PTC / DTC", "goal at v3", "DTC context-limit stops"], tokenRows)}\n`,
);
