import { defineDomain } from "../../envs/index.js";
import { generateGrants } from "./generate.js";
import { grantsSchemaSql } from "./schema.js";
import { grantsTools } from "./tools.js";

/** A university's research grants office, whose award letters, invoices and effort reports are OCR'd scans. */
export const grantsDomain = defineDomain({
  id: "grants",
  title: "University research grants office",
  description:
    "The Office of Sponsored Programs of a university: awards with budgets by category, the people committed to them, the general ledger, subawards and their payments, and a register of scanned documents (award letters, subaward invoices, effort certifications, extension requests) whose pages come back as OCR text with layout noise. Sponsors' terms and conditions, the F&A rate agreement, the office's procedures and the chart of accounts are workspace documents.",
  version: 1,
  schemaSql: grantsSchemaSql,
  generate: generateGrants,
  tools: grantsTools,
});
