/**
 * The hostile client of the hostile-neighbour bench, in a thread of its own: building a 15 MiB body or a JSON text
 * two million levels deep takes client time, which must not delay the neighbours' measurements in the main thread.
 * Repeats one attack (or all, in turn) until told to stop; posts how many it completed after each.
 */
import { parentPort, workerData } from "node:worker_threads";
import { attacks, holdSlowloris, type HostileService } from "./rollout-hostile-attacks.js";

const port = parentPort;
if (!port) throw new Error("rollout-hostile-client runs in a worker thread");
const { service, attack, slowloris } = workerData as {
  service: HostileService;
  /** An attack's name, or undefined for all of them in turn. */
  attack: string | undefined;
  slowloris: number;
};
const chosen = attacks().filter((candidate) => attack === undefined || candidate.name === attack);
if (chosen.length === 0) throw new Error(`no attack named ${attack}`);
let stopped = false;
port.on("message", () => (stopped = true));
const held = slowloris > 0 ? holdSlowloris(service, slowloris) : undefined;
let done = 0;
while (!stopped) {
  for (const { run } of chosen) await run(service).catch(() => undefined);
  done += 1;
  port.postMessage({ done });
}
held?.stop();
port.postMessage({ done, stopped: true });
