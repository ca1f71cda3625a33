import { allRows, checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { readThresholds } from "../world.js";
import { defineUtilityTask } from "./common.js";

/** Meters whose trailing run of estimated reads reaches their class's threshold, without an open inspection. */
export function expectedVisits(state: StateView): string[] {
  const thresholds = readThresholds(state);
  const reads = allRows<{ meter_id: string; customer_class: string; read_type: string }>(
    state.db,
    "SELECT r.meter_id, c.customer_class, r.read_type FROM meter_reads r JOIN meters m ON m.meter_id = r.meter_id JOIN customers c ON c.customer_id = m.customer_id ORDER BY r.meter_id, r.read_date DESC",
  );
  const covered = new Set(
    allRows<{ meter_id: string }>(
      state.db,
      "SELECT meter_id FROM work_orders WHERE kind = 'meter_inspection' AND status IN ('open', 'dispatched')",
    ).map((r) => r.meter_id),
  );
  const runs = new Map<string, { cls: string; run: number; ended: boolean }>();
  for (const read of reads) {
    const entry = runs.get(read.meter_id) ?? { cls: read.customer_class, run: 0, ended: false };
    if (read.read_type === "actual") entry.ended = true;
    else if (!entry.ended) entry.run += 1;
    runs.set(read.meter_id, entry);
  }
  return [...runs]
    .filter(([meter, r]) => r.run >= thresholds.get(r.cls)! && !covered.has(meter))
    .map(([meter]) => meter)
    .sort();
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedVisits(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "work_orders",
        key: "work_order_id",
        added: expected.map((meter_id) => ({
          meter_id,
          kind: "meter_inspection",
          priority: "P3",
          status: "open",
        })),
      },
    ]),
    checkAnswerCount(answer, expected.length),
  ];
}

type Variant = { uniform?: boolean; anyEstimates?: boolean; noDedupe?: boolean; openOnly?: boolean };

function cell(variant: Variant): string {
  return String.raw`
limits = {row[0]: int(row[1]) for row in md_table(read_text("policies/meter-read-policy.md"), "Field visit thresholds")}
classes = {c["customer_id"]: c["customer_class"] for c in fetch("list_customers", "customers")}
meters = {m["meter_id"]: classes[m["customer_id"]] for m in fetch("list_meters", "meters")}
history = {}
for read in fetch("list_meter_reads", "reads", date_from="2025-01-01"):
    history.setdefault(read["meter_id"], []).append(read)
covered = set()
for status in ${variant.openOnly ? '("open",)' : '("open", "dispatched")'}:
    covered |= {w["meter_id"] for w in fetch("list_work_orders", "work_orders", kind="meter_inspection", status=status)}
created = 0
for meter, reads in sorted(history.items()):
    reads.sort(key=lambda r: r["read_date"])
    run = 0
    for read in reversed(reads):
        if read["read_type"] == "actual":
            ${variant.anyEstimates ? "continue" : "break"}
        run += 1
    limit = ${variant.uniform ? "limits['residential']" : "limits[meters[meter]]"}
    if run >= limit and ${variant.noDedupe ? "True" : "meter not in covered"}:
        call("create_work_order", meter_id=meter, kind="meter_inspection", priority="P3", description="Field visit: consecutive estimated reads")
        created += 1
print(f"Created {created} field visits")
`;
}

export const estimateVisitsTask = defineUtilityTask<Variant>({
  id: "utility.estimate-visits",
  summary: "Raise the meter_inspection visits the meter read policy calls for after runs of estimated reads.",
  instruction:
    "Go through the meter read history and raise a field visit for every meter that policies/meter-read-policy.md says needs one because of consecutive estimated reads, with create_work_order, as the policy describes them. Don't duplicate visits that are already raised and don't change anything else. Reply with the number of visits you created, e.g. `Created 4 field visits`.",
  tools: ["list_customers", "list_meters", "list_meter_reads", "list_work_orders", "create_work_order"],
  verify,
  cells: cell,
  nearMisses: [
    ["one-threshold", "Uses the residential threshold for commercial meters too.", { uniform: true }],
    [
      "counts-all-estimates",
      "Counts every estimate in the window, not the run since the last actual read.",
      { anyEstimates: true },
    ],
    ["no-dedupe", "Raises a visit where an inspection is already open.", { noDedupe: true }],
    [
      "dedupe-open-only",
      "Raises a visit where an inspection is already dispatched (only open ones count as raised).",
      { openOnly: true },
    ],
  ],
});
