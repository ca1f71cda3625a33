import { defineIdFormat, type IdFormat } from "../../envs/index.js";

/** An id as a prefix and a zero-padded number, listed by `listTool`. */
function numberedId(
  field: string,
  entity: string,
  prefix: string,
  digits: number,
  listTool: string,
): IdFormat {
  return defineIdFormat({ field, entity, prefix, digits, listTool });
}

export const flightId = numberedId("flight_id", "flight", "FL-", 5, "list_flights");
export const bookingId = numberedId("booking_id", "booking", "BK-", 6, "list_bookings");
export const memberId = numberedId("member_id", "loyalty member", "LM-", 5, "list_bookings");
export const crewId = numberedId("crew_id", "crew member", "CR-", 4, "list_crew");
export const tailNumber = defineIdFormat({
  field: "tail",
  entity: "aircraft",
  pattern: /^N\d{3}RA$/,
  example: "N123RA",
  listTool: "list_aircraft",
});
