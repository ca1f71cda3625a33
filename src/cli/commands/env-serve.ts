import type { Command } from "commander";
import { ERROR_CODES, ProgAgentError } from "../../core/index.js";
import { loadTaskById } from "../load-tasks.js";
import {
  addEpisodeInterfaceOptions,
  addSuiteOptions,
  kernelOptionsFrom,
  parseIntegerOption,
  parseInterfaceOption,
  parseScaleOption,
  parseSecondsOption,
  suiteSelectionFrom,
  waitForShutdown,
} from "../options.js";

export function registerEnvServe(program: Command): void {
  const env = program.command("env").description("Serve task episodes");
  const serve = addSuiteOptions(env.command("serve"))
    .description(
      "Serve one episode as an MCP server over stdio (DTC: task tools; PTC: programmatic_tool_call; hybrid: both; claim_done always)",
    )
    .requiredOption("--task <id>", "task id")
    .option("--scale <scale>", "v0..v3", "v0")
    .option("--seed <n>", "seed", "0")
    .option("--mode <mode>", "dtc | ptc | hybrid", "ptc");
  addEpisodeInterfaceOptions(serve, "execution or terminal command", "in")
    .option("--unsafe-no-sandbox", "DEVELOPMENT ONLY: run model code without bubblewrap")
    .action(async (options: Record<string, unknown>) => {
      const [{ createEpisode, episodeMcpSession, harnessModeSchema, interfaceProfile }, { serveStdio }] =
        await Promise.all([import("../../envs/index.js"), import("../../runtime/index.js")]);
      const task = await loadTaskById(String(options.task), suiteSelectionFrom(options));
      const parsedMode = harnessModeSchema.safeParse(options.mode);
      if (!parsedMode.success)
        throw new ProgAgentError(`--mode expects dtc, ptc or hybrid, got '${String(options.mode)}'`, {
          code: ERROR_CODES.INVALID_ARGUMENT,
          category: "user",
        });
      const scale = parseScaleOption(String(options.scale));
      const seed = parseIntegerOption(String(options.seed), "--seed", { min: 0 });
      const profileName = parseInterfaceOption(
        typeof options.interface === "string" ? options.interface : undefined,
      );
      const profile = interfaceProfile(profileName);
      const terminal = options.terminal === true || profile.terminalByDefault;
      const timeoutMs =
        typeof options.timeout === "string"
          ? parseSecondsOption(options.timeout, "--timeout")
          : profile.executionTimeoutMs.evaluation;
      const controller = new AbortController();
      void waitForShutdown().then(() => controller.abort());
      await serveStdio(async () => {
        const episode = await createEpisode(task, scale, seed, {
          withKernel: parsedMode.data !== "dtc" || terminal,
          mode: parsedMode.data,
          kernelOptions: { ...kernelOptionsFrom(options), timeoutMs },
        });
        return episodeMcpSession(episode, parsedMode.data, {
          timeoutMs,
          interface: profileName,
          terminal,
          revealVerdict: options.revealVerdict === true,
        });
      }, controller.signal);
    });
}
