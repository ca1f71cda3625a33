import { defineDomain } from "../../envs/index.js";
import { generatePermits } from "./generate.js";
import { permitsSchemaSql } from "./schema.js";
import { permitsTools } from "./tools.js";

/** A city's permits office, worked through its server-rendered staff portal (pages and forms, not an API). */
export const permitsDomain = defineDomain({
  id: "permits",
  title: "Municipal permits portal",
  description:
    "The staff portal of a city's building-permits office, used like a browser: search pages that paginate, permit, fee, inspection-report and contractor-license pages returned as accessibility snapshots, and forms for booking inspections, issuing stop-work orders, recording fee waivers and reassigning inspectors. The fee schedule, the inspection policy memo, the inspector roster and the shared inbox are workspace documents.",
  version: 1,
  schemaSql: permitsSchemaSql,
  generate: generatePermits,
  tools: permitsTools,
});
