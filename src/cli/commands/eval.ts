import type { Command } from "commander";
import { resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { ERROR_CODES, ProgAgentError, errorMessage, parseChoiceList } from "../../core/index.js";
import type { Task } from "../../envs/index.js";
import { HARNESS_MODES, type HarnessMode } from "../../envs/names.js";
import { DEFAULT_AGENT_LIMITS } from "../../harness/agent-limits.js";
import type { EvaluationOptions } from "../../eval/index.js";
import { loadTasks, type SuiteSelection } from "../load-tasks.js";
import {
  addEpisodeInterfaceOptions,
  addForceNewOption,
  addModelOptions,
  addSuiteOptions,
  kernelOptionsFrom,
  modelRunFrom,
  parseIntegerOption,
  parseInterfaceOption,
  parseScalesOption,
  parseSecondsOption,
  suiteSelectionFrom,
  waitForShutdown,
} from "../options.js";
import { createProgressBar } from "../progress.js";

/** The oracle's direct-call replay sends one call per turn: it needs room at v3 that a model's budget would not give. */
const ORACLE_LIMITS = { maxTurns: 5_000, maxToolCalls: 10_000 };

export function parseHarnessList(text: string): HarnessMode[] {
  return parseChoiceList(text, HARNESS_MODES, "harness");
}

export interface EvaluationCommandInput {
  model: string;
  harnesses: HarnessMode[];
  scales: EvaluationOptions["scales"];
  tasks: string;
  /** Users' suites beside (or instead of) the built-in one. */
  suites?: SuiteSelection;
  samples: number;
  concurrency: number;
  outDir: string;
  seed: number;
  modelOptions?: EvaluationOptions["modelOptions"];
  limits?: EvaluationOptions["limits"];
  kernelOptions?: EvaluationOptions["kernelOptions"];
  temperature?: number;
  revealVerdict?: boolean;
  interface?: EvaluationOptions["interface"];
  terminal?: boolean;
  forceNew?: boolean;
  /** Start a run against a model endpoint without asking (required when standard input is not a terminal). */
  yes?: boolean;
}

const REMOTE_MODEL = /^(openai|anthropic):/;

/**
 * Before a run against a model endpoint: says what will be sent where (episodes, endpoint, an estimate of
 * tokens from the oracle's figures), then asks on a terminal or requires `--yes` elsewhere.
 */
async function confirmRemoteRun(input: EvaluationCommandInput, taskCount: number): Promise<void> {
  if (!REMOTE_MODEL.test(input.model)) return;
  const { estimateRun, formatTokenCount, modelBaseUrl } = await import("../../eval/index.js");
  const estimate = estimateRun({ taskCount, ...input });
  const limits = { ...DEFAULT_AGENT_LIMITS, ...input.limits };
  const endpoint = modelBaseUrl(input.model, input.modelOptions ?? {});
  const plan = [
    `progagent: this run sends up to ${estimate.episodes} episodes to ${input.model} at ${endpoint}`,
    `  ${taskCount} task(s) x ${input.scales.length} scale(s) (${input.scales.join(",")}) x ${input.harnesses.length} harness(es) (${input.harnesses.join(",")}) x ${input.samples} sample(s), ${input.concurrency} at a time; episodes already in ${input.outDir} are skipped`,
    `  estimated: at least ${formatTokenCount(estimate.promptTokens)} prompt and ${formatTokenCount(estimate.completionTokens)} completion tokens (the oracle's own episodes; a model usually needs more turns)`,
    `  per episode at most ${limits.maxTurns} turns, a ${limits.contextWindowTokens}-token context, ${limits.maxTokensPerTurn} tokens per turn`,
  ];
  process.stderr.write(`${plan.join("\n")}\n`);
  if (input.yes) return;
  if (!process.stdin.isTTY)
    throw new ProgAgentError(
      "a run against a model endpoint needs --yes when standard input is not a terminal (see what it would send above)",
      { code: ERROR_CODES.INVALID_ARGUMENT, category: "user" },
    );
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question("Start the run? [y/N] ");
    if (!/^y(es)?$/i.test(answer.trim()))
      throw new ProgAgentError("the run was not started", { code: ERROR_CODES.ABORTED, category: "user" });
  } finally {
    prompt.close();
  }
}

/** `3 of 8 episodes ended with a model error: HTTP 401 ... (x3)`: the distinct errors, most frequent first. */
export function summarizeModelErrors(errors: ReadonlyArray<{ error: string }>, episodes: number): string {
  const counts = new Map<string, number>();
  for (const { error } of errors) {
    const line = error.split("\n")[0]!.trim();
    const key = line.length > 160 ? `${line.slice(0, 157)}...` : line;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const distinct = [...counts.entries()].sort((left, right) => right[1] - left[1]);
  const shown = distinct
    .slice(0, 2)
    .map(([message, count]) => `${message} (x${count})`)
    .join("; ");
  const more = distinct.length > 2 ? `; ${distinct.length - 2} other error(s)` : "";
  return `${errors.length} of ${episodes} episodes ended with a model error: ${shown}${more}`;
}

/**
 * Builds (or finds in the cache) every instance of the run's external tasks before the first episode, timed:
 * the cost of a run's environments, paid once. A task whose instance fails to build is one line and is left
 * out of the run; the others run.
 */
async function prepareExternalInstances(
  tasks: readonly Task[],
  input: Pick<EvaluationCommandInput, "scales" | "seed">,
): Promise<{ prepared: number; seconds: number; failed: Set<string> }> {
  const { isExternalTask, prepareExternalInstance } = await import("../../envs/index.js");
  const external = tasks.filter(isExternalTask).filter((task) => task.skipped === undefined);
  const started = Date.now();
  const failed = new Set<string>();
  let prepared = 0;
  if (external.length > 0)
    process.stderr.write(
      `progagent: preparing ${external.length * input.scales.length} instance(s) of ${external.length} external task(s)\n`,
    );
  for (const task of external)
    for (const scale of input.scales) {
      if (failed.has(task.id)) continue;
      try {
        await prepareExternalInstance(task, scale, input.seed);
        prepared += 1;
      } catch (error) {
        failed.add(task.id);
        process.stderr.write(`progagent: left out ${task.id}: ${errorMessage(error).split("\n")[0]}\n`);
      }
    }
  return { prepared, seconds: (Date.now() - started) / 1000, failed };
}

/** Runs an evaluation with a progress bar, writes the reports, prints the summary; shared by `eval` and `start`. */
export async function runEvaluationCommand(input: EvaluationCommandInput): Promise<void> {
  const { formatSummaryTable, runEvaluation, writeReports, writeRunCost } =
    await import("../../eval/index.js");
  const loaded = await loadTasks(input.tasks, input.suites);
  await confirmRemoteRun(input, loaded.length);
  const preparation = await prepareExternalInstances(loaded, input);
  const tasks = loaded.filter((task) => !preparation.failed.has(task.id));
  const controller = new AbortController();
  void waitForShutdown().then(() => {
    process.stderr.write(
      "\nprogagent: stopping after the running episodes; re-run the same command to resume\n",
    );
    controller.abort();
  });
  const progress = createProgressBar("episodes");
  const started = Date.now();
  let passed = 0;
  let errors = 0;
  const outcome = await runEvaluation({
    ...input,
    tasks,
    preflight: true,
    outDir: input.outDir,
    signal: controller.signal,
    onProgress: ({ done, total, last }) => {
      if (last?.endReason === "model_error") errors += 1;
      else if (last?.reward === 1) passed += 1;
      const outcomeOfLast = last
        ? last.endReason === "model_error"
          ? " last=model_error"
          : ` reward=${last.reward}`
        : "";
      progress.update({
        done,
        total,
        summary: `pass ${passed}/${done - errors}${errors > 0 ? ` err ${errors}` : ""}${outcomeOfLast}`,
        ...(last ? { detail: `${last.task} ${last.scale} ${last.harness}` } : {}),
      });
    },
  });
  progress.finish();
  writeRunCost(input.outDir, {
    preparedInstances: preparation.prepared,
    prepareSeconds: preparation.seconds,
    episodes: outcome.ran,
    runSeconds: (Date.now() - started) / 1000,
  });
  for (const { task, reason } of outcome.skippedTasks)
    process.stderr.write(`progagent: skipped ${task} (cannot run here): ${reason}\n`);
  for (const { episodeId, error } of outcome.environmentErrors)
    process.stderr.write(`progagent: episode ${episodeId} could not start: ${error.split("\n")[0]}\n`);
  const reports = await writeReports(input.outDir);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\n${outcome.ran} episodes run${outcome.retried > 0 ? ` (${outcome.retried} retried after a model error)` : ""}, ${outcome.skipped} already done (resumed), ${outcome.total} in all, in ${seconds} s; model ${input.model}\n\n`,
  );
  process.stdout.write(`${formatSummaryTable(reports.summary)}\n\n`);
  process.stdout.write(
    `report: ${resolve(reports.htmlPath)}\n        ${resolve(reports.markdownPath)}\n        ${resolve(reports.resultsPath)}\n`,
  );
  if (outcome.environmentErrors.length > 0 && outcome.modelErrors.length === 0)
    throw new ProgAgentError(
      `${outcome.environmentErrors.length} episode(s) could not start because their environment failed (listed above); the other episodes ran and are reported: fix the environment and re-run the same command to run them`,
      {
        code: ERROR_CODES.EXTERNAL_ENVIRONMENT_FAILED,
        category: "upstream",
        details: { environmentErrors: outcome.environmentErrors.length },
      },
    );
  if (outcome.modelErrors.length > 0)
    throw new ProgAgentError(
      `${summarizeModelErrors(outcome.modelErrors, outcome.ran)}; they are reported as errors, not failures: fix the endpoint and re-run the same command to retry them`,
      {
        code: ERROR_CODES.MODEL_ERRORS,
        category: "upstream",
        details: { modelErrors: outcome.modelErrors.length, episodes: outcome.ran },
      },
    );
  if (controller.signal.aborted) process.exitCode = 130;
}

export function registerEval(program: Command): void {
  const command = addSuiteOptions(program.command("eval"))
    .description(
      "Evaluate a model (or the oracle / a replay) on the built-in suite (and --suite) under DTC, PTC and Hybrid",
    )
    .requiredOption(
      "--model <spec>",
      "oracle | replay:<trajectories.jsonl> | openai:<model> | anthropic:<model>",
    )
    .option("--harness <list>", "dtc,ptc,hybrid or all", "ptc,dtc")
    .option("--scales <list>", "v0,v1,v2,v3 or all", "all")
    .option("--tasks <glob>", "task id glob", "*")
    .option("--samples <k>", "samples per task x scale x harness", "1")
    .option("--out <dir>", "output directory (re-running with it resumes)", "runs/eval");
  addModelOptions(command)
    .option(
      "--context-window <tokens>",
      `context window in tokens, the context-limit stop (default ${DEFAULT_AGENT_LIMITS.contextWindowTokens})`,
    )
    .option(
      "--max-tokens <n>",
      `max tokens per model turn (default ${DEFAULT_AGENT_LIMITS.maxTokensPerTurn})`,
    );
  addEpisodeInterfaceOptions(command, "code execution or terminal command", "to the model in");
  addForceNewOption(command, "its episodes")
    .option(
      "--yes",
      "with a model endpoint: start without asking (needed when standard input is not a terminal)",
    )
    .option("--unsafe-no-sandbox", "DEVELOPMENT ONLY: run model code without bubblewrap")
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const { interfaceProfile } = await import("../../envs/index.js");
      const text = (name: string): string | undefined =>
        typeof options[name] === "string" ? options[name] : undefined;
      const profile = parseInterfaceOption(text("interface"));
      const run = modelRunFrom(options);
      await runEvaluationCommand({
        model: String(options.model),
        harnesses: parseHarnessList(String(options.harness)),
        scales: parseScalesOption(String(options.scales)),
        tasks: String(options.tasks),
        suites: suiteSelectionFrom(options),
        samples: parseIntegerOption(String(options.samples), "--samples"),
        concurrency: run.concurrency,
        outDir: String(options.out),
        seed: run.seed,
        modelOptions: run.modelOptions,
        limits: {
          ...(String(options.model) === "oracle" ? ORACLE_LIMITS : {}),
          executionTimeoutMs: text("timeout")
            ? parseSecondsOption(text("timeout")!, "--timeout")
            : interfaceProfile(profile).executionTimeoutMs.evaluation,
          ...(run.maxTurns === undefined ? {} : { maxTurns: run.maxTurns }),
          ...(text("contextWindow")
            ? { contextWindowTokens: parseIntegerOption(text("contextWindow")!, "--context-window") }
            : {}),
          ...(text("maxTokens")
            ? { maxTokensPerTurn: parseIntegerOption(text("maxTokens")!, "--max-tokens") }
            : {}),
        },
        kernelOptions: kernelOptionsFrom(options),
        ...(options.forceNew === true ? { forceNew: true } : {}),
        ...(options.yes === true ? { yes: true } : {}),
        ...(run.temperature === undefined ? {} : { temperature: run.temperature }),
        ...(options.revealVerdict === true ? { revealVerdict: true } : {}),
        ...(profile === "default" ? {} : { interface: profile }),
        ...(options.terminal === true ? { terminal: true } : {}),
      });
    });

  program
    .command("report <dir>")
    .description("Render results.json, report.md and report.html again from <dir>/trajectories.jsonl")
    .action(async (dir: string) => {
      const { formatSummaryTable, writeReports } = await import("../../eval/index.js");
      const reports = await writeReports(dir);
      process.stdout.write(
        `${formatSummaryTable(reports.summary)}\n\nreport: ${resolve(reports.htmlPath)}\n`,
      );
    });

  program
    .command("start")
    .description(
      "The main job: the oracle over the whole built-in suite at all four scales under PTC and DTC, with a report",
    )
    .option(
      "--out <dir>",
      "output directory",
      `runs/main-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}`,
    )
    .option("--concurrency <n>", "episodes in parallel", "2")
    .action(async (options: { out: string; concurrency: string }) => {
      process.stdout.write(
        "progagent: running the built-in oracle policy (no model) over the suite at v0..v3 under PTC and DTC\n",
      );
      await runEvaluationCommand({
        model: "oracle",
        harnesses: ["ptc", "dtc"],
        scales: ["v0", "v1", "v2", "v3"],
        tasks: "*",
        samples: 1,
        concurrency: parseIntegerOption(options.concurrency, "--concurrency"),
        outDir: options.out,
        seed: 0,
        limits: ORACLE_LIMITS,
      });
    });
}
