import { allRows, sumBy, checkCountedWrites } from "../../../envs/index.js";
import type { StateView, VerifyContext } from "../../../envs/index.js";
import { catalogue, countsByLocation, parsByLocation } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

interface Order {
  location_id: string;
  item_id: string;
  cases: number;
}

/** The orders the purchasing policy calls for: latest count plus open orders below par, whole cases up to it. */
export function expectedOrders(state: StateView): Order[] {
  const items = catalogue(state);
  const pars = parsByLocation(state);
  const open = allRows<Order>(
    state.db,
    "SELECT location_id, item_id, cases FROM purchase_orders WHERE status = 'open'",
  );
  const onOrder = sumBy(
    open,
    (o) => `${o.location_id}/${o.item_id}`,
    (o) => o.cases * items.get(o.item_id)!.pack_size,
  );
  const orders: Order[] = [];
  for (const [location, stock] of countsByLocation(state))
    for (const [item, par] of pars.get(location)!) {
      if (items.get(item)!.status !== "active") continue;
      const position = (stock.get(item) ?? 0) + (onOrder.get(`${location}/${item}`) ?? 0);
      const cases = Math.ceil((par - position) / items.get(item)!.pack_size);
      if (position < par) orders.push({ location_id: location, item_id: item, cases });
    }
  return orders;
}

function verify(context: VerifyContext) {
  const expected = expectedOrders(context.initial);
  if (expected.length === 0) throw new Error("nothing to order");
  const added = expected.map((order) => ({ ...order, status: "open" }));
  return checkCountedWrites(context, expected.length, [{ table: "purchase_orders", key: "po_id", added }]);
}

interface Variant {
  ignoreOnOrder?: boolean;
  roundDown?: boolean;
  orderDiscontinued?: boolean;
}

function cells(variant: Variant): string {
  return String.raw`
load_catalogue()
policy = read_text("policies/purchasing.md")
on_order = {}
for order in fetch("list_purchase_orders", "purchase_orders", status="open"):
    key = (order["location_id"], order["item_id"])
    on_order[key] = on_order.get(key, 0) + order["cases"] * catalogue[order["item_id"]]["pack_size"]
placed = 0
for path in workbooks():
    location, stock = read_count(path)
    for par in fetch("list_par_levels", "par_levels", location_id=location):
        item = catalogue[par["item_id"]]
        if item["status"] != "active" and ${variant.orderDiscontinued ? "False" : "True"}:
            continue
        position = stock.get(item["item_id"], 0) + ${variant.ignoreOnOrder ? "0" : "on_order.get((location, item['item_id']), 0)"}
        if position < par["par"]:
            cases = ${variant.roundDown ? "int((par['par'] - position) // item['pack_size'])" : "math.ceil((par['par'] - position) / item['pack_size'])"}
            if cases > 0:
                call("place_order", location_id=location, item_id=item["item_id"], cases=cases)
                placed += 1
print(f"Placed {placed} purchase orders")
`;
}

export const restoreParTask = defineRestaurantTask({
  id: "restaurant.restore-par",
  summary:
    "Place the purchase orders that bring every location back to par: latest count plus open orders, whole cases.",
  instruction:
    "Run this week's reorder for every location exactly as our purchasing policy (policies/purchasing.md) describes, using each location's latest count workbook in counts/: place the purchase orders needed to bring stock back to par with place_order. Change nothing else. Reply with the number of purchase orders you placed, e.g. `Placed 12 purchase orders`.",
  tools: [
    "list_locations",
    "list_items",
    "get_item",
    "list_par_levels",
    "list_purchase_orders",
    "place_order",
    "read_workbook",
  ],
  verify,
  cells,
  nearMisses: {
    "ignores-open-orders": [{ ignoreOnOrder: true }, "Orders without counting what is already on order."],
    "rounds-cases-down": [
      { roundDown: true },
      "Rounds the shortfall down to whole cases, leaving the shelf short of par.",
    ],
    "orders-discontinued": [{ orderDiscontinued: true }, "Reorders discontinued items that are below par."],
  },
});
