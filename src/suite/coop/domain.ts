import { defineDomain } from "../../envs/index.js";
import { generateCoop } from "./generate.js";
import { coopSchemaSql } from "./schema.js";
import { coopTools } from "./tools.js";

/** An agricultural grain cooperative: elevators, member farmers, contracts, scale tickets, bins, patronage. */
export const coopDomain = defineDomain({
  id: "coop",
  title: "Grain cooperative",
  description:
    "An agricultural grain cooperative with several elevators: member farmers, forward, basis and deferred-price contracts, scale tickets keyed into the accounting system and their applications to contracts, storage bins and temperature alerts. The truck scales' daily ticket journals, the bins' temperature monitoring exports and the discount schedule, scale house procedures, delivery rules, aeration policy and patronage allocation live in workspace files.",
  version: 1,
  schemaSql: coopSchemaSql,
  generate: generateCoop,
  tools: coopTools,
});
