import {
  allRows,
  checkAnswerCount,
  checkStateDiff,
  type StateView,
  type Flags,
} from "../../../envs/index.js";
import { CENTRAL } from "../world.js";
import { readCentralPar } from "../workspace-facts.js";
import { pharmacyTask, isUsable, stockRows, unitsBy } from "./pharmacy-task.js";

/** Packs to order by drug id: usable central stock plus open orders below the reorder point, up to par. */
export function expectedReorders(state: StateView): Map<string, number> {
  const usable = unitsBy(
    stockRows(state).filter((row) => row.location_id === CENTRAL && isUsable(row)),
    (row) => row.drug_id,
  );
  const drugs = new Map(
    allRows<{ drug_id: string; pack_size: number; on_order: number }>(
      state.db,
      `SELECT d.drug_id, d.pack_size, (SELECT COALESCE(SUM(p.packs * p.pack_size), 0) FROM purchase_orders p
         WHERE p.drug_id = d.drug_id AND p.status = 'open') AS on_order FROM drugs d`,
    ).map((row) => [row.drug_id, row]),
  );
  const orders = new Map<string, number>();
  for (const [drug, { reorderPoint, par }] of readCentralPar(state)) {
    const { pack_size, on_order } = drugs.get(drug)!;
    const total = (usable.get(drug) ?? 0) + on_order;
    if (total < reorderPoint) orders.set(drug, Math.ceil((par - total) / pack_size));
  }
  return orders;
}

function cells(variant: Flags<"ignoreOnOrder" | "countAllStock" | "atReorderPoint" | "roundDown">): string[] {
  return [
    String.raw`
par = read_csv("par/central-pharmacy.csv")
stock = fetch("list_inventory", "stock", location_id="LOC-01")
open_orders = fetch("list_purchase_orders", "purchase_orders", status="open")
pack_size = {drug["drug_id"]: drug["pack_size"] for drug in fetch("list_drugs", "drugs")}
usable_units, on_order = {}, {}
for row in stock:
    if ${variant.countAllStock ? "True" : "usable(row)"}:
        usable_units[row["drug_id"]] = usable_units.get(row["drug_id"], 0) + row["quantity"]
for order in open_orders:
    on_order[order["drug_id"]] = on_order.get(order["drug_id"], 0) + order["packs"] * order["pack_size"]
print(len(par), len(stock), len(open_orders))
`,
    String.raw`
placed = []
for line in par:
    drug = line["drug_id"]
    total = usable_units.get(drug, 0) + ${variant.ignoreOnOrder ? "0" : "on_order.get(drug, 0)"}
    if total ${variant.atReorderPoint ? "<=" : "<"} int(line["reorder_point"]):
        packs = ${variant.roundDown ? "(int(line['par']) - total) // pack_size[drug]" : "math.ceil((int(line['par']) - total) / pack_size[drug])"}
        if packs > 0:
            call("place_order", drug_id=drug, packs=packs)
            placed.append((drug, packs))
print(f"Placed {len(placed)} purchase orders")
`,
  ];
}

export const centralReorderTask = pharmacyTask({
  id: "pharmacy.central-reorder",
  summary:
    "Place the central pharmacy's wholesaler reorders: usable stock plus open orders against the reorder point, whole packs up to par.",
  instruction:
    "Run today's wholesaler reorder for the central pharmacy (LOC-01) exactly as our inventory management policy describes, using the central par sheet in par/. Place one purchase order per drug that needs one, in whole packs. Change nothing else. Reply with the number of purchase orders you placed, e.g. `Placed 6 purchase orders`.",
  tools: ["list_drugs", "get_drug", "list_inventory", "list_purchase_orders", "place_order"],
  expected: expectedReorders,
  nothing: "reorder",
  checks: (expected, { initial, final, answer }) => [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "purchase_orders",
        key: "po_id",
        added: [...expected].map(([drug_id, packs]) => ({ drug_id, packs, status: "open" })),
      },
    ]),
    checkAnswerCount(answer, expected.size),
  ],
  cells,
  nearMisses: {
    "ignores-open-orders": [
      { ignoreOnOrder: true },
      "Reorders drugs whose shortfall an open purchase order already covers.",
    ],
    "counts-expired-and-quarantined": [
      { countAllStock: true },
      "Counts expired and quarantined units as stock on hand.",
    ],
    "reorders-at-reorder-point": [
      { atReorderPoint: true },
      "Reorders when the total equals the reorder point instead of falling below it.",
    ],
    "rounds-packs-down": [
      { roundDown: true },
      "Rounds the number of packs down, leaving the shelf short of par.",
    ],
  },
});
