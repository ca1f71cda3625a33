import { prefixedId } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const locationId = prefixedId("location_id", "location", "LOC-", 2, "list_locations");
export const supplierId = prefixedId("supplier_id", "supplier", "SUP-", 2, "list_suppliers");
export const itemId = prefixedId("item_id", "item", "ITM-", 4, "list_items");
export const poId = prefixedId("po_id", "purchase order", "PO-", 5, "list_purchase_orders");
export const deliveryId = prefixedId("delivery_id", "delivery", "DLV-", 5, "list_deliveries");
export const recipeId = prefixedId("recipe_id", "recipe", "RCP-", 3, "list_recipes");
export const wasteId = prefixedId("waste_id", "waste log entry", "WST-", 5, "list_waste_logs");
