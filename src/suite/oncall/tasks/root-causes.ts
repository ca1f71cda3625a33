import { checkAnswerAmounts } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { logLines, rootCauses, serviceNames } from "../facts.js";
import { LOG_DATES } from "../world.js";
import { defineOncallTask } from "./common.js";

/** How many stack traces each root-cause exception class ends, across every service's logs. */
export function expectedRootCauses(state: StateView): Map<string, number> {
  const counts = new Map<string, number>();
  for (const service of serviceNames(state))
    for (const date of LOG_DATES)
      for (const cause of rootCauses(logLines(state, service, date)))
        counts.set(cause, (counts.get(cause) ?? 0) + 1);
  return counts;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedRootCauses(initial);
  if (expected.size < 3) throw new Error("generation produced too few stack traces");
  return [checkAnswerAmounts("answer", answer, expected, 0)];
}

function cell(near: Set<string>): string {
  const retry = near.has("trusts-partial-pages") ? "False" : "True";
  const source = near.has("parses-pages-separately")
    ? "chunks = log_pages"
    : `chunks = lambda service, date: [log_lines(service, date, ${retry})]`;
  return String.raw`${source}

def causes_in(lines):
    found, java, python = [], None, False
    for index, line in enumerate(lines):
        if " ERROR [" in line and not line.startswith("["):
            if java:
                found.append(java)
            java = re.match(r"([\w.$]+)", lines[index + 1]).group(1) if index + 1 < len(lines) else None
            continue
        if java and line.startswith("Caused by: "):
            ${near.has("top-level-exception") ? "pass" : 'java = re.match(r"Caused by: ([\\w.$]+)", line).group(1)'}
        elif java and not line.startswith("\t") and not (index > 0 and " ERROR [" in lines[index - 1]):
            found.append(java)
            java = None
        if line == "Traceback (most recent call last):":
            python = True
        elif python and not line.startswith(" "):
            found.append(re.match(r"([\w.]+)", line).group(1))
            python = False
    if java:
        found.append(java)
    return found

counts = {}
for service in [s["service"] for s in fetch("list_services", "services")]:
    for date in ${JSON.stringify(LOG_DATES)}:
        for lines in chunks(service, date):
            for cause in causes_in(lines):
                counts[cause] = counts.get(cause, 0) + 1
print(json.dumps(dict(sorted(counts.items()))))
`;
}

export const rootCausesTask = defineOncallTask({
  slug: "root-causes",
  summary:
    "Count the stack traces in the log store by root-cause exception, as the SLO policy's triage rule says.",
  instruction:
    'Give me an error breakdown of everything in the log store: across all services and all days it keeps, count the stack traces by root-cause exception, using the error-triage rule in policies/slo-policy.md. Reply with a JSON object mapping each exception class, as written in the log, to its count, e.g. {"java.net.ConnectException": 3, "KeyError": 2}.',
  tools: ["fetch_logs", "list_services"],
  verify,
  cell,
  nearMisses: [
    ["top-level-exception", "Counts the outer Java exception instead of the innermost cause."],
    [
      "parses-pages-separately",
      "Parses each log page on its own, breaking the trace that continues on the next page.",
    ],
    ["trusts-partial-pages", "Takes a page marked partial as the end of the day's log."],
  ],
});
