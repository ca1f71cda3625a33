import type { Command } from "commander";
import { DEFAULT_LIMITS, describeSandboxLimits } from "../../kernel/index.js";
import { formatTable } from "../format-table.js";

/** `progagent sandbox`: which mechanism enforces the sandbox budgets on this host, and how. */
export function registerSandbox(program: Command): void {
  program
    .command("sandbox")
    .description("Show the sandbox budgets (memory, processes, /tmp, workspace) and what enforces them here")
    .option("--json", "print JSON")
    .action((options: { json?: boolean }) => {
      const report = describeSandboxLimits(DEFAULT_LIMITS);
      if (options.json) return void process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      process.stdout.write(
        `mechanism: ${report.mechanism} (${report.detail})\n\n${formatTable(
          ["budget", "enforced by"],
          [
            ["memory", report.enforcement.memory],
            ["processes", report.enforcement.processes],
            ["/tmp", report.enforcement.tmp],
            ["workspace", report.enforcement.disk],
            ["system calls", report.seccomp],
          ],
        )}\n`,
      );
    });
}
