/**
 * The "hostile neighbour" part of `npm run bench:rollout`: what the worst client of attacks.md's second review
 * (B1-B6, H2/H4) costs ordinary episodes of the same `rollout serve`. First one neighbour doing no-op prints
 * beside each attack alone (its p99 should stay under 100 ms), then N ordinary episodes stepping at once, with
 * and without a client that cycles through every attack and holds half-sent connections.
 */
import { startModuleWorker } from "../src/core/index.js";
import { attacks, openEpisode, request, type HostileService } from "./rollout-hostile-attacks.js";
import { formatNumber, percentile } from "./stats.js";

export type { HostileService } from "./rollout-hostile-attacks.js";

const PRINT = { calls: [{ name: "programmatic_tool_call", arguments: { code: "print(1)" } }] };

/**
 * A hostile client in its own thread repeating one attack (all in turn when unnamed), optionally holding
 * half-sent connections; `done` counts its completed rounds.
 */
function startAttacker(
  service: HostileService,
  attack: string | undefined,
  slowloris = 0,
): { readonly done: number; stop(): Promise<number> } {
  const worker = startModuleWorker(import.meta.url, "rollout-hostile-client", { service, attack, slowloris });
  let done = 0;
  let settle: (count: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (settle = resolve));
  worker.on("message", (message: { done: number; stopped?: boolean }) => {
    done = message.done;
    if (message.stopped) settle(done);
  });
  worker.on("error", (error) => {
    console.error(`the hostile client failed: ${error.message}`);
    settle(done);
  });
  worker.on("exit", () => settle(done));
  return {
    get done() {
      return done;
    },
    async stop() {
      worker.postMessage("stop");
      const count = await finished;
      await worker.terminate();
      return count;
    },
  };
}

/** Latencies (ms) of sequential no-op prints of one episode: `steps` of them, and more while `until` is false. */
async function printSteps(
  service: HostileService,
  id: string,
  steps: number,
  until: () => boolean = () => true,
): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = performance.now() + 300_000;
  while (latencies.length < steps || (!until() && performance.now() < deadline)) {
    const started = performance.now();
    const answer = await request(service, "POST", `/v1/episodes/${id}/tool_calls`, PRINT);
    if (answer.status !== 200)
      throw new Error(`neighbour step: ${answer.status} ${JSON.stringify(answer.value)}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const latencyCells = (values: number[]): string =>
  `${formatNumber(percentile(values, 0.5), 1)} / ${formatNumber(percentile(values, 0.95), 1)} / ${formatNumber(percentile(values, 0.99), 1)} / ${formatNumber(percentile(values, 1), 1)}`;

/** One neighbour's no-op prints beside each attack alone, and with none. */
async function perAttack(service: HostileService, stepsPerAttack: number): Promise<string[]> {
  const neighbour = await openEpisode(service, "ptc");
  const rows: string[] = [];
  await printSteps(service, neighbour, 5); // warm the kernel
  rows.push(
    `| (none) | 0 | ${stepsPerAttack} | ${latencyCells(await printSteps(service, neighbour, stepsPerAttack))} |`,
  );
  for (const { name } of attacks()) {
    const attacker = startAttacker(service, name);
    // Until the attack has completed twice, so that the steps overlap its costly part whatever its length.
    const latencies = await printSteps(service, neighbour, stepsPerAttack, () => attacker.done >= 2);
    const sent = await attacker.stop();
    rows.push(`| ${name} | ${sent} | ${latencies.length} | ${latencyCells(latencies)} |`);
  }
  await request(service, "DELETE", `/v1/episodes/${neighbour}`);
  return rows;
}

/** N ordinary episodes each making `steps` prints at once (and more while `until` is false); their latencies. */
async function crowd(
  service: HostileService,
  neighbours: number,
  steps: number,
  until: () => boolean = () => true,
): Promise<number[]> {
  const ids = await Promise.all(Array.from({ length: neighbours }, () => openEpisode(service, "ptc")));
  try {
    await Promise.all(ids.map((id) => printSteps(service, id, 1))); // first execution of each kernel
    const all = await Promise.all(ids.map((id) => printSteps(service, id, steps, until)));
    return all.flat();
  } finally {
    await Promise.all(ids.map((id) => request(service, "DELETE", `/v1/episodes/${id}`)));
  }
}

/** The two tables (as lines): one neighbour per attack, then N neighbours without and with the hostile client. */
export async function benchHostileNeighbour(
  service: HostileService,
  options: { neighbours: number; steps: number; stepsPerAttack: number },
): Promise<string[]> {
  const lines = [
    "\nhostile neighbour — one episode's no-op print (PTC) while one client repeats one attack\n",
    "| attack | hostile requests done | neighbour steps | step p50 / p95 / p99 / max (ms) |",
    "|---|---|---|---|",
    ...(await perAttack(service, options.stepsPerAttack)),
  ];
  const quiet = await crowd(service, options.neighbours, options.steps);
  const attacker = startAttacker(service, undefined, 200);
  // Every neighbour keeps stepping until the client has gone through every attack once.
  const loud = await crowd(service, options.neighbours, options.steps, () => attacker.done >= 1);
  const cycles = await attacker.stop();
  lines.push(
    `\nhostile neighbour — ${options.neighbours} PTC episodes x ${options.steps} no-op prints at once, without and with a client cycling through every attack (${cycles} cycles) and holding 200 half-sent connections\n`,
    "| neighbours | hostile client | steps | step p50 / p95 / p99 / max (ms) |",
    "|---|---|---|---|",
    `| ${options.neighbours} | no | ${quiet.length} | ${latencyCells(quiet)} |`,
    `| ${options.neighbours} | yes | ${loud.length} | ${latencyCells(loud)} |`,
  );
  return lines;
}
