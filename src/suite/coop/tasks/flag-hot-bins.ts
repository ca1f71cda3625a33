import { allRows, checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import type { Check, VerifyContext } from "../../../envs/index.js";
import { defineCoopTask } from "./common.js";
import { expectedHotBins } from "./hot-bins.js";

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const open = new Set(
    allRows<{ bin_id: string }>(initial.db, "SELECT bin_id FROM bin_alerts WHERE status = 'open'").map(
      (a) => a.bin_id,
    ),
  );
  const expected = expectedHotBins(initial).filter((bin) => !open.has(bin));
  return [
    ...checkStateDiff(initial.db, final.db, [
      { table: "bin_alerts", key: "alert_id", added: expected.map((bin_id) => ({ bin_id, status: "open" })) },
    ]),
    checkAnswerCount(answer, expected.length),
  ];
}

type Variant = { faults?: boolean; celsius?: boolean; noDedupe?: boolean; extraDay?: boolean };

function cell(v: Variant): string {
  return String.raw`
hot = hot_bins(keep_faults=${v.faults ? "True" : "False"}, celsius_as_f=${v.celsius ? "True" : "False"}, extra_days=${v.extraDay ? 1 : 0})
open_alerts = ${v.noDedupe ? "set()" : '{a["bin_id"] for a in fetch("list_bin_alerts", "alerts", status="open")}'}
raised = 0
for bin_id in hot:
    if bin_id in open_alerts:
        continue
    call("raise_bin_alert", bin_id=bin_id, note="temperature rise over the aeration threshold")
    raised += 1
print(f"Raised {raised} bin alerts")
`;
}

export const flagHotBinsTask = defineCoopTask<Variant>({
  id: "coop.flag-hot-bins",
  summary: "Raise temperature alerts on the bins the aeration policy says need attention.",
  instruction:
    "Go through the bin temperature exports under monitoring/ and raise a temperature alert (raise_bin_alert) on every bin that storage/aeration-policy.md says needs one. Don't change anything else. Reply with the number of alerts you raised, e.g. `Raised 2 bin alerts`.",
  tools: ["list_elevators", "list_bins", "list_bin_alerts", "raise_bin_alert"],
  verify,
  cells: cell,
  nearMisses: [
    ["no-dedupe", "Raises an alert on a bin that already has an open one.", { noDedupe: true }],
    ["counts-sensor-faults", "Averages the -999 fault readings in.", { faults: true }],
    [
      "celsius-as-fahrenheit",
      "Compares a Celsius export's rise with the Fahrenheit threshold.",
      { celsius: true },
    ],
    ["lookback-off-by-one", "Compares the last day with four days earlier.", { extraDay: true }],
  ],
});
