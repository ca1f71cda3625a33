import { defineDomain } from "../../envs/index.js";
import { generateCustoms } from "./generate.js";
import { customsSchemaSql } from "./schema.js";
import { customsTools } from "./tools.js";

/** A freight customs broker: shipments, scanned shipping documents, the tariff, entries and holds. */
export const customsDomain = defineDomain({
  id: "customs",
  title: "Freight customs brokerage",
  description:
    "A customs broker clearing importers' shipments: importers of record, shipments with their scanned (OCR) commercial invoices, packing lists, bills of lading and certificates of origin, the tariff schedule with general and preference rates, the entries filed with customs and the holds on shipments. Duty and preference rules, the de-minimis threshold, the currency rates and the broker's fee schedule live in workspace documents.",
  version: 1,
  schemaSql: customsSchemaSql,
  generate: generateCustoms,
  tools: customsTools,
});
