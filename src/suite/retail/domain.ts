import { defineDomain } from "../../envs/index.js";
import { generateRetail } from "./generate.js";
import { retailSchemaSql } from "./schema.js";
import { retailTools } from "./tools.js";

export const retailDomain = defineDomain({
  id: "retail",
  title: "Online store operations",
  description:
    "An online store's customers, catalogue, orders and order lines, payments, returns and refunds, with the returns policy, promotion and price-match terms, recall procedure, supplier notices, price-change batches and finance memos in the workspace.",
  version: 1,
  schemaSql: retailSchemaSql,
  generate: generateRetail,
  tools: retailTools,
});
