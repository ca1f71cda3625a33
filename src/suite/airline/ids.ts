import { defineIdFormat, prefixedId } from "../../envs/index.js";

export const flightId = prefixedId("flight_id", "flight", "FL-", 5, "list_flights");
export const bookingId = prefixedId("booking_id", "booking", "BK-", 6, "list_bookings");
export const memberId = prefixedId("member_id", "loyalty member", "LM-", 5, "list_bookings");
export const crewId = prefixedId("crew_id", "crew member", "CR-", 4, "list_crew");
export const tailNumber = defineIdFormat({
  field: "tail",
  entity: "aircraft",
  pattern: /^N\d{3}RA$/,
  example: "N123RA",
  listTool: "list_aircraft",
});
