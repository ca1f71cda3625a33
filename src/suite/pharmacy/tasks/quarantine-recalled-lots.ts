import { checkAnswerCount, checkStateDiff, type StateView, type Flags } from "../../../envs/index.js";
import { recalledLotIds } from "../workspace-facts.js";
import { pharmacyTask, stockRows } from "./pharmacy-task.js";
import { recallsPy } from "./python.js";

/** Stock ids holding units of a recalled lot that are not yet quarantined. */
export function expectedQuarantine(state: StateView): string[] {
  const lots = recalledLotIds(state);
  return stockRows(state)
    .filter((row) => lots.has(row.lot_id) && row.status === "available" && row.quantity > 0)
    .map((row) => row.stock_id);
}

function cells(variant: Flags<"updates" | "matchNdc" | "uncheckedWrites">): string[] {
  const quarantine = variant.uncheckedWrites
    ? 'tools.quarantine_stock(stock_id=row["stock_id"], reason="recall")'
    : 'call("quarantine_stock", stock_id=row["stock_id"], reason="recall")';
  return [
    recallsPy(variant),
    String.raw`
done = 0
for lot_id in sorted(recalled_lots()):
    for row in fetch("list_inventory", "stock", lot_id=lot_id):
        if row["status"] != "available" or row["quantity"] == 0:
            continue
        ${quarantine}
        done += 1
print(f"Quarantined {done} stock rows")
`,
  ];
}

export const quarantineRecalledLotsTask = pharmacyTask({
  id: "pharmacy.quarantine-recalled-lots",
  summary:
    "Quarantine every stock row of the lots named in the recall notices and their update e-mails, matching lot number and NDC, at every location.",
  instruction:
    "Work through the manufacturer recall notices in recalls/ and any recall updates that came in by e-mail (inbox/). Quarantine every stock row, at every location, that still holds available units of an affected lot; a lot is affected only when both its lot number and its product's NDC match the notice. Use the notice number as the reason. Change nothing else. Reply with the number of stock rows you quarantined, e.g. `Quarantined 9 stock rows`.",
  tools: ["list_lots", "get_lot", "list_inventory", "list_locations", "get_drug", "quarantine_stock"],
  expected: expectedQuarantine,
  nothing: "recalled stock",
  checks: (expected, { initial, final, answer }) => [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "inventory",
        key: "stock_id",
        changed: new Map(expected.map((id) => [id, { status: "quarantined" }])),
        ignoreColumns: ["quarantine_reason"],
      },
    ]),
    checkAnswerCount(answer, expected.length),
  ],
  cells,
  nearMisses: {
    "ignores-update-email": [
      { updates: false },
      "Reads the notices but not the e-mail that adds a lot to a recall.",
    ],
    "lot-number-only": [
      { matchNdc: false },
      "Matches lots by number alone and quarantines another product that shares a lot number.",
    ],
    "unchecked-writes": [
      { uncheckedWrites: true },
      "Does not check the quarantine result, so locks the cabinet never acknowledged stay open.",
    ],
  },
});
