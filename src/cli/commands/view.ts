import type { Command } from "commander";
import { ERROR_CODES, ProgAgentError } from "../../core/index.js";
import { parseIntegerOption, waitForShutdown } from "../options.js";

export function registerView(program: Command): void {
  program
    .command("view")
    .description(
      "Browse episodes in a local web page: eval runs, rollout records (rollout serve --record), SFT exports, tasks validate --json output",
    )
    .argument("<inputs...>", "run directories, trajectories.jsonl or export files, validation JSON")
    .option("--port <n>", "port on 127.0.0.1 (0 picks a free one)", "8780")
    .option("--no-token", "no token in the URL: anyone on this machine can open it (a trusted machine only)")
    .option("--no-index-cache", "do not keep the index of large files in ~/.cache/progagent/view")
    .action(async (inputs: string[], options: Record<string, unknown>) => {
      const port = parseIntegerOption(String(options.port), "--port", { min: 0, max: 65_535 });
      const { createEpisodeStore, startViewServer, createAccessToken } = await import("../../view/index.js");
      const store = createEpisodeStore(inputs, options.indexCache === false ? { indexCacheDir: null } : {});
      const server = await startViewServer({
        store,
        port,
        token: options.token === false ? null : createAccessToken(),
      }).catch((error: unknown) => {
        throw new ProgAgentError(`cannot serve on port ${port}: ${(error as Error).message}`, {
          code: ERROR_CODES.INVALID_ARGUMENT,
          category: "user",
          cause: error,
        });
      });
      process.stderr.write(`progagent: viewer at ${server.url}\n`);
      const started = performance.now();
      const stopping = new AbortController();
      const indexing = store.update(stopping.signal).then(() => {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        process.stderr.write(`progagent: ${store.episodeCount} episodes indexed in ${seconds} s\n`);
        for (const source of store.sources) {
          if (source.error) process.stderr.write(`progagent: ${source.input}: ${source.error}\n`);
          for (const entry of source.skipped)
            process.stderr.write(
              `progagent: ${source.input}: skipped ${entry.count} line(s): ${entry.reason} (line ${entry.lines.slice(0, 5).join(", ")}${entry.count > 5 ? ", ..." : ""})\n`,
            );
        }
      });
      await waitForShutdown();
      stopping.abort();
      await server.close();
      await indexing.catch(() => undefined);
    });
}
