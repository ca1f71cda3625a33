import { defineDomain } from "../../envs/index.js";
import { generateProperty } from "./generate.js";
import { propertySchemaSql } from "./schema.js";
import { propertyTools } from "./tools.js";

/** Residential property management: buildings, units, leases, the rent ledger, maintenance and inspections. */
export const propertyDomain = defineDomain({
  id: "property",
  title: "Residential property management",
  description:
    "A company managing several apartment buildings: units, tenants and leases (rent, deposit, escalation clause), the rent ledger of charges, payments, late fees and deposit refunds, maintenance vendors and work orders, and unit inspections. Collection, renewal, maintenance and deposit rules live in workspace policies, memos, lease addenda and correspondence.",
  version: 1,
  schemaSql: propertySchemaSql,
  generate: generateProperty,
  tools: propertyTools,
});
