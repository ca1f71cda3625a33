import { addDays, allRows } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { readBinDays } from "../monitoring.js";
import { DOCS, policyValue } from "../world.js";
import { checkIdList, defineCoopTask } from "./common.js";

/** Filled bins whose daily average rose by the policy's threshold over its lookback days. */
export function expectedHotBins(state: StateView): string[] {
  const threshold = policyValue(state, DOCS.aeration, "Thresholds", "rise threshold (F)");
  const lookback = policyValue(state, DOCS.aeration, "Thresholds", "lookback days");
  const filled = new Set(
    allRows<{ bin_id: string }>(state.db, "SELECT bin_id FROM bins WHERE status = 'filled'").map(
      (b) => b.bin_id,
    ),
  );
  const hot: string[] = [];
  for (const [bin, days] of readBinDays(state)) {
    const last = [...days.keys()].sort().at(-1)!;
    const rise = days.get(last)! - days.get(addDays(last, -lookback))!;
    if (filled.has(bin) && rise >= threshold) hot.push(bin);
  }
  return hot.sort();
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkIdList(answer, expectedHotBins(initial))];
}

type Variant = { faults?: boolean; celsius?: boolean; empty?: boolean; extraDay?: boolean };

function cell(v: Variant): string {
  return String.raw`
print(json.dumps(hot_bins(keep_faults=${v.faults ? "True" : "False"}, celsius_as_f=${v.celsius ? "True" : "False"}, empty_too=${v.empty ? "True" : "False"}, extra_days=${v.extraDay ? 1 : 0})))
`;
}

export const hotBinsTask = defineCoopTask<Variant>({
  id: "coop.hot-bins",
  summary:
    "Bins whose temperature rose enough over the lookback to need attention, from the monitoring exports.",
  instruction:
    'Check the bin temperature monitoring exports under monitoring/ against storage/aeration-policy.md and tell me which bins need attention. Reply with a JSON array of bin ids, e.g. ["B-0103", "B-0207"].',
  tools: ["list_elevators", "list_bins"],
  verify,
  cells: cell,
  nearMisses: [
    ["counts-sensor-faults", "Averages the -999 fault readings in.", { faults: true }],
    [
      "celsius-as-fahrenheit",
      "Compares a Celsius export's rise with the Fahrenheit threshold.",
      { celsius: true },
    ],
    ["includes-empty-bins", "Flags empty bins that follow the weather.", { empty: true }],
    ["lookback-off-by-one", "Compares the last day with four days earlier.", { extraDay: true }],
  ],
});
