import { checkAnswerCount, checkStateDiff, defineTask } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { pharmacyDomain } from "../domain.js";
import { recalledLotIds } from "../workspace-facts.js";
import { stockRows } from "./expectations.js";
import { PHARMACY_PY, recallsPy } from "./python.js";

/** Stock ids holding units of a recalled lot that are not yet quarantined. */
export function expectedQuarantine(state: StateView): string[] {
  const lots = recalledLotIds(state);
  return stockRows(state)
    .filter((row) => lots.has(row.lot_id) && row.status === "available" && row.quantity > 0)
    .map((row) => row.stock_id);
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedQuarantine(initial);
  if (expected.length === 0) throw new Error("generation produced no recalled stock");
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "inventory",
        key: "stock_id",
        changed: new Map(expected.map((id) => [id, { status: "quarantined" }])),
        ignoreColumns: ["quarantine_reason"],
      },
    ]),
    checkAnswerCount(answer, expected.length),
  ];
}

interface Variant {
  updates?: boolean;
  matchNdc?: boolean;
  uncheckedWrites?: boolean;
}

function cells(variant: Variant): string[] {
  const quarantine = variant.uncheckedWrites
    ? 'tools.quarantine_stock(stock_id=row["stock_id"], reason="recall")'
    : 'call("quarantine_stock", stock_id=row["stock_id"], reason="recall")';
  return [
    PHARMACY_PY,
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

export const quarantineRecalledLotsTask = defineTask({
  id: "pharmacy.quarantine-recalled-lots",
  domain: pharmacyDomain,
  summary:
    "Quarantine every stock row of the lots named in the recall notices and their update e-mails, matching lot number and NDC, at every location.",
  instruction:
    "Work through the manufacturer recall notices in recalls/ and any recall updates that came in by e-mail (inbox/). Quarantine every stock row, at every location, that still holds available units of an affected lot; a lot is affected only when both its lot number and its product's NDC match the notice. Use the notice number as the reason. Change nothing else. Reply with the number of stock rows you quarantined, e.g. `Quarantined 9 stock rows`.",
  tools: ["list_lots", "get_lot", "list_inventory", "list_locations", "get_drug", "quarantine_stock"],
  verify,
  oracle: cells({}),
  nearMisses: [
    {
      id: "ignores-update-email",
      description: "Reads the notices but not the e-mail that adds a lot to a recall.",
      cells: cells({ updates: false }),
    },
    {
      id: "lot-number-only",
      description: "Matches lots by number alone and quarantines another product that shares a lot number.",
      cells: cells({ matchNdc: false }),
    },
    {
      id: "unchecked-writes",
      description: "Does not check the quarantine result, so locks the cabinet never acknowledged stay open.",
      cells: cells({ uncheckedWrites: true }),
    },
  ],
});
