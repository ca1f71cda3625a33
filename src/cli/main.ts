#!/usr/bin/env node
import { Command } from "commander";
import { ProgAgentError, errorMessage, exitCodeForError } from "../core/index.js";
import { registerEnvServe } from "./commands/env-serve.js";
import { registerEval } from "./commands/eval.js";
import { registerInitSuite } from "./commands/init-suite.js";
import { registerRollout } from "./commands/rollout.js";
import { registerSandbox } from "./commands/sandbox.js";
import { registerExport } from "./commands/export.js";
import { registerServe } from "./commands/serve.js";
import { registerSynth } from "./commands/synth.js";
import { registerTasks } from "./commands/tasks.js";
import { registerTasksCalibrate } from "./commands/tasks-calibrate.js";

const program = new Command();
program
  .name("progagent")
  .description(
    "Programmatic tool calling: sandboxed Python runtime, verifiable environments, harnesses and evaluation",
  )
  .version("0.1.0");
registerServe(program);
registerTasks(program);
registerTasksCalibrate(program);
registerEnvServe(program);
registerEval(program);
registerRollout(program);
registerSandbox(program);
registerExport(program);
registerInitSuite(program);
registerSynth(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const code = error instanceof ProgAgentError ? ` [${error.code}]` : "";
  process.stderr.write(`progagent: ${errorMessage(error)}${code}\n`);
  if (!(error instanceof ProgAgentError) && process.env.PROGAGENT_DEBUG)
    process.stderr.write(`${(error as Error).stack}\n`);
  process.exitCode = exitCodeForError(error);
}
