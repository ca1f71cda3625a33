import { defineIdFormat } from "../../envs/index.js";

function idFormat(field: string, entity: string, prefix: string, digits: number, listTool: string) {
  return defineIdFormat({ field, entity, prefix, digits, listTool });
}

/** One id shape per entity: generators format with these, tools validate with them. */
export const locationId = idFormat("location_id", "location", "LOC-", 2, "list_locations");
export const supplierId = idFormat("supplier_id", "supplier", "SUP-", 2, "list_suppliers");
export const itemId = idFormat("item_id", "item", "ITM-", 4, "list_items");
export const poId = idFormat("po_id", "purchase order", "PO-", 5, "list_purchase_orders");
export const deliveryId = idFormat("delivery_id", "delivery", "DLV-", 5, "list_deliveries");
export const recipeId = idFormat("recipe_id", "recipe", "RCP-", 3, "list_recipes");
export const wasteId = idFormat("waste_id", "waste log entry", "WST-", 5, "list_waste_logs");
