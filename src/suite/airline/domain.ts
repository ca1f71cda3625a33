import { defineDomain } from "../../envs/index.js";
import { generateAirline } from "./generate.js";
import { airlineSchemaSql } from "./schema.js";
import { airlineTools } from "./tools.js";

/** The airline domain definition, kept apart from index.ts so task modules can import it without a cycle. */
export const airlineDomain = defineDomain({
  id: "airline",
  title: "Regional airline operations",
  description:
    "A regional airline flying a hub-and-spoke network out of Boston: airports, routes, a turboprop fleet, a month of flights with actual times and delay codes, the bookings of the operational window with loyalty members, crew and rosters, with a passenger compensation policy, connection standards, a rebooking priority memo, a network planning memo, crew duty-time rules, ops-control emails, weather delay exports and station guides in the workspace.",
  version: 1,
  schemaSql: airlineSchemaSql,
  generate: generateAirline,
  tools: airlineTools,
});
