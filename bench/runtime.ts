/**
 * npm run bench:runtime — the PTC runtime's latencies, with an ipykernel started through jupyter_client as
 * the peer measured in the same run.
 */
import { spawn, spawnSync } from "node:child_process";
import { z } from "zod";
import { formatTable } from "../src/cli/format-table.js";
import { createKernel, createKernelPool, type KernelStartStage } from "../src/kernel/index.js";
import { bindTool, createPtcSession, defineTool } from "../src/runtime/index.js";
import { formatNumber, percentile } from "./stats.js";

const COLD_SAMPLES = Number(process.env.BENCH_COLD_SAMPLES ?? 30);
const WARM_SAMPLES = Number(process.env.BENCH_WARM_SAMPLES ?? 30);
const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 5000);
const IPYKERNEL_SAMPLES = Number(process.env.BENCH_IPYKERNEL_SAMPLES ?? 5);

/** Where a cold start's time goes: the interval that ends at each stage, then the first program's round. */
const STAGES: Array<{ stage: KernelStartStage | "result"; label: string }> = [
  { stage: "prepared", label: "folders, identity and budget (cgroup) set up" },
  { stage: "turn", label: "place in the start queue" },
  { stage: "forked", label: "spawner fork, bwrap namespaces and mounts, first pids" },
  { stage: "ready", label: "interpreter start, bootstrap imports, ready signal" },
  { stage: "budgeted", label: "cgroup join and attach check" },
  { stage: "result", label: "first execute round (`1`)" },
];

interface ColdStart {
  totalMs: number;
  stageMs: Map<string, number>;
}

async function coldStarts(): Promise<ColdStart[]> {
  const starts: ColdStart[] = [];
  for (let index = 0; index < COLD_SAMPLES; index += 1) {
    const marks = new Map<string, number>();
    const started = performance.now();
    const kernel = createKernel({ onStartStage: (stage, atMs) => marks.set(stage, atMs) });
    const result = await kernel.execute("1");
    marks.set("result", performance.now());
    if (result.value !== "1") throw new Error(`unexpected cold-start result: ${result.text}`);
    const stageMs = new Map<string, number>();
    let previous = started;
    for (const { stage } of STAGES) {
      const at = marks.get(stage);
      if (at === undefined) throw new Error(`cold start passed no '${stage}' stage`);
      stageMs.set(stage, at - previous);
      previous = at;
    }
    starts.push({ totalMs: marks.get("result")! - started, stageMs });
    await kernel.dispose();
  }
  return starts;
}

/** The floor: the same interpreter started as bare as bubblewrap allows, from this process, in this run. */
async function floorStarts(withBwrap: boolean): Promise<number[]> {
  const python = ["/usr/bin/python3", "-I", "-S", "-c", "pass"];
  const bwrap = [
    "bwrap",
    "--unshare-all",
    "--die-with-parent",
    "--ro-bind",
    "/usr",
    "/usr",
    ...["lib", "lib64", "bin"].flatMap((name) => ["--symlink", `usr/${name}`, `/${name}`]),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
  ];
  const argv = withBwrap ? [...bwrap, ...python] : python;
  const times: number[] = [];
  for (let index = 0; index < COLD_SAMPLES; index += 1) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`floor start exited with ${code}: ${stderr.slice(-300)}`));
      });
    });
    times.push(performance.now() - started);
  }
  return times;
}

async function warmAcquires(): Promise<number[]> {
  const times: number[] = [];
  await using pool = createKernelPool({ size: 2 });
  for (let index = 0; index < WARM_SAMPLES; index += 1) {
    await pool.warm();
    const started = performance.now();
    const kernel = await pool.acquire();
    await kernel.execute("1");
    times.push(performance.now() - started);
    await kernel.dispose();
  }
  return times;
}

async function toolRoundTrips(): Promise<{ p50Ms: number; p95Ms: number; callsPerSecond: number }> {
  const noop = defineTool({
    name: "noop",
    description: "Does nothing.",
    kind: "read",
    inputSchema: z.object({}),
    handler: () => ({}),
  });
  await using session = createPtcSession({ endpoints: [bindTool(noop, {})] });
  const code = [
    "import time",
    "samples = []",
    "started = time.perf_counter()",
    `for _ in range(${ROUND_TRIPS}):`,
    "    t = time.perf_counter_ns()",
    "    tools.noop()",
    "    samples.append(time.perf_counter_ns() - t)",
    "elapsed = time.perf_counter() - started",
    "samples.sort()",
    "print(samples[len(samples) // 2] / 1e6, samples[int(len(samples) * 0.95)] / 1e6, len(samples) / elapsed)",
  ].join("\n");
  await session.run("tools.noop()");
  const result = await session.run(code, { timeoutMs: 120_000 });
  const [p50Ms, p95Ms, callsPerSecond] = result.stdout.trim().split(/\s+/).map(Number);
  return { p50Ms: p50Ms!, p95Ms: p95Ms!, callsPerSecond: callsPerSecond! };
}

async function idleRssMb(): Promise<number> {
  const kernel = createKernel();
  await kernel.execute("pass");
  const result = await kernel.execute(
    "print([line for line in open('/proc/self/status') if line.startswith('VmRSS')][0].split()[1])",
  );
  await kernel.dispose();
  return Number(result.stdout.trim()) / 1024;
}

function ipykernelColdStarts(): { times: number[] } | { skipped: string } {
  const script = `
import json, sys, time
try:
    from jupyter_client.manager import start_new_kernel
except ImportError as error:
    print("RESULT:" + json.dumps({"skipped": "jupyter_client is not installed (apt-get install -y python3-ipykernel python3-jupyter-client): %s" % error}))
    sys.exit(0)
times = []
for _ in range(${IPYKERNEL_SAMPLES}):
    started = time.perf_counter()
    manager, client = start_new_kernel(kernel_name="python3", startup_timeout=60)
    reply = client.execute_interactive("1", timeout=60)
    times.append((time.perf_counter() - started) * 1000)
    client.stop_channels()
    manager.shutdown_kernel(now=True)
print("RESULT:" + json.dumps({"times": times}))
`;
  const run = spawnSync("/usr/bin/python3", ["-c", script], { encoding: "utf8", timeout: 300_000 });
  if (run.status !== 0)
    return { skipped: `ipykernel benchmark failed: ${(run.stderr || run.error?.message || "").slice(-300)}` };
  // execute_interactive echoes the cell's value without a newline, so look for the marker anywhere.
  const start = run.stdout.indexOf("RESULT:");
  if (start < 0) return { skipped: "ipykernel benchmark printed no result" };
  const line = run.stdout.slice(start + "RESULT:".length).split("\n")[0] ?? "{}";
  return JSON.parse(line) as { times: number[] } | { skipped: string };
}

const floor = await floorStarts(true);
const bareInterpreter = await floorStarts(false);
const coldRuns = await coldStarts();
const cold = coldRuns.map((run) => run.totalMs);
const warm = await warmAcquires();
const trips = await toolRoundTrips();
const rss = await idleRssMb();
const ipykernel = ipykernelColdStarts();

const coldP50 = percentile(cold, 0.5);
const floorP50 = percentile(floor, 0.5);
const rows: Array<Array<string | number>> = [
  [
    "floor: bwrap --unshare-all + python3 -I -S -c pass",
    `${formatNumber(floorP50)} ms`,
    `${formatNumber(percentile(floor, 0.95))} ms`,
    "",
    "",
  ],
  [
    "python3 -I -S -c pass without bwrap",
    `${formatNumber(percentile(bareInterpreter, 0.5))} ms`,
    `${formatNumber(percentile(bareInterpreter, 0.95))} ms`,
    "",
    "",
  ],
  [
    "sandboxed kernel cold start -> first result",
    `${formatNumber(coldP50)} ms`,
    `${formatNumber(percentile(cold, 0.95))} ms`,
    "<= 1.5x floor p50",
    `${formatNumber(coldP50 / floorP50, 2)}x the floor: ${coldP50 <= 1.5 * floorP50 ? "met" : "missed"}`,
  ],
  [
    "warm-pool acquire -> first result",
    `${formatNumber(percentile(warm, 0.5))} ms`,
    `${formatNumber(percentile(warm, 0.95))} ms`,
    "<= 2 ms p50",
    percentile(warm, 0.5) <= 2 ? "met" : "missed",
  ],
  [
    "no-op tool round trip from code",
    `${formatNumber(trips.p50Ms, 3)} ms`,
    `${formatNumber(trips.p95Ms, 3)} ms`,
    "<= 0.15 ms p50",
    trips.p50Ms <= 0.15 ? "met" : "missed",
  ],
  ["no-op tool calls per second", formatNumber(trips.callsPerSecond, 0), "", "", ""],
  ["idle kernel RSS (python)", `${formatNumber(rss, 1)} MB`, "", "<= 12 MB", rss <= 12 ? "met" : "missed"],
];
if ("times" in ipykernel) {
  const ipyP50 = percentile(ipykernel.times, 0.5);
  const ratio = ipyP50 / coldP50;
  rows.push([
    "ipykernel cold start (jupyter_client), peer",
    `${formatNumber(ipyP50)} ms`,
    `${formatNumber(percentile(ipykernel.times, 0.95))} ms`,
    "",
    "",
  ]);
  rows.push([
    "cold start speed-up vs ipykernel",
    `${formatNumber(ratio, 1)}x`,
    "",
    ">= 30x",
    ratio >= 30 ? "met" : "missed",
  ]);
} else {
  rows.push(["ipykernel cold start (jupyter_client), peer", "skipped", "", "", ipykernel.skipped]);
}
process.stdout.write(
  `\nprogagent runtime benchmark (${COLD_SAMPLES} cold, ${WARM_SAMPLES} warm, ${ROUND_TRIPS} tool calls)\n\n`,
);
process.stdout.write(`${formatTable(["measure", "p50 / value", "p95", "target", "result"], rows)}\n`);
const stageRows = STAGES.map(({ stage, label }) => {
  const times = coldRuns.map((run) => run.stageMs.get(stage)!);
  const p50 = percentile(times, 0.5);
  return [
    label,
    `${formatNumber(p50, 2)} ms`,
    `${formatNumber(percentile(times, 0.95), 2)} ms`,
    `${formatNumber((100 * p50) / coldP50, 0)}%`,
  ];
});
process.stdout.write(
  `\ncold start by stage (each row the interval ending at that stage; shares of the cold p50)\n\n${formatTable(["stage", "p50", "p95", "share"], stageRows)}\n`,
);
