import { defineIdFormat } from "../../envs/index.js";

export const flightId = defineIdFormat({
  field: "flight_id",
  entity: "flight",
  prefix: "FL-",
  digits: 5,
  listTool: "list_flights",
});
export const bookingId = defineIdFormat({
  field: "booking_id",
  entity: "booking",
  prefix: "BK-",
  digits: 6,
  listTool: "list_bookings",
});
export const memberId = defineIdFormat({
  field: "member_id",
  entity: "loyalty member",
  prefix: "LM-",
  digits: 5,
  listTool: "list_bookings",
});
export const crewId = defineIdFormat({
  field: "crew_id",
  entity: "crew member",
  prefix: "CR-",
  digits: 4,
  listTool: "list_crew",
});
export const tailNumber = defineIdFormat({
  field: "tail",
  entity: "aircraft",
  pattern: /^N\d{3}RA$/,
  example: "N123RA",
  listTool: "list_aircraft",
});
