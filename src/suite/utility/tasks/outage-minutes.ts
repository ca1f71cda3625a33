import { checkAnswerAmounts } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { readOutages } from "../scada.js";
import { outageThresholds } from "../world.js";
import { defineUtilityTask } from "./common.js";

/** Sustained outage minutes per feeder over every exported journal day, to one decimal. */
export function expectedOutageMinutes(state: StateView): Map<string, number> {
  const { momentary } = outageThresholds(state);
  const totals = new Map<string, number>();
  for (const outage of readOutages(state))
    if (outage.minutes >= momentary)
      totals.set(outage.feeder, (totals.get(outage.feeder) ?? 0) + outage.minutes);
  return new Map([...totals].map(([feeder, minutes]) => [feeder, Math.round(minutes * 10) / 10]));
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkAnswerAmounts("answer", answer, expectedOutageMinutes(initial), 0.11)];
}

type Variant = { lastRaise?: boolean; perFile?: boolean; momentary?: boolean; strict?: boolean };

function cell(variant: Variant): string {
  return String.raw`
momentary, _ = thresholds()
totals = {}
for feeder, minutes in interruptions(first_raise=${variant.lastRaise ? "False" : "True"}, per_file=${variant.perFile ? "True" : "False"}):
    if ${variant.momentary ? "True" : variant.strict ? "minutes > momentary" : "minutes >= momentary"}:
        totals[feeder] = totals.get(feeder, 0) + minutes
print(json.dumps({f: round(m, 1) for f, m in sorted(totals.items())}))
`;
}

export const outageMinutesTask = defineUtilityTask<Variant>({
  id: "utility.outage-minutes",
  summary: "Total sustained outage minutes per feeder from the SCADA alarm journal exports.",
  instruction:
    'For the reliability report I need the total sustained outage minutes per feeder over all the SCADA alarm journal exports in scada/, counted the way policies/outage-reporting.md defines an interruption (momentary ones don\'t count). Reply with a JSON object mapping each feeder that had a sustained outage to its total minutes, rounded to one decimal, e.g. {"FDR-101": 73.4}.',
  tools: ["list_feeders"],
  verify,
  cells: cell,
  nearMisses: [
    [
      "pairs-last-raise",
      "Starts an interruption at the last repeated RAISE instead of the first.",
      { lastRaise: true },
    ],
    [
      "per-file",
      "Pairs RAISE and CLEAR within each day's file, losing outages across midnight.",
      { perFile: true },
    ],
    ["counts-momentary", "Counts momentary interruptions too.", { momentary: true }],
    ["strict-threshold", "Takes an interruption of exactly 5:00 as momentary.", { strict: true }],
  ],
});
