import { defineDomain } from "../../envs/index.js";
import { generateTransport } from "./generate.js";
import { transportSchemaSql } from "./schema.js";
import { transportTools } from "./tools.js";

/** A school district's transportation office: routes, buses, drivers, riders, telematics and incident mail. */
export const transportDomain = defineDomain({
  id: "transport",
  title: "School district transportation",
  description:
    "A school district's transportation office: schools and bell times, buses (rated capacity, wheelchair lifts, AVL units), drivers and their licences, routes and stops, students with home distance, zone and transport needs, daily ridership counts, driver timesheets, state incident reports and raw AVL (GPS telematics) exports per bus per day. The transportation policy (eligibility, capacity, on-time, speed, hours, qualifications, closures, reporting), a stop-closure notice and drivers' incident e-mails live in the workspace.",
  version: 1,
  schemaSql: transportSchemaSql,
  generate: generateTransport,
  tools: transportTools,
});
