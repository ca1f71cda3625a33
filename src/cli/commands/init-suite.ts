import type { Command } from "commander";
import { relative } from "node:path";

export function registerInitSuite(program: Command): void {
  program
    .command("init-suite <dir>")
    .description(
      "Write a small, complete example suite (one domain, one task, every line commented) to start your own from",
    )
    .option("--name <name>", "the suite's name (default: the folder's name)")
    .action(async (dir: string, options: { name?: string }) => {
      const { writeSuiteTemplate } = await import("../../suite/index.js");
      const written = writeSuiteTemplate(dir, options.name === undefined ? {} : { name: options.name });
      const shown = relative(process.cwd(), written.dir) || ".";
      const suite = shown.startsWith(".") || shown.startsWith("/") ? shown : `./${shown}`;
      process.stdout.write(
        `wrote suite '${written.name}' to ${written.dir}:\n${written.files.map((file) => `  ${file}`).join("\n")}\n\n` +
          `next:\n  npx progagent tasks validate --suite ${suite} --no-builtin\n  npx progagent tasks show lending.late-fees --suite ${suite}\n`,
      );
    });
}
