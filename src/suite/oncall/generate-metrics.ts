/** Monitoring exports: two-hourly request counters by status class, with gaps and counter resets. */
import { toCsv } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { HOUR, JUNE_START, isoUtc } from "./clock.js";
import { SLO_TARGETS } from "./world.js";
import type { OncallWorld, Service } from "./world.js";

const SAMPLES = 360;
const CLASSES = ["2xx", "4xx", "5xx"] as const;
/** Samples are two-hourly from the start of June. */
const sampleTime = (k: number): number => JUNE_START + k * 2 * HOUR;

/** Counter values per sample (null where the scrape is missing), by status class. */
function counters(context: GenerateContext, target: number): Array<Array<number | null>> {
  const { random } = context;
  const errorRate = ((100 - target) / 100) * (0.2 + random.next() * 1.6);
  const restarts = new Set(Array.from({ length: random.int(1, 3) }, () => random.int(5, SAMPLES - 5)));
  const values = CLASSES.map(() => random.int(200_000, 4_000_000));
  const rows: Array<Array<number | null>> = [];
  for (let k = 0; k < SAMPLES; k += 1) {
    const total = random.int(15_000, 45_000);
    const burst = random.chance(0.02) ? 8 : 1;
    const increments = [
      total,
      Math.round(total * 0.02 * (0.5 + random.next())),
      Math.round(total * errorRate * burst * (0.4 + random.next() * 1.2)),
    ];
    if (k > 0)
      increments.forEach(
        (increment, index) => (values[index] = restarts.has(k) ? increment : values[index]! + increment),
      );
    rows.push(
      k > 0 && k < SAMPLES - 1 && !restarts.has(k) && random.chance(0.02) ? [null, null, null] : [...values],
    );
  }
  return rows;
}

function promExport(service: Service, rows: Array<Array<number | null>>): string {
  const lines = [
    "# HELP http_requests_total Requests handled, by status class.",
    "# TYPE http_requests_total counter",
  ];
  rows.forEach((row, k) =>
    row.forEach((value, index) => {
      if (value !== null)
        lines.push(
          `http_requests_total{service="${service.name}",code="${CLASSES[index]!}"} ${value} ${sampleTime(k) * 1000}`,
        );
    }),
  );
  return `${lines.join("\n")}\n`;
}

function csvExport(rows: Array<Array<number | null>>): string {
  return toCsv(
    ["Time", ...CLASSES],
    rows.map((row, k) => [isoUtc(sampleTime(k)).slice(0, 19).replace("T", " "), ...row]),
  );
}

export function metricsPath(service: Service): string {
  return service.runtime === "java"
    ? `metrics/${service.name}-requests.prom`
    : `metrics/${service.name}-requests.csv`;
}

export function writeMetrics(context: GenerateContext, world: OncallWorld): void {
  for (const service of world.services) {
    const target =
      service.name === world.sloException.service ? world.sloException.target : SLO_TARGETS[service.tier]!;
    const rows = counters(context, target);
    context.writeFile(
      metricsPath(service),
      service.runtime === "java" ? promExport(service, rows) : csvExport(rows),
    );
  }
}
