import type { Command } from "commander";
import { ERROR_CODES, ProgAgentError } from "../../core/index.js";
import {
  addSuiteOptions,
  kernelOptionsFrom,
  parseIntegerOption,
  parseInterfaceOption,
  parsePositiveNumber,
  suiteSelectionFrom,
  waitForShutdown,
} from "../options.js";

export function registerRollout(program: Command): void {
  const rollout = program.command("rollout").description("Episodes for RL trainers");
  addSuiteOptions(rollout.command("serve"))
    .description(
      "Serve task episodes over HTTP JSON for RL trainers (verl, ms-swift): one persistent kernel per episode, the verifier's reward",
    )
    .option("--host <address>", "address to bind (loopback by default)", "127.0.0.1")
    .option("--port <n>", "port (0 picks a free one)", "8700")
    .option("--max-episodes <n>", "live episodes at most; more answer 429 with Retry-After", "1024")
    .option("--idle-timeout <seconds>", "an episode without a request for this long is ended", "600")
    .option("--episode-timeout <seconds>", "wall clock of one episode", "1800")
    .option(
      "--timeout <seconds>",
      "deadline of one code execution or tool call (default: the interface's training deadline, 60 s; paper: 10 s)",
    )
    .option("--terminal", "offer terminal{command} (ls, find, cat in the workspace) in every episode")
    .option("--interface <profile>", "default | paper: how the meta-tools are presented", "default")
    .option("--max-tool-calls <n>", "tool calls per episode", "100")
    .option(
      "--max-turns <n>",
      "turns per episode, unparseable ones included; the next ends it (max_turns)",
      "100",
    )
    .option(
      "--max-history-bytes <n>",
      "bytes of history one episode keeps (messages, tool calls, results); more ends it (max_history_bytes)",
      String(8 * 1024 * 1024),
    )
    .option(
      "--max-total-history-bytes <n>",
      "bytes of history all episodes keep together; a turn past it ends its episode (history_budget) (default: a quarter of the heap)",
    )
    .option(
      "--auth-token-env <NAME>",
      "require 'Authorization: Bearer <token>' with the token from this variable",
    )
    .option(
      "--tokenizer <folder...>",
      "Hugging Face tokenizer folders requests may name for token rendering (the built-in Qwen3 is always served)",
    )
    .option(
      "--tokenizer-threads <n>",
      "worker threads per tokenizer (one starts at first use, more when it is busy); tokenising never runs on the thread that answers requests",
      "2",
    )
    .option("--max-tokenize-chars <n>", "characters /v1/tokenize takes at once; more is a 413", "262144")
    .option("--allowed-host <name...>", "Host header names accepted besides the bound address")
    .option(
      "--warm-kernels <n>",
      "keep this many kernels started ahead (refilled once episode creation pauses for 1 s, e.g. while the trainer updates), so a step's burst of episodes waits for no kernel start",
      "0",
    )
    .option("--interpreter <path>", "Python interpreter for the kernels", "/usr/bin/python3")
    .option("--unsafe-no-sandbox", "DEVELOPMENT ONLY: run model code without bubblewrap")
    .action(async (options: Record<string, unknown>) => {
      const [{ createRolloutService, serveRolloutHttp, startTokenizerWorkers }, { findTaskById, loadTasks }] =
        await Promise.all([import("../../train/index.js"), import("../load-tasks.js")]);
      const suites = suiteSelectionFrom(options);
      // A broken --suite fails at start, not at the first episode.
      if ((suites.suites ?? []).length > 0) await loadTasks("*", suites);
      const integer = (flag: string, value: unknown): number => parseIntegerOption(String(value), flag);
      const port = parseIntegerOption(String(options.port), "--port", { min: 0, max: 65_535 });
      let authToken: string | undefined;
      if (typeof options.authTokenEnv === "string") {
        authToken = process.env[options.authTokenEnv];
        if (!authToken)
          throw new ProgAgentError(
            `--auth-token-env ${options.authTokenEnv}: that variable is not set or empty`,
            {
              code: ERROR_CODES.INVALID_ARGUMENT,
              category: "user",
            },
          );
      }
      const tokenizerThreads = integer("--tokenizer-threads", options.tokenizerThreads);
      const tokenizers = Array.isArray(options.tokenizer) ? options.tokenizer.map(String) : [];
      // Each folder loads in its own threads now, so a bad folder fails the start; the default loads at first use.
      const started = new Map(
        tokenizers.map((folder) => [
          folder,
          startTokenizerWorkers({ tokenizer: folder, threads: tokenizerThreads }),
        ]),
      );
      try {
        await Promise.all([...started.values()].map((tokenizer) => tokenizer.ready));
      } catch (error) {
        await Promise.all([...started.values()].map((tokenizer) => tokenizer.close()));
        throw error;
      }
      const maxEpisodes = integer("--max-episodes", options.maxEpisodes);
      const warmKernels = parseIntegerOption(String(options.warmKernels), "--warm-kernels", {
        min: 0,
        max: maxEpisodes,
      });
      const kernelOptions = kernelOptionsFrom(options);
      const { createKernelPool } = await import("../../kernel/index.js");
      const pool =
        warmKernels > 0
          ? createKernelPool({
              size: warmKernels,
              refillOnAcquire: false,
              refillAfterIdleMs: 1_000,
              kernel: kernelOptions,
            })
          : undefined;
      const service = createRolloutService({
        loadTask: (id) => findTaskById(id, suites),
        maxEpisodes,
        ...(pool ? { pool } : {}),
        limits: {
          idleTimeoutMs: parsePositiveNumber(String(options.idleTimeout), "--idle-timeout") * 1000,
          episodeWallClockMs: parsePositiveNumber(String(options.episodeTimeout), "--episode-timeout") * 1000,
          executionTimeoutMs:
            options.timeout === undefined
              ? undefined
              : parsePositiveNumber(String(options.timeout), "--timeout") * 1000,
          maxToolCalls: integer("--max-tool-calls", options.maxToolCalls),
          maxTokenizeChars: integer("--max-tokenize-chars", options.maxTokenizeChars),
          maxTurns: integer("--max-turns", options.maxTurns),
          maxHistoryBytes: integer("--max-history-bytes", options.maxHistoryBytes),
          ...(options.maxTotalHistoryBytes === undefined
            ? {}
            : { maxTotalHistoryBytes: integer("--max-total-history-bytes", options.maxTotalHistoryBytes) }),
        },
        kernelOptions,
        ...(options.terminal === true ? { terminal: true } : {}),
        interface: parseInterfaceOption(
          typeof options.interface === "string" ? options.interface : undefined,
        ),
        createTokenizer: async (tokenizer) =>
          (tokenizer === undefined ? undefined : started.get(tokenizer)) ??
          startTokenizerWorkers({ tokenizer, threads: tokenizerThreads }),
        tokenizers,
      });
      const host = String(options.host);
      if (!["127.0.0.1", "::1", "localhost"].includes(host) && !authToken)
        process.stderr.write(
          `progagent: warning: serving on ${host} without --auth-token-env; anyone who reaches it can run code in sandboxes\n`,
        );
      const handle = await serveRolloutHttp(service, {
        host,
        port,
        ...(authToken ? { authToken } : {}),
        ...(Array.isArray(options.allowedHost) ? { allowedHosts: options.allowedHost.map(String) } : {}),
        listTasks: async () =>
          (await loadTasks("*", suites)).map((task) => ({ id: task.id, domain: task.domain.id })),
      });
      process.stderr.write(
        `progagent: rollout service at ${handle.url} (OpenAPI: ${handle.url}/openapi.json)\n`,
      );
      if (pool) {
        process.stderr.write(`progagent: starting ${warmKernels} warm kernels\n`);
        const started = Date.now();
        void pool
          .warm()
          .then(() =>
            process.stderr.write(
              `progagent: ${pool.idleCount} warm kernels ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
            ),
          );
      }
      await waitForShutdown();
      await handle.close();
      await service.dispose();
      await Promise.all([...started.values()].map((tokenizer) => tokenizer.close()));
      await pool?.dispose();
    });
}
