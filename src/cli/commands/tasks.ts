import type { Command } from "commander";
import type { ValidationRow } from "../../envs/index.js";
import { formatTable } from "../format-table.js";
import { listTasks, loadTaskById, loadTasks } from "../load-tasks.js";
import {
  addSuiteOptions,
  kernelOptionsFrom,
  parseIntegerOption,
  parseScalesOption,
  suiteSelectionFrom,
} from "../options.js";

/** Terminal columns `tasks list` fits its lines to (without --wide). */
const LIST_WIDTH = 100;

export function registerTasks(program: Command): void {
  const tasks = program
    .command("tasks")
    .description("The task suites (built-in and --suite): list, show, build, validate, stats");

  addSuiteOptions(tasks.command("list"))
    .description("List tasks: id, domain, tools, summary")
    .option("--task <glob>", "task id glob", "*")
    .option("--json", "print JSON")
    .option("--wide", "print whole summaries (by default lines fit 100 columns)")
    .action(async (options: Record<string, unknown>) => {
      const { answerFormatOf } = await import("../answer-format.js");
      const listed = await listTasks(String(options.task), suiteSelectionFrom(options));
      const rows = listed.map((task) => ({ ...task, answerFormat: answerFormatOf(task.instruction) }));
      if (options.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      process.stdout.write(
        `${formatTable(
          ["task", "suite", "domain", "domain tools", "summary"],
          rows.map((row) => [row.id, row.suite, row.domain, row.tools.length, row.summary]),
          options.wide === true ? {} : { maxWidth: LIST_WIDTH },
        )}\n`,
      );
    });

  addSuiteOptions(tasks.command("show <id>"))
    .description("Show one task: its instruction, answer format, tools (with Python signatures) and scales")
    .option("--json", "print JSON")
    .action(async (id: string, options: Record<string, unknown>) => {
      const { describeTask, formatTaskDescription } = await import("../describe-task.js");
      const task = await loadTaskById(id, suiteSelectionFrom(options));
      const description = describeTask(task);
      process.stdout.write(
        options.json
          ? `${JSON.stringify(description, null, 2)}\n`
          : `${formatTaskDescription(description)}\n`,
      );
    });

  addSuiteOptions(tasks.command("build"))
    .description("Build (and cache) task instances")
    .option("--task <glob>", "task id glob", "*")
    .option("--scale <list>", "scales, e.g. v0,v1 or all", "all")
    .option("--seed <n>", "seed", "0")
    .action(async (options: Record<string, unknown>) => {
      const { buildInstance } = await import("../../envs/index.js");
      const suite = await loadTasks(String(options.task), suiteSelectionFrom(options));
      const seed = parseIntegerOption(String(options.seed), "--seed", { min: 0 });
      const rows: Array<Array<string | number>> = [];
      for (const task of suite) {
        for (const scale of parseScalesOption(String(options.scale))) {
          const instance = buildInstance(task, scale, seed);
          rows.push([
            task.id,
            scale,
            (instance.stats.dbBytes / 1024).toFixed(1),
            instance.stats.fileCount,
            Object.values(instance.stats.rowsPerTable).reduce((a, b) => a + b, 0),
          ]);
        }
      }
      process.stdout.write(`${formatTable(["task", "scale", "db KB", "files", "rows"], rows)}\n`);
    });

  addSuiteOptions(tasks.command("validate"))
    .description("For every task x scale: the null agent gets 0, the oracle gets 1, every near-miss gets 0")
    .option("--task <glob>", "task id glob", "*")
    .option("--scale <list>", "scales, e.g. v0,v1 or all", "all")
    .option("--seed <n>", "seed", "0")
    .option("--json", "print JSON rows")
    .option("--concurrency <n>", "instances validated at once (each runs its programs in turn)", "2")
    .option("--unsafe-no-sandbox", "DEVELOPMENT ONLY: run programs without bubblewrap")
    .action(async (options: Record<string, unknown>) => {
      const [{ validateTaskInstance }, { createKernelPool }] = await Promise.all([
        import("../../envs/index.js"),
        import("../../kernel/index.js"),
      ]);
      const suite = await loadTasks(String(options.task), suiteSelectionFrom(options));
      const scales = parseScalesOption(String(options.scale));
      const seed = parseIntegerOption(String(options.seed), "--seed", { min: 0 });
      const concurrency = parseIntegerOption(String(options.concurrency), "--concurrency");
      await using pool = createKernelPool({ size: concurrency + 1, kernel: kernelOptionsFrom(options) });
      const jobs = suite.flatMap((task) => scales.map((scale) => ({ task, scale })));
      // Rows keep the suite's order whatever finishes first; a kernel start or a verifier of one instance
      // overlaps another's programs.
      const rows: ValidationRow[] = new Array<ValidationRow>(jobs.length);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < jobs.length) {
          const index = next++;
          const { task, scale } = jobs[index]!;
          const row = await validateTaskInstance(task, scale, seed, { pool });
          rows[index] = row;
          if (!options.json) {
            process.stderr.write(
              `${row.ok ? "ok  " : "FAIL"} ${task.id} ${scale} (${row.oracleToolCalls} oracle calls, ${row.durationMs} ms)\n`,
            );
            for (const problem of row.problems)
              process.stderr.write(`     ${problem.split("\n").join("\n     ")}\n`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, () => worker()));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      } else {
        const table = rows.map((row) => [
          row.task,
          row.scale,
          row.nullReward,
          row.oracleReward,
          row.dtcReplayReward,
          Object.values(row.nearMissRewards).join(","),
          row.oracleToolCalls,
          row.ok ? "ok" : "FAIL",
        ]);
        process.stdout.write(
          `${formatTable(["task", "scale", "null", "oracle", "dtc replay", "near-misses", "oracle calls", "result"], table)}\n`,
        );
        const failed = rows.filter((row) => !row.ok).length;
        process.stdout.write(`\n${rows.length - failed} passed, ${failed} failed\n`);
      }
      if (rows.some((row) => !row.ok)) process.exitCode = 1;
    });

  addSuiteOptions(tasks.command("stats"))
    .description("Per scale: mean database KB and workspace files, beside the paper's")
    .option("--task <glob>", "task id glob", "*")
    .option("--scale <list>", "scales", "all")
    .option("--seed <n>", "seed", "0")
    .option("--json", "print JSON rows")
    .action(async (options: Record<string, unknown>) => {
      const { computeScaleStats } = await import("../../envs/index.js");
      const suite = await loadTasks(String(options.task), suiteSelectionFrom(options));
      const rows = computeScaleStats(
        suite,
        parseScalesOption(String(options.scale)),
        parseIntegerOption(String(options.seed), "--seed", { min: 0 }),
      );
      if (options.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      const table = rows.map((row) => [
        row.scale,
        row.instances,
        row.meanDbKb,
        row.paperDbKb,
        `${Math.round((row.meanDbKb / row.paperDbKb) * 100)}%`,
        row.meanFiles,
        row.paperFiles,
        `${Math.round((row.meanFiles / row.paperFiles) * 100)}%`,
      ]);
      process.stdout.write(
        `${formatTable(["scale", "instances", "mean DB KB", "paper", "ratio", "mean files", "paper", "ratio"], table)}\n`,
      );
    });
}
