import { defineDomain } from "../../envs/index.js";
import { generateItSupport } from "./generate.js";
import { itSupportSchemaSql } from "./schema.js";
import { itSupportTools } from "./tools.js";

/** IT service desk of a managed-service provider: tickets and their history, SLAs, teams, customers and assets. */
export const itSupportDomain = defineDomain({
  id: "it_support",
  title: "IT support desk",
  description:
    "A managed-service provider's IT service desk: tickets with their status history, agents and teams, customer companies on support tiers, their contacts and assets. Workspace documents hold the SLA policy, escalation matrix, holiday calendar, leave calendar, on-call rotas, refresh policy, weekly exports, postmortems and shift handovers.",
  version: 1,
  schemaSql: itSupportSchemaSql,
  generate: generateItSupport,
  tools: itSupportTools,
});
