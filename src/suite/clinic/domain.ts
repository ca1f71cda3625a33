import { defineDomain } from "../../envs/index.js";
import { generateClinic } from "./generate.js";
import { clinicSchemaSql } from "./schema.js";
import { clinicTools } from "./tools.js";

/** A multi-specialty outpatient clinic: scheduling, coverage, no-shows and patient billing. */
export const clinicDomain = defineDomain({
  id: "clinic",
  title: "Outpatient clinic scheduling and billing",
  description:
    "A multi-specialty outpatient clinic: providers and their specialties, rooms, patients and insurance plans, the appointment book, and the billing ledger of charges and patient payments. Scheduling rules, leave, closures, no-show and billing policies live in workspace documents.",
  version: 1,
  schemaSql: clinicSchemaSql,
  generate: generateClinic,
  tools: clinicTools,
});
