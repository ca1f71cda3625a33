import { REFERENCE_DATE, addDays, allRows, checkCountedWrites } from "../../../envs/index.js";
import type { StateView, VerifyContext } from "../../../envs/index.js";
import { policyTable } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

/** Open orders placed more than their supplier's window before today. */
export function expectedStale(state: StateView): string[] {
  const windows = policyTable(state, "policies/purchasing.md", "Order windows");
  const names = new Map(
    allRows<{ supplier_id: string; name: string }>(state.db, "SELECT supplier_id, name FROM suppliers").map(
      (s) => [s.name, s.supplier_id],
    ),
  );
  const standing = new Map(
    windows
      .filter((row) => row[0]!.endsWith("(standing order)"))
      .map((row) => [names.get(row[0]!.replace(" (standing order)", ""))!, Number(row[1])]),
  );
  const otherwise = Number(windows.find((row) => row[0] === "Any other supplier")![1]);
  return allRows<{ po_id: string; supplier_id: string; ordered_on: string }>(
    state.db,
    "SELECT po_id, supplier_id, ordered_on FROM purchase_orders WHERE status = 'open'",
  )
    .filter((po) => po.ordered_on < addDays(REFERENCE_DATE, -(standing.get(po.supplier_id) ?? otherwise)))
    .map((po) => po.po_id);
}

function verify(context: VerifyContext) {
  const expected = expectedStale(context.initial);
  if (expected.length === 0) throw new Error("no stale order");
  const changed = new Map(expected.map((id) => [id, { status: "cancelled" }]));
  return checkCountedWrites(context, expected.length, [{ table: "purchase_orders", key: "po_id", changed }]);
}

interface Variant {
  atWindow?: boolean;
  oneWindow?: boolean;
}

function cells(variant: Variant): string {
  return String.raw`
rows = md_table(read_text("policies/purchasing.md"), "Order windows")
by_name = {s["name"]: s["supplier_id"] for s in fetch("list_suppliers", "suppliers")}
windows = {by_name[r[0].replace(" (standing order)", "")]: int(r[1]) for r in rows if r[0].endswith("(standing order)")}
default = int(next(r[1] for r in rows if r[0] == "Any other supplier"))
cancelled = 0
for po in fetch("list_purchase_orders", "purchase_orders", status="open"):
    window = ${variant.oneWindow ? "default" : "windows.get(po['supplier_id'], default)"}
    age = (date.fromisoformat(today) - date.fromisoformat(po["ordered_on"])).days
    if age ${variant.atWindow ? ">=" : ">"} window:
        call("cancel_order", po_id=po["po_id"])
        cancelled += 1
print(f"Cancelled {cancelled} stale orders")
`;
}

export const staleOrdersTask = defineRestaurantTask({
  id: "restaurant.stale-orders",
  summary: "Cancel open purchase orders older than their supplier's window in the purchasing policy.",
  instruction:
    "Clean up stale purchase orders: cancel every open order that our purchasing policy (policies/purchasing.md) says is stale, with cancel_order. Change nothing else. Reply with the number of orders you cancelled, e.g. `Cancelled 7 stale orders`.",
  tools: ["list_suppliers", "list_purchase_orders", "get_purchase_order", "cancel_order"],
  verify,
  cells,
  nearMisses: {
    "cancels-at-window": [{ atWindow: true }, "Also cancels orders placed exactly the window's days ago."],
    "ignores-standing-orders": [
      { oneWindow: true },
      "Holds standing-order suppliers to the ordinary window.",
    ],
  },
});
