import { defineDomain } from "../../envs/index.js";
import { generateUtility } from "./generate.js";
import { utilitySchemaSql } from "./schema.js";
import { utilityTools } from "./tools.js";

/** A water and electric utility's field service: meters and reads, work orders and crews, outages, truck stock. */
export const utilityDomain = defineDomain({
  id: "utility",
  title: "Utility field service",
  description:
    "A water and electric utility's field service: feeders, customers and their meters, the meter-read history with estimated reads, work orders with priorities and crews, and the stock on each crew's truck. The SCADA alarm journal (one raw export per day), the technicians' handheld note dumps and the read, SLA, dispatch, outage-reporting and truck-stock policies live in workspace files.",
  version: 1,
  schemaSql: utilitySchemaSql,
  generate: generateUtility,
  tools: utilityTools,
});
