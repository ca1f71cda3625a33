import { checkAnswerAmounts, requireFile } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { counterIncrease, exportSeries, readSloTargets, serviceNames } from "../facts.js";
import { defineOncallTask } from "./common.js";

/** Percent of each service's June error budget burned, from its monitoring export. */
export function expectedBurn(state: StateView): Map<string, number> {
  const targets = readSloTargets(state);
  const result = new Map<string, number>();
  for (const service of serviceNames(state)) {
    const path = state.listFiles().find((file) => file.startsWith(`metrics/${service}-requests.`));
    if (!path) throw new Error(`no export for ${service}`);
    const series = exportSeries(requireFile(state, path), path.endsWith(".csv"));
    const [good, client, bad] = ["2xx", "4xx", "5xx"].map((code) => counterIncrease(series.get(code) ?? []));
    result.set(service, (bad! / (good! + client! + bad!) / (1 - targets.get(service)! / 100)) * 100);
  }
  return result;
}

function cell(near: Set<string>): string {
  const increase = near.has("ignores-counter-resets")
    ? "    return values[-1] - values[0]"
    : "    return sum(b - a if b >= a else b for a, b in zip(values, values[1:]))";
  return String.raw`
tiers = policy_table("policies/slo-policy.md", "Availability targets")
exceptions = ${near.has("ignores-exceptions") ? "{}" : 'policy_table("policies/slo-policy.md", "Exceptions")'}

def increase(values):
${increase}

def series(path):
    text = read_text(path)
    found = {"2xx": [], "4xx": [], "5xx": []}
    if path.endswith(".csv"):
        for row in csv.DictReader(io.StringIO(text)):
            for code in found:
                if row[code]:
                    found[code].append(int(row[code]))
    else:
        for m in re.finditer(r'^http_requests_total\{[^}]*code="(\dxx)"\} (\d+) \d+$', text, re.M):
            found[m.group(1)].append(int(m.group(2)))
    return found

files = workspace_files("metrics")
burn = {}
for service in fetch("list_services", "services"):
    name = service["service"]
    path = next(p for p in files if p.split("/")[-1].startswith(name + "-requests."))
    counts = {code: increase(values) for code, values in series(path).items()}
    target = float(exceptions.get(name, tiers[str(service["tier"])]))
    bad = counts["5xx"]${near.has("counts-4xx-as-bad") ? ' + counts["4xx"]' : ""}
    valid = counts["2xx"] + counts["4xx"] + counts["5xx"]
    burn[name] = round(bad / valid / (1 - target / 100) * 100, 1)
print(json.dumps(burn))
`;
}

export const errorBudgetBurnTask = defineOncallTask({
  slug: "error-budget-burn",
  summary: "Each service's June error-budget burn from the monitoring exports, as the SLO policy defines it.",
  instruction:
    'How much of its June error budget has each service burned? Use the monitoring exports in metrics/ (they cover June) and the rules and targets in policies/slo-policy.md. Reply with a JSON object mapping each service name to the percent of its error budget burned, rounded to one decimal, e.g. {"checkout-api": 42.7}.',
  tools: ["list_services"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, expectedBurn(initial), 0.051)],
  cell,
  nearMisses: [
    ["ignores-counter-resets", "Takes last minus first sample, ignoring restarts."],
    ["counts-4xx-as-bad", "Counts client errors as bad events."],
    ["ignores-exceptions", "Uses the tier target for every service, missing the contractual exception."],
  ],
});
