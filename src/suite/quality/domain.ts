import { defineDomain } from "../../envs/index.js";
import { generateQuality } from "./generate.js";
import { qualitySchemaSql } from "./schema.js";
import { qualityTools } from "./tools.js";

/** Manufacturing quality at a contract machine shop: lots, inspection, NCRs, CAPA, suppliers, gauges. */
export const qualityDomain = defineDomain({
  id: "quality",
  title: "Manufacturing quality at a machine shop",
  description:
    "A contract machine shop's quality system: parts and their inspection plans, raw-material lots from bar-stock suppliers, production lots by line and shift, sample measurements, gauges, non-conformance reports and CAPAs. Sampling plan, disposition rules, CAPA deadlines, calibration intervals and history, supplier deviations and customer emails live in workspace documents.",
  version: 1,
  schemaSql: qualitySchemaSql,
  generate: generateQuality,
  tools: qualityTools,
});
