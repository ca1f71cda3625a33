import { defineDomain } from "../../envs/index.js";
import { generateHotel } from "./generate.js";
import { hotelSchemaSql } from "./schema.js";
import { hotelTools } from "./tools.js";

/** A small hotel group's front office, worked through its property-management system's web pages. */
export const hotelDomain = defineDomain({
  id: "hotel",
  title: "Hotel group front office",
  description:
    "The front office of a small hotel group (two to four properties), used through its property-management system's web pages returned as accessibility snapshots: per-property reservation listings (each property with its own date format and column order), reservation pages, guest folios with a charge form, the housekeeping board, group blocks and their rooming lists, a room-move form, and the channel manager's JSON feed of online bookings. The cancellation, city-tax, room-assignment, group-block and receivables policies and the rate-plan notes are workspace documents.",
  version: 1,
  schemaSql: hotelSchemaSql,
  generate: generateHotel,
  tools: hotelTools,
});
