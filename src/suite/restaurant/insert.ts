import type { GenerateContext } from "../../envs/index.js";
import { insertDrafts, insertRecords } from "../../envs/index.js";
import type { RestaurantWorld } from "./world.js";

/** Writes the world's catalogue, pars, orders, deliveries, recipes, credits, sales and waste into the database. */
export function insertWorld(context: GenerateContext, world: RestaurantWorld): void {
  const { db } = context;
  insertDrafts(db, "locations", "location_id, name, city, manager", world.locations, (l) => ({
    location_id: l.id,
  }));
  insertDrafts(db, "suppliers", "supplier_id, name, category, contact_email", world.suppliers, (s) => ({
    supplier_id: s.id,
    contact_email: `orders@${s.name.toLowerCase().replace(/[^a-z]+/g, "")}.example.com`,
  }));
  const itemColumns = "item_id, name, category, supplier_id, base_unit, pack_size, case_price, status";
  insertDrafts(db, "items", itemColumns, world.items, (item) => ({
    item_id: item.id,
    category: item.product.category,
    supplier_id: item.supplier,
    base_unit: item.product.unit,
    pack_size: item.pack,
    case_price: item.price,
  }));
  for (const [locationId, pars] of world.pars)
    insertRecords(
      db,
      "par_levels",
      [...pars].map(([itemId, par]) => ({ locationId, itemId, par })),
    );
  const poColumns = "po_id, location_id, supplier_id, item_id, cases, case_price, status, ordered_on";
  insertDrafts(db, "purchase_orders", poColumns, world.pos, (po) => ({
    po_id: po.id,
    location_id: po.location.id,
    supplier_id: po.item.supplier,
    item_id: po.item.id,
    case_price: po.price,
    ordered_on: po.ordered,
  }));
  const deliveryColumns =
    "delivery_id, po_id, location_id, supplier_id, item_id, cases, case_price, delivered_on, note";
  insertDrafts(db, "deliveries", deliveryColumns, world.deliveries, (d) => ({
    delivery_id: d.id,
    po_id: d.po.id,
    location_id: d.po.location.id,
    supplier_id: d.po.item.supplier,
    item_id: d.item.id,
    case_price: d.price,
    delivered_on: d.day,
  }));
  const recipeColumns = "recipe_id, name, category, menu_price, yield_portions";
  insertDrafts(db, "recipes", recipeColumns, world.recipes, (r) => ({
    recipe_id: r.id,
    yield_portions: r.portions,
  }));
  const lines = world.recipes.flatMap((r) =>
    r.lines.map((line, n) => ({
      recipeId: r.id,
      lineNo: n + 1,
      itemId: line.item.id,
      quantity: line.quantity,
    })),
  );
  insertRecords(db, "recipe_lines", lines);
  insertDrafts(db, "credit_requests", "delivery_id, amount, reason, requested_on", world.credits, (c) => ({
    delivery_id: c.delivery.id,
    reason: "short delivery",
    requested_on: c.day,
  }));
  for (const [locationId, days] of world.sales)
    for (const [soldOn, day] of days)
      for (const [recipeId, portions] of day)
        insertRecords(db, "sales", [{ locationId, recipeId, soldOn, portions }]);
  insertRecords(db, "waste_logs", world.wasteLogs);
}
