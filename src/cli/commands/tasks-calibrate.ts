import type { Command } from "commander";
import { resolve } from "node:path";
import { ERROR_CODES, ProgAgentError, parseChoiceList } from "../../core/index.js";
import { HARNESS_MODES, SCALES } from "../../envs/names.js";
import { formatTable } from "../format-table.js";
import { loadTasks } from "../load-tasks.js";
import {
  addForceNewOption,
  addModelOptions,
  addSuiteOptions,
  modelRunFrom,
  parseIntegerOption,
  parseScalesOption,
  suiteSelectionFrom,
} from "../options.js";
import { summarizeModelErrors } from "./eval.js";

/** `progagent tasks calibrate`: the difficulty filter over any suite (added to the `tasks` command). */
export function registerTasksCalibrate(program: Command): void {
  const tasks = program.commands.find((command) => command.name() === "tasks");
  if (!tasks) throw new Error("registerTasksCalibrate needs the tasks command registered first");
  const command = addSuiteOptions(tasks.command("calibrate"))
    .description(
      "Run a reference model on tasks and keep those whose pass rate is strictly inside --band at every scale",
    )
    .requiredOption("--model <spec>", "openai:<model> | anthropic:<model> (or oracle, replay:<file>)")
    .option("--tasks <glob>", "task id glob", "*")
    .option("--samples <k>", "samples per task and scale", "8")
    .option("--scales <list>", "v0,v1,v2,v3 or all", "all")
    .option("--band <low,high>", "the pass-rate band (exclusive)", "0,0.8")
    .option("--harness <mode>", "dtc, ptc or hybrid", "ptc")
    .option("--out <dir>", "run directory (re-running with it resumes)", "runs/calibrate");
  addForceNewOption(addModelOptions(command), "its episodes")
    .option("--json", "print the rows as JSON")
    .action(async (options: Record<string, unknown>) => {
      const { calibrateSuite, parseBand } = await import("../../synth/index.js");
      const band = parseBand(String(options.band));
      const [harness] = parseChoiceList(String(options.harness), HARNESS_MODES, "harness");
      const scales = parseScalesOption(String(options.scales), SCALES);
      const run = modelRunFrom(options);
      const selected = await loadTasks(String(options.tasks), suiteSelectionFrom(options));
      const outcome = await calibrateSuite({
        tasks: selected,
        model: String(options.model),
        harness: harness!,
        scales,
        samples: parseIntegerOption(String(options.samples), "--samples", { min: 1 }),
        band,
        outDir: String(options.out),
        seed: run.seed,
        concurrency: run.concurrency,
        modelOptions: run.modelOptions,
        ...(run.maxTurns === undefined ? {} : { limits: { maxTurns: run.maxTurns } }),
        ...(run.temperature === undefined ? {} : { temperature: run.temperature }),
        ...(options.forceNew ? { forceNew: true } : {}),
      });
      if (options.json) process.stdout.write(`${JSON.stringify(outcome.rows, null, 2)}\n`);
      else {
        const format = (rate: number | null | undefined): string =>
          rate === null || rate === undefined ? "-" : rate.toFixed(2);
        process.stdout.write(
          `${formatTable(
            ["task", ...scales, "kept", "reason"],
            outcome.rows.map((row) => [
              row.task,
              ...scales.map((scale) => format(row.passRates[scale])),
              row.kept ? "yes" : "no",
              row.kept ? "" : row.reason,
            ]),
          )}\n\n${outcome.kept.length} of ${outcome.rows.length} tasks kept; ${resolve(outcome.path)}\n`,
        );
      }
      if (outcome.modelErrors.length > 0)
        throw new ProgAgentError(
          `${summarizeModelErrors(outcome.modelErrors, outcome.episodes)}; pass rates leave them out: fix the endpoint and re-run the same command to retry them`,
          { code: ERROR_CODES.MODEL_ERRORS, category: "upstream" },
        );
    });
}
