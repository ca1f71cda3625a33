import { defineDomain } from "../../envs/index.js";
import { generateLibrary } from "./generate.js";
import { librarySchemaSql } from "./schema.js";
import { libraryTools } from "./tools.js";

/** A public library's acquisitions department: orders, funds, catalog records, invoices, notices, requests. */
export const libraryDomain = defineDomain({
  id: "library",
  title: "Public library acquisitions",
  description:
    "A public library's acquisitions department: vendors, funds with their fiscal-year budgets and ledger (encumbrances, releases, expenditures, credits, transfers), bibliographic records in MARC mnemonic form, purchase orders and their lines, claims, vendor invoices as printouts and patron purchase requests. Selection, fund-assignment, invoice-review, claiming and cancellation rules live in workspace policies; vendors' shipping notices are plain-text files.",
  version: 1,
  schemaSql: librarySchemaSql,
  generate: generateLibrary,
  tools: libraryTools,
});
