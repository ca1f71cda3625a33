import type { Command } from "commander";
import type {
  prepareExternalInstance,
  ExternalTaskDefinition,
  ExternalValidationRow,
  Scale,
  TaskDefinition,
  ValidationRow,
} from "../../envs/index.js";
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
      const { buildInstance, isExternalTask, prepareExternalInstance } = await import("../../envs/index.js");
      const suite = await loadTasks(String(options.task), suiteSelectionFrom(options));
      const seed = parseIntegerOption(String(options.seed), "--seed", { min: 0 });
      const rows: Array<Array<string | number>> = [];
      for (const task of suite) {
        for (const scale of parseScalesOption(String(options.scale))) {
          if (isExternalTask(task)) {
            rows.push([task.id, scale, ...(await buildExternal(task, scale, seed, prepareExternalInstance))]);
            continue;
          }
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
      const [{ validateInstance }, { createKernelPool }] = await Promise.all([
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
      const rows: Array<ValidationRow | ExternalValidationRow> = new Array<ValidationRow>(jobs.length);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < jobs.length) {
          const index = next++;
          const { task, scale } = jobs[index]!;
          const row = await validateInstance(task, scale, seed, { pool });
          rows[index] = row;
          if (!options.json) {
            process.stderr.write(`${validationLine(row)}\n`);
            for (const problem of row.problems)
              process.stderr.write(`     ${problem.split("\n").join("\n     ")}\n`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, () => worker()));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      } else {
        process.stdout.write(`${formatValidationTables(rows)}\n`);
        const failed = rows.filter((row) => !row.ok).length;
        const skipped = rows.filter((row) => "kind" in row && row.skipped !== undefined).length;
        process.stdout.write(
          `\n${rows.length - failed - skipped} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped (cannot run here)` : ""}\n`,
        );
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
      const { computeScaleStats, isExternalTask } = await import("../../envs/index.js");
      const loaded = await loadTasks(String(options.task), suiteSelectionFrom(options));
      const suite = loaded.filter((task): task is TaskDefinition => !isExternalTask(task));
      if (suite.length < loaded.length)
        process.stderr.write(
          `tasks stats: ${loaded.length - suite.length} external task(s) left out (their state is the suite's own, not a database and files of progagent's)\n`,
        );
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

/** One instance of an external task prepared (generated, or found in the cache): its key and the time taken. */
async function buildExternal(
  task: ExternalTaskDefinition,
  scale: Scale,
  seed: number,
  prepare: typeof prepareExternalInstance,
): Promise<Array<string | number>> {
  if (task.skipped !== undefined) return ["skipped", "-", task.skipped];
  const started = Date.now();
  const instance = await prepare(task, scale, seed);
  return [`instance ${instance.key}`, `${((Date.now() - started) / 1000).toFixed(1)} s`, ""];
}

/** The line `tasks validate` prints as each instance is done. */
function validationLine(row: ValidationRow | ExternalValidationRow): string {
  const external = "kind" in row;
  const status = external && row.skipped !== undefined ? "skip" : row.ok ? "ok  " : "FAIL";
  const facts = external
    ? (row.skipped ?? `${row.durationMs} ms`)
    : `${row.oracleToolCalls} oracle calls, ${row.durationMs} ms`;
  const problems = row.problems.map((problem) => `\n     ${problem.split("\n").join("\n     ")}`).join("");
  return `${status} ${row.task} ${row.scale} (${facts})${problems}`;
}

/** The validation table of built-in tasks, then that of external tasks (what such suites allow). */
function formatValidationTables(rows: ReadonlyArray<ValidationRow | ExternalValidationRow>): string {
  const native = rows.filter((row): row is ValidationRow => !("kind" in row));
  const external = rows.filter((row): row is ExternalValidationRow => "kind" in row);
  const tables: string[] = [];
  if (native.length > 0)
    tables.push(
      formatTable(
        ["task", "scale", "null", "oracle", "dtc replay", "near-misses", "oracle calls", "result"],
        native.map((row) => [
          row.task,
          row.scale,
          row.nullReward,
          row.oracleReward,
          row.dtcReplayReward,
          Object.values(row.nearMissRewards).join(","),
          row.oracleToolCalls,
          row.ok ? "ok" : "FAIL",
        ]),
      ),
    );
  if (external.length > 0)
    tables.push(
      formatTable(
        ["task", "scale", "null", "reference", "perturbed", "result"],
        external.map((row) => [
          row.task,
          row.scale,
          row.nullReward ?? "-",
          row.referenceReward ?? "-",
          row.perturbedReward ?? "-",
          row.skipped !== undefined ? `skipped: ${row.skipped}` : row.ok ? "ok" : "FAIL",
        ]),
      ),
    );
  return tables.join("\n\n");
}
