import { defineDomain } from "../../envs/index.js";
import { generateRestaurant } from "./generate.js";
import { restaurantSchemaSql } from "./schema.js";
import { restaurantTools } from "./tools.js";

/** A restaurant group's supply: catalogue, pars, orders and deliveries, recipes and sales, waste; counts in .xlsx. */
export const restaurantDomain = defineDomain({
  id: "restaurant",
  title: "Restaurant group supply",
  description:
    "A restaurant group's supply chain: locations, suppliers, the purchasing catalogue with pack sizes and base units, par levels, purchase orders and deliveries (short and substituted), recipes with portion yields, daily sales, waste logs and credit requests. Stock on hand lives in weekly count workbooks (.xlsx, one sheet per storage area) in counts/; price agreements, purchasing, receiving, waste and menu-costing rules live in workspace documents.",
  version: 1,
  schemaSql: restaurantSchemaSql,
  generate: generateRestaurant,
  tools: restaurantTools,
});
