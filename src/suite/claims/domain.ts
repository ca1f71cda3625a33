import { defineDomain } from "../../envs/index.js";
import { generateClaims } from "./generate.js";
import { claimsSchemaSql } from "./schema.js";
import { claimsTools } from "./tools.js";

/** The claims domain definition, kept apart from index.ts so task modules can import it without a cycle. */
export const claimsDomain = defineDomain({
  id: "claims",
  title: "Property and auto insurance claims",
  description:
    "A regional property and auto insurer: policyholders, policies with limits, deductibles and endorsements, claims with reserves, payments and notes, and field adjusters by region and license, with coverage rules, an assignment guideline, a reserve guideline, an SIU fraud memo, catastrophe bulletins, field notes and claimant emails in the workspace.",
  version: 1,
  schemaSql: claimsSchemaSql,
  generate: generateClaims,
  tools: claimsTools,
});
