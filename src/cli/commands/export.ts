import type { Command } from "commander";
import type { TaskDefinition } from "../../envs/index.js";
import { createProgressBar } from "../progress.js";
import { ERROR_CODES, ProgAgentError, parseChoiceList } from "../../core/index.js";
import { HARNESS_MODES, SCALES, type HarnessMode } from "../../envs/names.js";
import { RL_FORMATS, SFT_FORMATS, type RlFormat, type SftFormat } from "../../train/formats.js";
import { loadTasks } from "../load-tasks.js";
import { addSuiteOptions, parsePositiveNumber, parseScalesOption, suiteSelectionFrom } from "../options.js";

function parseFormat<Format extends string>(text: string, formats: readonly Format[]): Format {
  if (!(formats as readonly string[]).includes(text))
    throw new ProgAgentError(`unknown --format '${text}': expected one of ${formats.join(", ")}`, {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  return text as Format;
}

function parseShare(text: string): number {
  const share = Number(text);
  if (!(share >= 0 && share < 1))
    throw new ProgAgentError(`--val-share must be a number in [0, 1): got '${text}'`, {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  return share;
}

export function registerExport(program: Command): void {
  const exporter = program.command("export").description("Training data: SFT from runs, RL task datasets");

  addSuiteOptions(exporter.command("sft"))
    .description("Verifier-passing trajectories of runs as SFT data for verl, ms-swift or OpenAI fine-tuning")
    .requiredOption(
      "--in <dirs...>",
      "run directories (the --out of eval or start) or trajectories.jsonl files",
    )
    .requiredOption("--format <format>", SFT_FORMATS.join(" | "))
    .requiredOption(
      "--out <path>",
      "training file (validation: <stem>.val<ext>, manifest: <stem>.manifest.json)",
    )
    .option("--harness <list>", "keep these harnesses: dtc,ptc,hybrid or all", "all")
    .option("--tasks <glob>", "keep tasks matching this glob", "*")
    .option("--scales <list>", "keep these scales: v0,v1,v2,v3 or all", "all")
    .option("--max-tokens <n>", "drop rows longer than n tokens (chat-template tokens)")
    .option("--val-share <share>", "share of tasks held out for validation (by task)", "0")
    .option("--include-failed", "keep episodes the verifier failed")
    .option("--no-dedupe", "keep identical trajectories")
    .option("--tokenizer <dir>", "a Hugging Face tokenizer folder (default: the built-in Qwen3 tokenizer)")
    .action(async (options: Record<string, string | string[] | boolean | undefined>) => {
      const [{ exportSft, formatSftSummary, taskPrompt }, { isExternalTask }] = await Promise.all([
        import("../../train/index.js"),
        import("../../envs/index.js"),
      ]);
      const started = Date.now();
      const format = parseFormat<SftFormat>(String(options.format), SFT_FORMATS);
      const suite = new Map(
        (await loadTasks("*", suiteSelectionFrom(options))).map((task) => [task.id, task]),
      );
      const progress = createProgressBar("rendering episodes");
      const summary = exportSft({
        inputs: options.in as string[],
        format,
        outPath: String(options.out),
        harnesses: parseChoiceList(String(options.harness), HARNESS_MODES, "harness"),
        taskGlob: String(options.tasks),
        scales: parseScalesOption(String(options.scales)),
        ...(typeof options.maxTokens === "string"
          ? { maxTokens: parsePositiveNumber(options.maxTokens, "--max-tokens") }
          : {}),
        valShare: parseShare(String(options.valShare)),
        includeFailed: options.includeFailed === true,
        dedupe: options.dedupe !== false,
        ...(typeof options.tokenizer === "string" ? { tokenizer: options.tokenizer } : {}),
        onProgress: ({ done, total }) => progress.update({ done, total }),
        // schemaVersion 1 trajectories did not record their tools: rebuild them from the suite.
        toolsFor: (task: string, harness: HarnessMode) => {
          const definition = suite.get(task);
          return definition && !isExternalTask(definition)
            ? taskPrompt(definition, harness).tools
            : undefined;
        },
      });
      progress.finish();
      process.stdout.write(`${formatSftSummary(summary, (Date.now() - started) / 1000)}\n`);
    });

  addSuiteOptions(exporter.command("rl"))
    .description(
      "One RL dataset row per task instance (task, scale, seed), split by task: verl parquet or ms-swift JSONL",
    )
    .option("--tasks <glob>", "task id glob", "*")
    .option("--scales <list>", "v0,v1,v2,v3 or all", "all")
    .requiredOption("--harness <mode>", HARNESS_MODES.join(" | "))
    .requiredOption("--format <format>", RL_FORMATS.join(" | "))
    .requiredOption(
      "--out <path>",
      "training file (validation: <stem>.val<ext>, manifest: <stem>.manifest.json)",
    )
    .option("--seeds <list>", "instance seeds, comma-separated", "0")
    .option("--val-share <share>", "share of tasks held out for validation", "0")
    .option("--timeout <seconds>", "per-execution timeout stated in the system prompt", "60")
    .option("--tokenizer <dir>", "a Hugging Face tokenizer folder (for prompt token counts)")
    .action(async (options: Record<string, string | undefined>) => {
      const [{ exportRl, formatRlSummary }, { isExternalTask }] = await Promise.all([
        import("../../train/index.js"),
        import("../../envs/index.js"),
      ]);
      const started = Date.now();
      const format = parseFormat<RlFormat>(String(options.format), RL_FORMATS);
      const [harness] = parseChoiceList(String(options.harness), HARNESS_MODES, "harness");
      if (!harness || String(options.harness).includes(","))
        throw new ProgAgentError("--harness takes one mode: dtc, ptc or hybrid (one dataset per harness)", {
          code: ERROR_CODES.INVALID_ARGUMENT,
          category: "user",
        });
      const selected = await loadTasks(String(options.tasks), suiteSelectionFrom(options));
      const external = selected.filter(isExternalTask);
      if (external.length > 0)
        throw new ProgAgentError(
          `export rl renders each row's prompt without starting an episode, and the tools of external tasks (${external
            .slice(0, 3)
            .map((task) => task.id)
            .join(
              ", ",
            )}${external.length > 3 ? ", ..." : ""}) come from their servers: leave them out with --tasks (export sft takes their trajectories)`,
          { code: ERROR_CODES.INVALID_ARGUMENT, category: "user" },
        );
      const summary = exportRl({
        tasks: selected.filter((task): task is TaskDefinition => !isExternalTask(task)),
        scales: parseScalesOption(String(options.scales), SCALES),
        harness,
        format,
        outPath: String(options.out),
        seeds: String(options.seeds)
          .split(",")
          .map((seed) => parsePositiveNumber(seed.trim(), "--seeds", true)),
        valShare: parseShare(String(options.valShare)),
        timeoutSeconds: parsePositiveNumber(String(options.timeout), "--timeout"),
        ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
      });
      process.stdout.write(`${formatRlSummary(summary, (Date.now() - started) / 1000)}\n`);
    });
}
