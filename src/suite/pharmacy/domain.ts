import { defineDomain } from "../../envs/index.js";
import { generatePharmacy } from "./generate.js";
import { pharmacySchemaSql } from "./schema.js";
import { pharmacyTools } from "./tools.js";

/** A hospital pharmacy: formulary, lots and stock by location, orders and dispenses, recalls and counts. */
export const pharmacyDomain = defineDomain({
  id: "pharmacy",
  title: "Hospital pharmacy",
  description:
    "A hospital pharmacy: the drug catalog and formulary, manufacturer lots with expiry dates, stock at the central pharmacy, a satellite pharmacy and the automated dispensing cabinets on the wards, wholesaler purchase orders and returns, medication orders and the dispenses that filled them, cabinet refills and controlled-substance count discrepancies. Par levels, reorder rules, therapeutic interchange decisions, count rules and recall instructions live in workspace policies, memos, par sheets, shift count sheets, recall notices and e-mail.",
  version: 1,
  schemaSql: pharmacySchemaSql,
  generate: generatePharmacy,
  tools: pharmacyTools,
});
