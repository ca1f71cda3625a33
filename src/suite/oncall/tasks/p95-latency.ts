import { checkAnswerAmounts } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { logLines, requestDurationMs, serviceNames } from "../facts.js";
import { LOG_DATES } from "../world.js";
import { defineOncallTask } from "./common.js";

/** Nearest-rank p95 of every service's logged user requests over the log store's days, in ms. */
export function expectedP95(state: StateView): Map<string, number> {
  const result = new Map<string, number>();
  for (const service of serviceNames(state)) {
    const durations = LOG_DATES.flatMap((date) =>
      logLines(state, service, date).map(requestDurationMs),
    ).filter((value): value is number => value !== null);
    if (durations.length < 20) throw new Error(`too few requests logged for ${service}`);
    durations.sort((a, b) => a - b);
    result.set(service, durations[Math.ceil(0.95 * durations.length) - 1]!);
  }
  return result;
}

function cell(near: Set<string>): string {
  const retry = near.has("trusts-partial-pages") ? "False" : "True";
  const lines = near.has("first-page-only")
    ? String.raw`
def day_lines(service, date):
    return call("fetch_logs", service=service, date=date)["lines"]`
    : `day_lines = lambda service, date: log_lines(service, date, ${retry})`;
  const probe = 'path in ("/healthz", "/metrics")';
  return String.raw`${lines}
ACCESS = re.compile(r'^\S+ - - \[[^\]]+\] "\w+ (\S+) HTTP/1\.1" \d+ \d+ "[^"]*" "[^"]*" rt=([\d.]+)$')
p95 = {}
for service in [s["service"] for s in fetch("list_services", "services")]:
    durations = []
    for date in ${JSON.stringify(LOG_DATES)}:
        for line in day_lines(service, date):
            found = ACCESS.match(line)
            if found:
                path = found.group(1)
                if not (${probe}):
                    durations.append(round(float(found.group(2)) * 1000))
            elif ${near.has("nginx-only") ? "False" : 'line.startswith("{")'}:
                event = json.loads(line)
                if event.get("event") == "http_request" and event.get("path") not in ("/healthz", "/metrics"):
                    durations.append(event["duration_ms"])
    durations.sort()
    p95[service] = durations[math.ceil(0.95 * len(durations)) - 1]
print(json.dumps(p95))
`;
}

export const p95LatencyTask = defineOncallTask({
  slug: "p95-latency",
  summary: "Each service's p95 request latency over the log store's days, as the SLO policy defines it.",
  instruction:
    'Before the SLO review, compute every service\'s p95 request latency over all the logs the log store keeps, measured the way policies/slo-policy.md defines the latency indicator. Reply with a JSON object mapping each service name to its p95 in whole milliseconds, e.g. {"checkout-api": 812}.',
  tools: ["fetch_logs", "list_services"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, expectedP95(initial), 0)],
  cell,
  nearMisses: [
    ["nginx-only", "Reads only nginx access lines and misses the JSON request events."],
    ["first-page-only", "Reads only the first page of each day's log."],
    [
      "trusts-partial-pages",
      "Takes a page marked partial (empty, has_more false) as the end of the day's log.",
    ],
  ],
});
