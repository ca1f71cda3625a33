import { defineDomain } from "../../envs/index.js";
import { generateCourt } from "./generate.js";
import { courtSchemaSql } from "./schema.js";
import { courtTools } from "./tools.js";

/** A county court clerk's office: civil and small claims cases, dockets, scanned filings and proofs of service. */
export const courtDomain = defineDomain({
  id: "court",
  title: "County court clerk's office",
  description:
    "The clerk's office of a county superior court with civil and small claims departments: cases, parties and their attorneys, the docket (register of actions), filings whose scanned images come back as OCR text with the cashier's fee receipt, the hearings calendar, and proofs of service and mailed papers as scanned batches in the workspace. The local rules (court days, holidays, response deadlines), the fee schedule, the default rules and the law-and-motion calendar are workspace documents.",
  version: 1,
  schemaSql: courtSchemaSql,
  generate: generateCourt,
  tools: courtTools,
});
