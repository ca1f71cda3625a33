import type { Command } from "commander";
import { ERROR_CODES, ProgAgentError } from "../../core/index.js";
import { createEpisode, episodeMcpSession, harnessModeSchema } from "../../envs/index.js";
import { serveStdio } from "../../runtime/index.js";
import { loadSuite } from "../../suite/index.js";
import {
  kernelOptionsFrom,
  parseIntegerOption,
  parseScaleOption,
  parseSecondsOption,
  waitForShutdown,
} from "../options.js";

export function registerEnvServe(program: Command): void {
  const env = program.command("env").description("Serve task episodes");
  env
    .command("serve")
    .description(
      "Serve one episode as an MCP server over stdio (DTC: task tools; PTC: programmatic_tool_call; hybrid: both; claim_done always)",
    )
    .requiredOption("--task <id>", "task id")
    .option("--scale <scale>", "v0..v3", "v0")
    .option("--seed <n>", "seed", "0")
    .option("--mode <mode>", "dtc | ptc | hybrid", "ptc")
    .option("--timeout <seconds>", "per-execution timeout in seconds", "60")
    .option("--unsafe-no-sandbox", "DEVELOPMENT ONLY: run model code without bubblewrap")
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const id = String(options.task);
      const task = (await loadSuite(id)).find((candidate) => candidate.id === id);
      if (!task)
        throw new ProgAgentError(`unknown task '${id}'; see 'progagent tasks list'`, {
          code: ERROR_CODES.TASK_NOT_FOUND,
          category: "user",
        });
      const parsedMode = harnessModeSchema.safeParse(options.mode);
      if (!parsedMode.success)
        throw new ProgAgentError(`--mode expects dtc, ptc or hybrid, got '${String(options.mode)}'`, {
          code: ERROR_CODES.INVALID_ARGUMENT,
          category: "user",
        });
      const scale = parseScaleOption(String(options.scale));
      const timeoutMs = parseSecondsOption(String(options.timeout), "--timeout");
      const seed = parseIntegerOption(String(options.seed), "--seed", { min: 0 });
      const controller = new AbortController();
      void waitForShutdown().then(() => controller.abort());
      await serveStdio(async () => {
        const episode = await createEpisode(task, scale, seed, {
          withKernel: parsedMode.data !== "dtc",
          kernelOptions: { ...kernelOptionsFrom(options), timeoutMs },
        });
        return episodeMcpSession(episode, parsedMode.data, { timeoutMs });
      }, controller.signal);
    });
}
