import { defineDomain } from "../../envs/index.js";
import { generateConstruction } from "./generate.js";
import { constructionSchemaSql } from "./schema.js";
import { constructionTools } from "./tools.js";

/** A general contractor's project office: subcontracts, change orders in e-mail threads, pay apps, RFIs, submittals, COIs, daily logs. */
export const constructionDomain = defineDomain({
  id: "construction",
  title: "General contractor's project office",
  description:
    "A general contractor's project office running two to four building projects: subcontractors and their certificates of insurance, subcontracts with schedules of values, a hand-kept change-order log beside the e-mail threads where change orders are requested and decided (raw thread text with quoted replies, forwards, signatures and request forms attached as text), monthly pay applications with retainage, RFIs and submittals with review dates, and the superintendents' weekly daily-log files. Retainage, approval authority, response times, holidays, weather days and insurance requirements are workspace documents.",
  version: 1,
  schemaSql: constructionSchemaSql,
  generate: generateConstruction,
  tools: constructionTools,
});
