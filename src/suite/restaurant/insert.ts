import type { GenerateContext } from "../../envs/index.js";
import { insertRow } from "../../envs/index.js";
import type { RestaurantWorld } from "./world.js";

/** Writes the world's catalogue, pars, orders, deliveries, recipes and credits into the database. */
export function insertWorld(context: GenerateContext, world: RestaurantWorld): void {
  const { db } = context;
  for (const location of world.locations)
    insertRow(db, "locations", {
      location_id: location.id,
      name: location.name,
      city: location.city,
      manager: location.manager,
    });
  for (const supplier of world.suppliers)
    insertRow(db, "suppliers", {
      supplier_id: supplier.id,
      name: supplier.name,
      category: supplier.category,
      contact_email: `orders@${supplier.name.toLowerCase().replace(/[^a-z]+/g, "")}.example.com`,
    });
  for (const item of world.items)
    insertRow(db, "items", {
      item_id: item.id,
      name: item.name,
      category: item.product.category,
      supplier_id: item.supplier,
      base_unit: item.product.unit,
      pack_size: item.pack,
      case_price: item.price,
      status: item.status,
    });
  for (const [location, pars] of world.pars)
    for (const [item, par] of pars)
      insertRow(db, "par_levels", { location_id: location, item_id: item, par });
  for (const po of world.pos)
    insertRow(db, "purchase_orders", {
      po_id: po.id,
      location_id: po.location.id,
      supplier_id: po.item.supplier,
      item_id: po.item.id,
      cases: po.cases,
      case_price: po.price,
      status: po.status,
      ordered_on: po.ordered,
    });
  for (const d of world.deliveries)
    insertRow(db, "deliveries", {
      delivery_id: d.id,
      po_id: d.po.id,
      location_id: d.po.location.id,
      supplier_id: d.po.item.supplier,
      item_id: d.item.id,
      cases: d.cases,
      case_price: d.price,
      delivered_on: d.day,
      note: d.note,
    });
  for (const recipe of world.recipes) {
    insertRow(db, "recipes", {
      recipe_id: recipe.id,
      name: recipe.name,
      category: recipe.category,
      menu_price: recipe.menuPrice,
      yield_portions: recipe.portions,
    });
    recipe.lines.forEach((line, n) =>
      insertRow(db, "recipe_lines", {
        recipe_id: recipe.id,
        line_no: n + 1,
        item_id: line.item.id,
        quantity: line.quantity,
      }),
    );
  }
  for (const credit of world.credits)
    insertRow(db, "credit_requests", {
      delivery_id: credit.delivery.id,
      amount: credit.amount,
      reason: "short delivery",
      requested_on: credit.day,
    });
}
