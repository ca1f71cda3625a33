import { defineDomain } from "../../envs/index.js";
import { generateBilling } from "./generate.js";
import { billingSchemaSql } from "./schema.js";
import { billingTools } from "./tools.js";

/** Subscription billing of a B2B SaaS company: accounts, plans, subscriptions, usage, invoices, payments. */
export const billingDomain = defineDomain({
  id: "billing",
  title: "B2B SaaS subscription billing",
  description:
    "Subscription billing of a B2B SaaS company: customer accounts and billing contacts, plans with per-seat prices and graduated usage tiers, subscriptions, daily metered API usage, invoices and their lines, payment attempts and credit notes. Dunning, pricing changes, SLA credits, negotiated contract terms and credit requests live in workspace documents.",
  version: 1,
  schemaSql: billingSchemaSql,
  generate: generateBilling,
  tools: billingTools,
});
