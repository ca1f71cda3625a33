/**
 * npm run bench:scale — the runtime at RL scale (issue 8), in one run:
 *
 * 1. Live episodes: for N = 16, 64, 256, 512, 1024, 2048, N episodes (`createEpisode` at v3, each with a
 *    sandboxed kernel) opened in one burst, then one program with one tool call in each. Prints the open
 *    time, first-execute p50/p95 (from the start of the burst), host RSS, RSS and PSS per idle episode
 *    (kernel processes), processes and host fds per episode, and failures, beside the issue's figures.
 *    Stops before a burst would take available memory under 4 GB, and says so.
 *    Then, for --pool-sizes (default 512), the same burst drawing its kernels from a warm pool
 *    (`createKernelPool({ refillOnAcquire: false })`) filled beforehand, as a rollout service fills it between
 *    training steps: the fill's time and CPU are printed beside the burst's.
 * 2. Leak check: episodes opened, executed and disposed one after another; host RSS, fds, child processes
 *    and temp dirs at the start, along the way and at the end.
 * 3. Tool calls and DTC vs PTC (bench/scale/tools.ts and bench/scale/eval.ts), when those files exist.
 *
 * Options: --sizes 16,64,... (default all six)  --leak <episodes> (default 1000; the issue's check is 10000)
 *          --memory-per-episode <MB> (default 8: the first estimate of what a burst needs; later bursts are
 *          estimated from the earlier bursts' peaks, see memoryEstimate)
 *          --pool-sizes 512,... (warm-pool bursts; default 512; 0 for none)
 *          --sections live,leak,tools,eval (default all)  --quick (smaller tool and eval sections)
 *          --launcher bwrap|template (how kernels start; default PROGAGENT_KERNEL_LAUNCHER, else bwrap)
 */
import { existsSync, readFileSync, readdirSync, statfsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatTable } from "../src/cli/format-table.js";
import { scratchDir, tempDirRoots } from "../src/core/index.js";
import { createEpisode, type Episode, type TaskDefinition } from "../src/envs/index.js";
import { createKernelPool, type KernelPool } from "../src/kernel/index.js";
import { loadSuite } from "../src/suite/index.js";
import { descendants, machineCosts, machineCpuMs, processTable, startStealMeter } from "./proc.js";
import { memoryEstimate } from "./scale/memory.js";
import { formatNumber, percentile } from "./stats.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const SIZES = option("sizes", "16,64,256,512,1024,2048")
  .split(",")
  .map((text) => Number(text.trim()));
if (SIZES.some((size) => !Number.isInteger(size) || size <= 0))
  throw new Error(`--sizes expects positive integers separated by commas, got '${option("sizes", "")}'`);
const POOL_SIZES = option("pool-sizes", "512")
  .split(",")
  .map((text) => Number(text.trim()))
  .filter((size) => size !== 0);
if (POOL_SIZES.some((size) => !Number.isInteger(size) || size < 0))
  throw new Error(
    `--pool-sizes expects positive integers separated by commas (0 for none), got '${option("pool-sizes", "")}'`,
  );
const LEAK_EPISODES = Number(option("leak", "1000"));
if (!Number.isInteger(LEAK_EPISODES) || LEAK_EPISODES < 10)
  throw new Error(`--leak expects an episode count of at least 10, got '${option("leak", "")}'`);
const MEMORY_PER_EPISODE_MB = Number(option("memory-per-episode", "8"));
if (!(MEMORY_PER_EPISODE_MB > 0))
  throw new Error(`--memory-per-episode expects megabytes, got '${option("memory-per-episode", "")}'`);
const SECTIONS = new Set(option("sections", "live,leak,tools,eval").split(","));
const QUICK = args.includes("--quick");
/** --launcher bwrap|template: how the kernels start (PROGAGENT_KERNEL_LAUNCHER; default bwrap). */
const LAUNCHER = option("launcher", process.env.PROGAGENT_KERNEL_LAUNCHER ?? "bwrap");
if (LAUNCHER !== "bwrap" && LAUNCHER !== "template")
  throw new Error(`--launcher expects bwrap or template, got '${LAUNCHER}'`);
process.env.PROGAGENT_KERNEL_LAUNCHER = LAUNCHER;

const TASK_ID = "retail.net-revenue-by-category";
const SCALE = "v3" as const;
const PROGRAM = "customer = tools.get_customer(customer_id=10001)\ncustomer['id']";
/** Available memory a burst must leave. */
const MEMORY_FLOOR_BYTES = 4 * 1024 ** 3;

/** Issue 8's table (before this work, medians of 3 runs), printed as the reference line. */
const REFERENCE: Record<
  number,
  { open: string; first: string; rss: string; failures: string; firstSeconds: [number, number] }
> = {
  512: { open: "3.8 s", first: "7.3 / 7.3 s", rss: "6.3 GB", failures: "0", firstSeconds: [7.3, 7.3] },
  1024: { open: "6-22 s", first: "15-18 s", rss: "12.4 GB", failures: "0-183", firstSeconds: [15, 18] },
  2048: { open: "56 s", first: "65 s", rss: "-", failures: "1687", firstSeconds: [65, 65] },
};

/** How many times faster the p95 first execute is than the figure (a range where the issue has one). */
function ratio(size: number, p95Ms: number): string {
  const reference = REFERENCE[size];
  if (!reference || !Number.isFinite(p95Ms) || p95Ms <= 0) return "";
  const [low, high] = reference.firstSeconds.map((value) => (value * 1000) / p95Ms);
  return low === high ? `${formatNumber(low!, 1)}x` : `${formatNumber(low!, 1)}-${formatNumber(high!, 1)}x`;
}
const REFERENCE_PER_EPISODE = "11.9 MB RSS, 3.9 MB PSS, 2 processes, 5 host fds";

function pssBytes(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function availableBytes(): number {
  const match = /^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync("/proc/meminfo", "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}

function hostRssBytes(): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}

const hostFds = (): number => readdirSync("/proc/self/fd").length;
const tempDirs = (): number => tempDirRoots().reduce((sum, root) => sum + ownTempDirs(root), 0);
function ownTempDirs(parent: string): number {
  try {
    return readdirSync(parent).filter((name) => name.startsWith(`progagent-${process.pid}-`)).length;
  } catch {
    return 0;
  }
}

/** The file system the episodes' directories are on: file creation on tmpfs costs a fraction of ext4's in a burst. */
function fileSystemName(path: string): string {
  const names: Record<number, string> = {
    0x01021994: "tmpfs",
    0xef53: "ext4",
    0x58465342: "xfs",
    0x9123683e: "btrfs",
  };
  try {
    const type = statfsSync(path).type;
    return names[type] ?? `file system type 0x${type.toString(16)}`;
  } catch {
    return "file system unknown";
  }
}

const mb = (bytes: number): string => `${formatNumber(bytes / 1024 ** 2, 1)} MB`;
const gb = (bytes: number): string => `${formatNumber(bytes / 1024 ** 3, 1)} GB`;
const seconds = (ms: number): string => `${formatNumber(ms / 1000, 2)} s`;

interface BurstResult {
  size: number;
  openMs: number;
  firstP50Ms: number;
  firstP95Ms: number;
  hostRssBytes: number;
  /** How much available memory the idle episodes took (MemAvailable before the burst minus at idle). */
  memoryUsedBytes: number;
  /** The most the burst took at any moment (MemAvailable before minus its lowest, sampled every 100 ms). */
  memoryPeakBytes: number;
  rssPerEpisode: number;
  pssPerEpisode: number;
  processesPerEpisode: number;
  fdsPerEpisode: number;
  /** CPU of this process (the event loop and its thread pool) during the burst, per episode. */
  hostCpuMs: number;
  /**
   * CPU the rest of the machine used during the burst, per episode: all CPU time in /proc/stat minus this
   * process's (the kernels, the spawner, the kernel's own threads; and whatever else runs on the machine).
   * Per-process tick counts cannot say it: most kernel processes use less than one 10 ms tick each.
   */
  restCpuMs: number;
  /** The share of the machine's CPU time the hypervisor took during the burst (steal). */
  stealShare: number;
  failures: number;
  reasons: Map<string, number>;
  stoppedForMemory: boolean;
}

function shortReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]!.replace(/\d+/g, "N").slice(0, 120);
}

/**
 * Starts measuring CPU: the returned function gives, since the start, this process's CPU (the event loop and
 * its threads) and the rest of the machine's (all busy time in /proc/stat minus this process's), in ms.
 */
function startCpuMeter(): () => { hostMs: number; restMs: number } {
  const processBefore = process.cpuUsage();
  const machineBefore = machineCpuMs().busyMs;
  return () => {
    const used = process.cpuUsage(processBefore);
    const hostMs = (used.user + used.system) / 1000;
    return { hostMs, restMs: Math.max(0, machineCpuMs().busyMs - machineBefore - hostMs) };
  };
}

/** One burst: N episodes opened at once, then one program with one tool call in each (kernels from `pool` if given). */
async function burst(task: TaskDefinition, size: number, pool?: KernelPool): Promise<BurstResult> {
  const fdsBefore = hostFds();
  const availableBefore = availableBytes();

  const before = new Set(descendants(process.pid).map((info) => info.pid));
  const reasons = new Map<string, number>();
  const fail = (error: unknown): void => {
    const reason = shortReason(error);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  };
  let stoppedForMemory = false;
  const cpu = startCpuMeter();
  const steal = startStealMeter();
  let lowestAvailable = availableBefore;
  const watch = setInterval(() => {
    const available = availableBytes();
    lowestAvailable = Math.min(lowestAvailable, available);
    if (available < MEMORY_FLOOR_BYTES) stoppedForMemory = true;
  }, 100);
  const started = performance.now();
  const episodes: Array<Episode | undefined> = await Promise.all(
    Array.from({ length: size }, (_, index) =>
      createEpisode(task, SCALE, index % 4, { withKernel: true, ...(pool ? { pool } : {}) }).catch(
        (error: unknown) => {
          fail(error);
          return undefined;
        },
      ),
    ),
  );
  const openMs = performance.now() - started;
  const firstMs: number[] = [];
  await Promise.all(
    episodes.map(async (episode) => {
      if (!episode) return;
      if (stoppedForMemory) return;
      try {
        const result = await episode.execute(PROGRAM);
        if (result.status !== "ok" || result.value !== "10001") throw new Error(result.text.slice(0, 200));
        firstMs.push(performance.now() - started);
      } catch (error) {
        fail(error);
      }
    }),
  );
  clearInterval(watch);
  const { hostMs, restMs } = cpu();
  const stealShare = steal();
  // Idle: every kernel has run its program and waits for the next.
  const table = processTable();
  const kernels = descendants(process.pid, table).filter((info) => !before.has(info.pid));
  const live = episodes.filter((episode) => episode !== undefined).length;
  const result: BurstResult = {
    size,
    openMs,
    firstP50Ms: percentile(firstMs, 0.5),
    firstP95Ms: percentile(firstMs, 0.95),
    hostRssBytes: hostRssBytes() + kernels.reduce((sum, info) => sum + info.rssBytes, 0),
    memoryUsedBytes: availableBefore - availableBytes(),
    memoryPeakBytes: availableBefore - lowestAvailable,
    rssPerEpisode: kernels.reduce((sum, info) => sum + info.rssBytes, 0) / Math.max(1, live),
    pssPerEpisode: kernels.reduce((sum, info) => sum + pssBytes(info.pid), 0) / Math.max(1, live),
    processesPerEpisode: kernels.length / Math.max(1, live),
    fdsPerEpisode: (hostFds() - fdsBefore) / Math.max(1, live),
    hostCpuMs: hostMs / size,
    restCpuMs: restMs / size,
    stealShare,
    failures: size - firstMs.length,
    reasons,
    stoppedForMemory,
  };
  await Promise.all(episodes.map(async (episode) => await episode?.dispose()));
  return result;
}

async function liveSection(task: TaskDefinition): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  const notes: string[] = [];
  // Real memory (what MemAvailable lost at the burst's peak), not summed RSS, which counts shared pages many times.
  const peaks: Array<{ size: number; peakBytes: number }> = [];
  for (const size of SIZES) {
    const available = availableBytes();
    const { neededBytes, perEpisodeBytes } = memoryEstimate(peaks, size, MEMORY_PER_EPISODE_MB * 1024 ** 2);
    if (available - neededBytes < MEMORY_FLOOR_BYTES) {
      notes.push(
        `Stopped before N = ${size}: it needs about ${gb(neededBytes)} (${mb(perEpisodeBytes)} per further episode) and ${gb(available)} is available, which would leave less than ${gb(MEMORY_FLOOR_BYTES)}.`,
      );
      break;
    }
    const result = await burst(task, size);
    if (peaks.length > 0)
      notes.push(
        `N = ${size}: estimated ${gb(neededBytes)} at the peak, took ${gb(result.memoryPeakBytes)} (${gb(available)} was available)`,
      );
    peaks.push({ size, peakBytes: result.memoryPeakBytes });
    rows.push([
      size,
      seconds(result.openMs),
      `${seconds(result.firstP50Ms)} / ${seconds(result.firstP95Ms)}`,
      `${gb(result.hostRssBytes)} (${gb(result.memoryUsedBytes)} used)`,
      mb(result.rssPerEpisode),
      mb(result.pssPerEpisode),
      formatNumber(result.processesPerEpisode, 1),
      formatNumber(result.fdsPerEpisode, 1),
      `${formatNumber(result.hostCpuMs, 1)} / ${formatNumber(result.restCpuMs, 1)} ms`,
      `${formatNumber(result.stealShare * 100, 0)}%`,
      result.failures,
      ratio(size, result.firstP95Ms),
    ]);
    const reference = REFERENCE[size];
    if (reference)
      rows.push([
        "  issue 8 (before)",
        reference.open,
        reference.first,
        reference.rss,
        "",
        "",
        "",
        "",
        "",
        "",
        reference.failures,
        "1x",
      ]);
    for (const [reason, count] of result.reasons) notes.push(`N = ${size}: ${count} x ${reason}`);
    if (result.stoppedForMemory) {
      notes.push(
        `N = ${size}: available memory fell under ${gb(MEMORY_FLOOR_BYTES)}; larger bursts skipped.`,
      );
      break;
    }
  }
  const table = formatTable(
    [
      "live episodes",
      "open all",
      "first execute p50 / p95",
      "host + kernels RSS (memory used)",
      "RSS / episode",
      "PSS / episode",
      "processes / episode",
      "host fds / episode",
      "CPU / episode: host / rest",
      "steal",
      "failures",
      "p95 vs issue",
    ],
    rows,
  );
  return [
    `Live episodes: ${TASK_ID} at ${SCALE}, opened in one burst, then one program with one tool call in each (kernels started with ${LAUNCHER})`,
    "(first execute counts from the start of the burst; per-episode figures are the idle kernels' processes;",
    "CPU: this process / the rest of the machine from /proc/stat, from the burst's start to its last first execute;",
    "steal: the share of the machine's CPU time the hypervisor gave to other guests meanwhile;",
    `N episodes done in T seconds on ${availableParallelism()} cores can have spent at most T x ${availableParallelism()} / N of CPU each)`,
    "",
    table,
    `issue 8 per episode (before): ${REFERENCE_PER_EPISODE}`,
    ...notes,
    "",
  ].join("\n");
}

/**
 * Bursts whose kernels come from a warm pool: the pool is filled first (its time and CPU printed), the machine
 * is left a moment to settle, then the same burst as above takes its kernels from the pool, which does not
 * refill meanwhile. This is the case of a rollout service that fills the pool while the trainer updates the
 * model; what the burst still pays is the workspace copy, the state, the tools and the first program.
 */
async function poolSection(task: TaskDefinition): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  const notes: string[] = [];
  for (const size of POOL_SIZES) {
    const available = availableBytes();
    const needed = size * MEMORY_PER_EPISODE_MB * 1024 ** 2 * 2;
    if (available - needed < MEMORY_FLOOR_BYTES) {
      notes.push(`Pool of ${size} skipped: about ${gb(needed)} needed, ${gb(available)} available.`);
      continue;
    }
    const pool = createKernelPool({ size, refillOnAcquire: false });
    try {
      const cpu = startCpuMeter();
      const started = performance.now();
      await pool.warm();
      const fillMs = performance.now() - started;
      const { hostMs, restMs } = cpu();
      const ready = pool.idleCount;
      await new Promise((done) => setTimeout(done, 2000));
      const result = await burst(task, size, pool);
      rows.push([
        size,
        `${seconds(fillMs)} (${ready} ready)`,
        `${formatNumber(hostMs / size, 1)} / ${formatNumber(restMs / size, 1)} ms`,
        seconds(result.openMs),
        `${seconds(result.firstP50Ms)} / ${seconds(result.firstP95Ms)}`,
        `${formatNumber(result.hostCpuMs, 1)} / ${formatNumber(result.restCpuMs, 1)} ms`,
        `${formatNumber(result.stealShare * 100, 0)}%`,
        result.failures,
        ratio(size, result.firstP95Ms),
      ]);
      for (const [reason, count] of result.reasons) notes.push(`pool of ${size}: ${count} x ${reason}`);
    } finally {
      await pool.dispose();
    }
  }
  if (rows.length === 0 && notes.length === 0) return "";
  const table = formatTable(
    [
      "live episodes",
      "pool fill",
      "fill CPU / episode: host / rest",
      "open all",
      "first execute p50 / p95",
      "burst CPU / episode: host / rest",
      "steal",
      "failures",
      "p95 vs issue",
    ],
    rows,
  );
  return [
    `The same bursts with kernels from a warm pool (createKernelPool({ size: N, refillOnAcquire: false }), filled first; kernels started with ${LAUNCHER})`,
    "(first execute counts from the start of the burst, as above; the fill is not in it)",
    "",
    table,
    ...notes,
    "",
  ].join("\n");
}

interface LeakSample {
  episodes: number;
  rssBytes: number;
  heapBytes: number;
  fds: number;
  children: number;
  tempDirs: number;
}

function leakSample(episodes: number): LeakSample {
  return {
    episodes,
    rssBytes: hostRssBytes(),
    heapBytes: process.memoryUsage().heapUsed,
    fds: hostFds(),
    children: descendants(process.pid).length,
    tempDirs: tempDirs(),
  };
}

async function leakSection(task: TaskDefinition): Promise<string> {
  // Warm-up: the first episodes load code, caches and the task instance.
  for (let index = 0; index < 20; index += 1) await oneEpisode(task, index);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const samples = [leakSample(0)];
  const every = Math.max(1, Math.floor(LEAK_EPISODES / 10));
  const started = performance.now();
  for (let index = 1; index <= LEAK_EPISODES; index += 1) {
    await oneEpisode(task, index);
    if (index % every === 0 || index === LEAK_EPISODES) {
      gc?.();
      samples.push(leakSample(index));
    }
  }
  const elapsedMs = performance.now() - started;
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const table = formatTable(
    ["episodes", "host RSS", "heap used", "host fds", "child processes", "temp dirs"],
    samples.map((sample) => [
      sample.episodes,
      mb(sample.rssBytes),
      mb(sample.heapBytes),
      sample.fds,
      sample.children,
      sample.tempDirs,
    ]),
  );
  const verdict =
    last.fds === first.fds && last.children === first.children && last.tempDirs === first.tempDirs
      ? "fds, child processes and temp dirs are back to their starting level"
      : "fds, child processes or temp dirs did NOT return to their starting level";
  return [
    `Leak check: ${LEAK_EPISODES} sequential episodes (open, one program with one tool call, dispose), ${formatNumber(elapsedMs / LEAK_EPISODES, 1)} ms each${gc ? "" : " (run with --expose-gc for exact heap figures)"}`,
    "",
    table,
    `${verdict}; host RSS ${mb(last.rssBytes - first.rssBytes)} from the start, heap ${mb(last.heapBytes - first.heapBytes)}.`,
    "",
  ].join("\n");
}

async function oneEpisode(task: TaskDefinition, index: number): Promise<void> {
  const episode = await createEpisode(task, SCALE, index % 4, { withKernel: true });
  try {
    const result = await episode.execute(PROGRAM);
    if (result.status !== "ok") throw new Error(`episode ${index}: ${result.text.slice(0, 300)}`);
  } finally {
    await episode.dispose();
  }
}

/** The other sections of bench:scale, each a module exporting `run(options): Promise<string>`. */
async function externalSection(name: "tools" | "eval"): Promise<string> {
  const here = dirname(fileURLToPath(import.meta.url));
  const path = join(here, "scale", `${name}.ts`);
  if (!existsSync(path)) return `(${name} section: bench/scale/${name}.ts is not there yet)\n`;
  const module = (await import(pathToFileURL(path).href)) as {
    run(options: { quick?: boolean }): Promise<string>;
  };
  return await module.run({ quick: QUICK });
}

const [task] = await loadSuite(TASK_ID);
if (!task) throw new Error(`task ${TASK_ID} not found`);
process.stdout.write(`progagent scale benchmark (${new Date().toISOString()})\n`);
const scratch = scratchDir();
process.stdout.write(
  `episode workspaces and kernel directories: ${scratch.dir} (${fileSystemName(scratch.dir)}; ${scratch.reason})\n`,
);
process.stdout.write(`${machineCosts()}\n\n`);
// Warm-up outside every measurement: builds the four task instances and runs the one-time sandbox probes.
for (let seed = 0; seed < 4; seed += 1) await oneEpisode(task, seed);
if (SECTIONS.has("live")) {
  process.stdout.write(await liveSection(task));
  const pooled = await poolSection(task);
  if (pooled) process.stdout.write(`\n${pooled}`);
}
if (SECTIONS.has("leak")) process.stdout.write(`\n${await leakSection(task)}`);
if (SECTIONS.has("tools")) process.stdout.write(`\n${await externalSection("tools")}`);
if (SECTIONS.has("eval")) process.stdout.write(`\n${await externalSection("eval")}`);
