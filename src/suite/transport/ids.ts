import { prefixedId as idFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */

export const schoolId = idFormat("school_id", "school", "SCH-", 2, "list_schools");
export const busId = idFormat("bus_id", "bus", "BUS-", 3, "list_buses");
export const driverId = idFormat("driver_id", "driver", "DRV-", 3, "list_drivers");
export const routeId = idFormat("route_id", "route", "RT-", 3, "list_routes");
export const stopId = idFormat("stop_id", "stop", "STP-", 4, "list_stops");
export const studentId = idFormat("student_id", "student", "STU-", 5, "list_students");
export const shiftId = idFormat("shift_id", "shift", "SH-", 5, "list_shifts");
export const reportId = idFormat("report_id", "state report", "SR-", 4, "list_state_reports");
