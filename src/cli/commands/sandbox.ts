import type { Command } from "commander";
import { formatTable } from "../format-table.js";

/** `progagent sandbox`: which mechanism enforces the sandbox budgets on this host, and how. */
export function registerSandbox(program: Command): void {
  program
    .command("sandbox")
    .description("Show the sandbox budgets (memory, processes, /tmp, workspace) and what enforces them here")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const { DEFAULT_LIMITS, describeSandboxLimits } = await import("../../kernel/index.js");
      const { isTmpfs, scratchDir } = await import("../../core/index.js");
      const report = describeSandboxLimits(DEFAULT_LIMITS);
      const scratch = scratchDir();
      const scratchReport = { ...scratch, tmpfs: isTmpfs(scratch.dir) };
      if (options.json)
        return void process.stdout.write(
          `${JSON.stringify({ ...report, scratch: scratchReport }, null, 2)}\n`,
        );
      process.stdout.write(
        `mechanism: ${report.mechanism} (${report.detail})\n\n${formatTable(
          ["budget", "enforced by"],
          [
            ["memory", report.enforcement.memory],
            ["processes", report.enforcement.processes],
            ["/tmp", report.enforcement.tmp],
            ["workspace", report.enforcement.disk],
            ["system calls", report.seccomp],
            [
              "scratch",
              `episode workspaces and kernel directories in ${scratch.dir} (${scratchReport.tmpfs ? "a tmpfs" : "not a tmpfs"}; ${scratch.reason})`,
            ],
          ],
        )}\n`,
      );
    });
}
