import {
  REFERENCE_DATE,
  addDays,
  checkAnswerCount,
  checkStateDiff,
  type Flags,
} from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { readInventoryRules } from "../workspace-facts.js";
import { pharmacyTask, stockRows, type StockView } from "./pharmacy-task.js";

/** Stock rows the returns policy sends back to the wholesaler. */
export function expectedReturns(state: StateView): StockView[] {
  const earliest = addDays(REFERENCE_DATE, -readInventoryRules(state).returnWindowDays);
  return stockRows(state).filter(
    (row) =>
      row.status === "available" &&
      row.quantity > 0 &&
      row.expiry_date < REFERENCE_DATE &&
      row.expiry_date >= earliest &&
      row.schedule !== "II",
  );
}

function cells(variant: Flags<"includeScheduleTwo" | "windowExclusive" | "includeQuarantined">): string[] {
  return [
    String.raw`
window = policy_number("policies/inventory-management.md", r"no more than (\d+) days before today")
earliest = add_days(today, -window)
schedule_two = {drug["drug_id"] for drug in fetch("list_drugs", "drugs", schedule="II")}
expired = fetch("list_inventory", "stock", expires_to=add_days(today, -1)${variant.includeQuarantined ? "" : ', status="available"'})
print(window, len(expired))
`,
    String.raw`
returned = 0
for row in expired:
    if row["quantity"] == 0 or row["expiry_date"] ${variant.windowExclusive ? "<=" : "<"} earliest:
        continue
    if ${variant.includeScheduleTwo ? "False" : 'row["drug_id"] in schedule_two'}:
        continue
    call("create_return", stock_id=row["stock_id"], reason="expired")
    returned += 1
print(f"Created {returned} returns")
`,
  ];
}

export const expiredReturnsTask = pharmacyTask({
  id: "pharmacy.expired-returns",
  summary:
    "Return expired stock to the wholesaler for credit per the returns window, leaving schedule II and quarantined stock alone.",
  instruction:
    "Clear out expired stock for wholesaler credit: at every location, return each stock row our inventory management policy says qualifies for an expired-product return, with create_return and reason `expired`. Change nothing else. Reply with the number of returns you created, e.g. `Created 7 returns`.",
  tools: ["list_drugs", "get_drug", "list_locations", "list_lots", "list_inventory", "create_return"],
  expected: expectedReturns,
  nothing: "returnable stock",
  checks: (expected, { initial, final, answer }) => [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "inventory",
        key: "stock_id",
        changed: new Map(expected.map((row) => [row.stock_id, { quantity: 0 }])),
      },
      {
        table: "returns",
        key: "return_id",
        added: expected.map((row) => ({
          stock_id: row.stock_id,
          lot_id: row.lot_id,
          quantity: row.quantity,
          reason: "expired",
          created_on: REFERENCE_DATE,
        })),
      },
    ]),
    checkAnswerCount(answer, expected.length),
  ],
  cells,
  nearMisses: {
    "returns-schedule-ii": [
      { includeScheduleTwo: true },
      "Sends expired schedule II product to the wholesaler instead of the reverse distributor.",
    ],
    "window-off-by-one": [
      { windowExclusive: true },
      "Leaves out the lot that expired exactly on the last day of the returns window.",
    ],
    "returns-quarantined": [
      { includeQuarantined: true },
      "Returns quarantined stock that is waiting for an investigation.",
    ],
  },
});
