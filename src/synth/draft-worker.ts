/**
 * The draft worker: the process that loads a synthesised task module and validates or calibrates it. It runs
 * only inside the draft sandbox (`runDraftSandbox`), never on the host: the module is hostile code. Protocol:
 * worker-protocol.ts (requests on stdin, messages on descriptor 3).
 */
import { closeSync, existsSync, mkdtempSync, writeSync } from "node:fs";
import { register } from "node:module";
import { join, resolve as resolvePath } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const PROTOCOL_FD = 3;
// Captured before any draft code runs, so that the draft cannot swap the function the report is written with.
const write = writeSync;
const stringify = JSON.stringify;
const send = (message: unknown): void => {
  write(PROTOCOL_FD, `${stringify(message)}\n`);
};

/** `import ... from "progagent"` in a draft resolves to this package (the draft folder has no node_modules). */
function registerProgagentResolution(): void {
  const sourceEntry = fileURLToPath(new URL("../index.ts", import.meta.url));
  const compiledEntry = fileURLToPath(new URL("../index.js", import.meta.url));
  const target = pathToFileURL(import.meta.url.endsWith(".ts") ? sourceEntry : compiledEntry).href;
  const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === "progagent") return next(${JSON.stringify(target)}, context);
  return next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

async function main(): Promise<void> {
  registerProgagentResolution();
  const [{ loadBuiltinDomain }, protocol, { createKernelPool }, gates] = await Promise.all([
    import("../suite/index.js"),
    import("./worker-protocol.js"),
    import("../kernel/index.js"),
    import("./draft-gates.js"),
  ]);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let requestLine: ((line: string) => void) | undefined;
  const firstLine = new Promise<string>((resolve) => (requestLine = resolve));
  lines.on("line", (line) => {
    if (requestLine) {
      const resolve = requestLine;
      requestLine = undefined;
      resolve(line);
      return;
    }
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      return;
    }
    const parsed = protocol.hostMessageSchema.safeParse(data);
    if (parsed.success && "type" in parsed.data) {
      const answer = waiting.get(parsed.data.id);
      waiting.delete(parsed.data.id);
      answer?.(parsed.data);
    }
  });
  const request = protocol.workerRequestSchema.parse(JSON.parse(await firstLine));
  const modulePath = resolvePath(process.cwd(), request.module);
  const loadTask = async (): Promise<unknown> => {
    if (!existsSync(modulePath)) throw new Error(`${request.module} does not exist in the draft folder`);
    const loaded = (await import(pathToFileURL(modulePath).href)) as { default?: unknown; task?: unknown };
    return loaded.default ?? loaded.task;
  };
  const domain = await loadBuiltinDomain(request.domain);
  const warnings: string[] = [];
  // The sandbox around this process is the boundary; nested bwrap cannot mount /proc under bwrap's (README).
  const kernel = { unsafeNoSandbox: true, onWarning: (message: string) => void warnings.push(message) };

  if (request.kind === "validate") {
    const pool = createKernelPool({ size: 1, kernel });
    try {
      const cacheDirs: [string, string] = [
        mkdtempSync(join("/tmp", "cache-a-")),
        mkdtempSync(join("/tmp", "cache-b-")),
      ];
      const report = await gates.runDraftGates(loadTask, domain, request, { pool, cacheDirs });
      send({ type: "report", nonce: request.nonce, report });
    } finally {
      await pool.dispose();
    }
    return;
  }

  const [{ runEvaluation }, { readTrajectories }, { passRatesOf }] = await Promise.all([
    import("../eval/index.js"),
    import("../harness/index.js"),
    import("./calibration.js"),
  ]);
  let nextId = 0;
  const bridge = {
    name: request.model,
    complete: (completion: {
      messages: unknown[];
      tools: unknown[];
      maxTokens: number;
      temperature?: number;
    }) =>
      new Promise<never>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, (answer) => {
          if (typeof answer.error === "string") reject(new Error(answer.error));
          else
            (resolve as (value: unknown) => void)({
              message: answer.message,
              ...(answer.usage ? { usage: answer.usage } : {}),
              ...(answer.finishReason ? { finishReason: answer.finishReason } : {}),
            });
        });
        send({
          type: "model-request",
          id,
          request: {
            messages: completion.messages,
            tools: completion.tools,
            maxTokens: completion.maxTokens,
            ...(completion.temperature === undefined ? {} : { temperature: completion.temperature }),
          },
        });
      }),
  };
  let task: unknown;
  try {
    task = await loadTask();
  } catch (error) {
    send({
      type: "report",
      nonce: request.nonce,
      report: {
        kind: "calibration",
        passRates: {},
        episodes: 0,
        modelErrors: 0,
        error: `the task module failed to load: ${(error as Error).message}`.slice(0, 20_000),
      },
    });
    return;
  }
  const outDir = mkdtempSync(join("/tmp", "calibration-"));
  const outcome = await runEvaluation({
    tasks: [task as never],
    harnesses: [request.harness],
    scales: request.scales,
    samples: request.samples,
    seed: request.seed,
    model: request.model,
    outDir,
    concurrency: 1,
    clientFactory: async () => bridge,
    limits: { maxTurns: request.maxTurns, maxTokensPerTurn: request.maxTokensPerTurn },
    kernelOptions: kernel,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  });
  const trajectories = readTrajectories(outcome.trajectoriesPath);
  const rates = passRatesOf(trajectories, request.scales);
  send({
    type: "report",
    nonce: request.nonce,
    report: {
      kind: "calibration",
      passRates: rates.passRates,
      episodes: trajectories.length,
      modelErrors: rates.modelErrors,
    },
  });
}

main().then(
  () => {
    closeSync(PROTOCOL_FD);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`draft worker failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
