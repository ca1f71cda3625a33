#!/usr/bin/env node
import { Command } from "commander";
import { ProgAgentError, errorMessage, exitCodeForError } from "../core/index.js";
import { declarationsFor } from "./declarations.js";

const program = new Command();
program
  .name("progagent")
  .description(
    "Programmatic tool calling: sandboxed Python runtime, verifiable environments, harnesses and evaluation",
  )
  .version("0.1.0");

try {
  for (const register of await declarationsFor(process.argv)) register(program);
  await program.parseAsync(process.argv);
} catch (error) {
  const code = error instanceof ProgAgentError ? ` [${error.code}]` : "";
  process.stderr.write(`progagent: ${errorMessage(error)}${code}\n`);
  if (!(error instanceof ProgAgentError) && process.env.PROGAGENT_DEBUG)
    process.stderr.write(`${(error as Error).stack}\n`);
  process.exitCode = exitCodeForError(error);
}
