import { allRows, checkAnswerIds } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { readOutages } from "../scada.js";
import { outageThresholds } from "../world.js";
import { defineUtilityTask } from "./common.js";

/** Critical-care customers with an electric meter on a feeder that had one interruption of the follow-up length. */
export function expectedFollowUps(state: StateView): string[] {
  const { momentary, followUp } = outageThresholds(state);
  const feeders = new Set(
    readOutages(state)
      .filter((o) => o.minutes >= Math.max(momentary, followUp))
      .map((o) => o.feeder),
  );
  const rows = allRows<{ customer_id: string; feeder_id: string }>(
    state.db,
    "SELECT DISTINCT c.customer_id, m.feeder_id FROM customers c JOIN meters m ON m.customer_id = c.customer_id WHERE c.critical_care = 1 AND m.utility = 'electric'",
  );
  return [...new Set(rows.filter((r) => feeders.has(r.feeder_id)).map((r) => r.customer_id))].sort();
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedFollowUps(initial);
  if (expected.length === 0) throw new Error("generation produced no follow-up call");
  return [checkAnswerIds(answer, expected)];
}

type Variant = { total?: boolean; lastRaise?: boolean; strict?: boolean };

function cell(variant: Variant): string {
  return String.raw`
momentary, follow_up = thresholds()
longest = {}
for feeder, minutes in interruptions(first_raise=${variant.lastRaise ? "False" : "True"}):
    if minutes >= momentary:
        longest[feeder] = ${variant.total ? "longest.get(feeder, 0) + minutes" : "max(longest.get(feeder, 0), minutes)"}
feeders = sorted(f for f, m in longest.items() if m ${variant.strict ? ">" : ">="} follow_up)
critical = {c["customer_id"] for c in fetch("list_customers", "customers", critical_care=True)}
calls = set()
for feeder in feeders:
    for meter in fetch("list_meters", "meters", feeder_id=feeder, utility="electric"):
        if meter["customer_id"] in critical:
            calls.add(meter["customer_id"])
print(json.dumps(sorted(calls)))
`;
}

export const criticalCareCallsTask = defineUtilityTask<Variant>({
  id: "utility.critical-care-calls",
  summary:
    "Critical-care customers owed a follow-up call after a long feeder interruption in the SCADA journal.",
  instruction:
    'Customer care needs the list of critical-care customers who are owed a follow-up call under policies/outage-reporting.md, based on the feeder interruptions in the SCADA alarm journal exports in scada/. Reply with a JSON array of customer ids, e.g. ["C-00012", "C-00345"].',
  tools: ["list_feeders", "list_meters", "list_customers"],
  verify,
  cells: cell,
  nearMisses: [
    [
      "feeder-total",
      "Adds up a feeder's interruptions instead of looking for one long enough.",
      { total: true },
    ],
    ["pairs-last-raise", "Starts an interruption at the last repeated RAISE.", { lastRaise: true }],
    ["strict-threshold", "Leaves out an interruption of exactly 60:00.", { strict: true }],
  ],
});
