import { openSync, writeSync } from "node:fs";
import { createEpisode } from "../src/envs/index.js";
import { loadTaskById } from "../src/cli/load-tasks.js";
const N = Number(process.argv[2] ?? 512);
const ctl = process.env.PERF_CTL ? openSync(process.env.PERF_CTL, "w") : undefined;
const task = await loadTaskById("retail.net-revenue-by-category");
// warm: one episode
{ const e = await createEpisode(task, "v3", 0, { withKernel: true }); await e.execute("1"); await e.dispose(); }
if (ctl !== undefined) writeSync(ctl, "enable\n");
const t0 = performance.now(); const cpu0 = process.cpuUsage();
const eps = await Promise.all(Array.from({ length: N }, (_, i) => createEpisode(task, "v3", i % 4, { withKernel: true })));
const opened = performance.now() - t0;
const firsts: number[] = [];
await Promise.all(eps.map(async (e) => { const r = await e.execute("customer = tools.get_customer(customer_id=10001)\ncustomer['id']"); if (r.status !== "ok") throw new Error(r.text); firsts.push(performance.now() - t0); }));
if (ctl !== undefined) writeSync(ctl, "disable\n");
const cpu = process.cpuUsage(cpu0);
firsts.sort((a, b) => a - b);
console.log(`open ${opened.toFixed(0)} ms p50 ${firsts[Math.floor(N / 2)]!.toFixed(0)} p95 ${firsts[Math.floor(N * 0.95)]!.toFixed(0)} host cpu/ep ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms`);
{
  const { readFileSync, readdirSync } = await import("node:fs");
  const info = new Map<number, { ppid: number; comm: string; ns: number; cns: number }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ns = Number(readFileSync(`/proc/${name}/schedstat`, "utf8").split(" ")[0]);
      const cns = (Number(fields[13]) + Number(fields[14])) * 10e6;
      info.set(Number(name), { ppid: Number(fields[1]), comm, ns, cns });
    } catch {}
  }
  const children = (pid: number) => [...info].filter(([, v]) => v.ppid === pid).map(([k]) => k);
  const groups = new Map<string, { n: number; ms: number; cms: number }>();
  const add = (key: string, pid: number) => { const v = info.get(pid)!; const g = groups.get(key) ?? { n: 0, ms: 0, cms: 0 }; g.n++; g.ms += v.ns / 1e6; g.cms += v.cns / 1e6; groups.set(key, g); };
  for (const spawner of children(process.pid)) {
    add("spawner", spawner);
    for (const c of children(spawner)) {
      const grand = children(c);
      if (grand.length > 1) { add("template", c); continue; }
      add("pid1", c);
      for (const k of grand) add("interpreter", k);
    }
  }
  for (const [k, g] of groups) console.log(`${k}: n=${g.n} cpu total ${g.ms.toFixed(0)} ms (${(g.ms / N).toFixed(2)} ms/episode) reaped children ${(g.cms / N).toFixed(2)} ms/episode`);
}
await Promise.all(eps.map((e) => e.dispose()));
process.exit(0);
