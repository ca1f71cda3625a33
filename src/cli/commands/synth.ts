import type { Command } from "commander";
import { parseChoiceList } from "../../core/index.js";
import { HARNESS_MODES } from "../../envs/names.js";
import {
  addEndpointOptions,
  addForceNewOption,
  endpointFrom,
  parseIntegerOption,
  parseSecondsOption,
  type EndpointOptions,
} from "../options.js";

export function registerSynth(program: Command): void {
  const command = program
    .command("synth")
    .description(
      "Synthesise tasks for a built-in domain: intents -> constructor agent (validated in a sandbox, repaired) -> auditor -> difficulty filter -> a suite folder",
    )
    .requiredOption("--domain <id>", "the built-in domain the tasks build on (unchanged)")
    .requiredOption("--model <spec>", "constructor and intents model: openai:<model> | anthropic:<model>")
    .requiredOption("--out <dir>", "the suite folder to write (re-running with it resumes)")
    .requiredOption("--candidates <n>", "how many candidate tasks (intents) to construct");
  addEndpointOptions(command, { whose: "the constructor's" })
    .option("--max-rounds <r>", "validation rounds per candidate before it is rejected", "5")
    .option("--auditor-model <spec>", "the auditor's model (default: --model, in a separate session)");
  addEndpointOptions(command, { prefix: "auditor", whose: "the auditor's", fallsBack: true }).option(
    "--calibrate-model <spec>",
    "reference model of the difficulty filter (none: no filter)",
  );
  addEndpointOptions(command, { prefix: "calibrate", whose: "the reference model's" })
    .option("--samples <k>", "reference-model samples per task and scale", "8")
    .option("--band <low,high>", "keep a task when its pass rate is strictly inside at every scale", "0,0.8")
    .option("--harness <mode>", "the reference model's harness: dtc, ptc or hybrid", "ptc")
    .option("--suite-name <name>", "the suite's name (default: the --out folder's name)")
    .option("--timeout <s>", "per sandboxed validation or calibration run", "1800");
  addForceNewOption(command, "its report and tasks");
  command.action(async (options: Record<string, string | boolean | undefined>) => {
    const [{ runSynthesis, createClientForSpec, parseBand, totalUsage }] = await Promise.all([
      import("../../synth/index.js"),
    ]);
    const text = (name: string): string | undefined =>
      typeof options[name] === "string" ? options[name] : undefined;
    const endpoint = (spec: string, { baseUrl, apiKeyEnv }: EndpointOptions) => ({
      spec,
      baseUrl: baseUrl ?? null,
      client: createClientForSpec({
        spec,
        ...(baseUrl ? { baseUrl } : {}),
        ...(apiKeyEnv ? { apiKeyEnv } : {}),
      }),
    });
    const constructor = endpointFrom(options);
    const model = String(options.model);
    const auditorSpec = text("auditorModel") ?? model;
    const calibrateSpec = text("calibrateModel");
    const band = parseBand(String(options.band));
    const [harness] = parseChoiceList(String(options.harness), HARNESS_MODES, "harness");
    const outcome = await runSynthesis({
      domain: String(options.domain),
      outDir: String(options.out),
      candidates: parseIntegerOption(String(options.candidates), "--candidates", { min: 1 }),
      maxRounds: parseIntegerOption(String(options.maxRounds), "--max-rounds", { min: 1 }),
      model: endpoint(model, constructor),
      auditor: endpoint(auditorSpec, { ...constructor, ...endpointFrom(options, "auditor") }),
      ...(calibrateSpec
        ? {
            calibration: {
              ...endpoint(calibrateSpec, endpointFrom(options, "calibrate")),
              samples: parseIntegerOption(String(options.samples), "--samples", { min: 1 }),
              band,
              harness: harness!,
            },
          }
        : {}),
      ...(text("suiteName") ? { suiteName: text("suiteName")! } : {}),
      sandboxTimeoutMs: parseSecondsOption(String(options.timeout), "--timeout"),
      ...(options.forceNew ? { forceNew: true } : {}),
      onProgress: (message) => process.stderr.write(`synth: ${message}\n`),
    });
    const usage = totalUsage(outcome.report);
    process.stdout.write(
      `${outcome.accepted.length} of ${outcome.report.candidates.length} candidates accepted${outcome.accepted.length ? `: ${outcome.accepted.join(", ")}` : ""}\n` +
        `model calls ${usage.calls}, prompt tokens ${usage.promptTokens}, completion tokens ${usage.completionTokens}\n` +
        `report: ${outcome.reportPath}\n        ${outcome.markdownPath}\n`,
    );
  });
}
