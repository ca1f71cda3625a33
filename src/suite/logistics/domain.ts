import { defineDomain } from "../../envs/index.js";
import { generateLogistics } from "./generate.js";
import { logisticsSchemaSql } from "./schema.js";
import { logisticsTools } from "./tools.js";

/** The logistics domain definition, kept apart from index.ts so task modules can import it without a cycle. */
export const logisticsDomain = defineDomain({
  id: "logistics",
  title: "Logistics and inventory",
  description:
    "A regional grocery and household-goods distributor: five warehouses stocking products by lot, suppliers and purchase orders, outbound shipments and carriers, with a replenishment policy, an inventory-control SOP, a carrier rate card, an operations bulletin, daily cycle-count exports, damaged-goods reports and stock-movement logs in the workspace.",
  version: 1,
  schemaSql: logisticsSchemaSql,
  generate: generateLogistics,
  tools: logisticsTools,
});
