import { defineDomain } from "../../envs/index.js";
import { generatePayables } from "./generate.js";
import { payablesSchemaSql } from "./schema.js";
import { payablesTools } from "./tools.js";

/** Accounts payable of a mid-size distributor: vendors, purchase orders, receipts, invoices and payments. */
export const payablesDomain = defineDomain({
  id: "payables",
  title: "Accounts payable for a distributor",
  description:
    "The accounts payable ledger of a mid-size distributor: vendors and payment terms, purchase orders with their lines and goods receipts, vendor invoices with lines and approvals, and payments. Match tolerances, approval thresholds, discount rules, negotiated contract terms and prices, payment holds and the bank's remittance exports live in workspace documents.",
  version: 1,
  schemaSql: payablesSchemaSql,
  generate: generatePayables,
  tools: payablesTools,
});
