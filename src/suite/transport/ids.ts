import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const schoolId = defineIdFormat({
  field: "school_id",
  entity: "school",
  prefix: "SCH-",
  digits: 2,
  listTool: "list_schools",
});
export const busId = defineIdFormat({
  field: "bus_id",
  entity: "bus",
  prefix: "BUS-",
  digits: 3,
  listTool: "list_buses",
});
export const driverId = defineIdFormat({
  field: "driver_id",
  entity: "driver",
  prefix: "DRV-",
  digits: 3,
  listTool: "list_drivers",
});
export const routeId = defineIdFormat({
  field: "route_id",
  entity: "route",
  prefix: "RT-",
  digits: 3,
  listTool: "list_routes",
});
export const stopId = defineIdFormat({
  field: "stop_id",
  entity: "stop",
  prefix: "STP-",
  digits: 4,
  listTool: "list_stops",
});
export const studentId = defineIdFormat({
  field: "student_id",
  entity: "student",
  prefix: "STU-",
  digits: 5,
  listTool: "list_students",
});
export const shiftId = defineIdFormat({
  field: "shift_id",
  entity: "shift",
  prefix: "SH-",
  digits: 5,
  listTool: "list_shifts",
});
export const reportId = defineIdFormat({
  field: "report_id",
  entity: "state report",
  prefix: "SR-",
  digits: 4,
  listTool: "list_state_reports",
});
