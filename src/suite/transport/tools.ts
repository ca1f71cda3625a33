import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import {
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  insertRow,
  isoDateSchema,
  pageSchema,
  requireEntity,
  updateEntity,
  when,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { busId, driverId, reportId, routeId, schoolId, stopId, studentId } from "./ids.js";
import { avlText } from "./avl.js";
import { AVL_PAGE_LINES, PARTIAL_DAY, REPORTABLE, WEEK } from "./world.js";

const flag = (value: boolean | undefined): number | undefined =>
  value === undefined ? undefined : value ? 1 : 0;

const dateFilters = {
  date_from: optionalDate("Only days on or after, YYYY-MM-DD"),
  date_to: optionalDate("Only days on or before, YYYY-MM-DD"),
};
const inRange = (column: string, input: { date_from?: string | undefined; date_to?: string | undefined }) => [
  when(input.date_from, `${column} >= ?`),
  when(input.date_to, `${column} <= ?`),
];

const listSchools = defineListTool({
  name: "list_schools",
  description:
    "List schools: id, name, level (elementary, middle, high) and regular bell time (local, HH:MM). Paginated: returns `schools`, `page`, `per_page`, `total`, `has_more`.",
  key: "schools",
  from: "schools",
  orderBy: "school_id",
});

const listBuses = defineListTool({
  name: "list_buses",
  description:
    "List buses: rated capacity, wheelchair lift, AVL unit, status (in_service, spare, shop). Paginated: returns `buses`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["in_service", "spare", "shop"], "Only buses in this status"),
    wheelchair_lift: z.boolean().optional().describe("Only buses with (true) or without (false) a lift"),
  },
  key: "buses",
  from: "buses",
  where: ({ status, wheelchair_lift }) => [
    when(status, "status = ?"),
    when(flag(wheelchair_lift), "wheelchair_lift = ?"),
  ],
  orderBy: "bus_id",
  map: (row) => withBooleans(row, "wheelchair_lift"),
});

const listDrivers = defineListTool({
  name: "list_drivers",
  description:
    "List drivers: id, name and e-mail (licence details are on get_driver). Paginated: returns `drivers`, `page`, `per_page`, `total`, `has_more`.",
  filters: { name: z.string().min(2).optional().describe("Only drivers whose name contains this text") },
  key: "drivers",
  from: "drivers",
  select: "driver_id, name, email",
  where: ({ name }) => [when(name === undefined ? undefined : `%${name}%`, "name LIKE ?")],
  orderBy: "driver_id",
});

const getDriver = defineGetTool({
  name: "get_driver",
  description:
    "Get one driver's licence record: CDL class, endorsements (comma-separated letters), medical card expiry, wheelchair-lift training expiry (null: never trained). Returns `driver`.",
  input: { driver_id: driverId.schema("The driver") },
  key: "driver",
  from: "drivers",
  notFound: driverId,
});

const listRoutes = defineListTool({
  name: "list_routes",
  description:
    "List AM routes with the school they serve, the bus and the driver assigned. Paginated: returns `routes`, `page`, `per_page`, `total`, `has_more`.",
  filters: { school_id: schoolId.schema("Only routes serving this school").optional() },
  key: "routes",
  from: "routes",
  where: { school_id: "=" },
  orderBy: "route_id",
});

const listStops = defineListTool({
  name: "list_stops",
  description:
    "List stops in route order: sequence along the route, location, zone, scheduled pickup time, status (open, closed). Paginated: returns `stops`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    route_id: routeId.schema("Only stops of this route").optional(),
    status: optionalChoice(["open", "closed"], "Only stops in this status"),
  },
  key: "stops",
  from: "stops",
  where: { route_id: "=", status: "=" },
  orderBy: "route_id, seq, stop_id",
});

const listStudents = defineListTool({
  name: "list_students",
  description:
    "List students: grade (K-12), school, home zone, walking distance from home to school in miles, transport needs (none, iep_transport, wheelchair) and assigned stop (null: not riding). Paginated: returns `students`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    school_id: schoolId.schema("Only students of this school").optional(),
    stop_id: stopId.schema("Only students assigned to this stop").optional(),
    riding: z.boolean().optional().describe("true: only students assigned to a stop"),
  },
  key: "students",
  from: "students",
  where: ({ school_id, stop_id, riding }) => [
    when(school_id, "school_id = ?"),
    when(stop_id, "stop_id = ?"),
    riding === undefined ? null : riding ? "stop_id IS NOT NULL" : "stop_id IS NULL",
  ],
  orderBy: "student_id",
});

const listRidership = defineListTool({
  name: "list_ridership",
  description:
    "List daily AM boarding counts per route (from the bus tablets' student scans). Paginated: returns `ridership`, `page`, `per_page`, `total`, `has_more`.",
  filters: { route_id: routeId.schema("Only this route").optional(), ...dateFilters },
  key: "ridership",
  from: "ridership",
  where: (input) => [when(input.route_id, "route_id = ?"), ...inRange("ride_date", input)],
  orderBy: "ride_date, route_id",
});

const listShifts = defineListTool({
  name: "list_shifts",
  description:
    'List timesheet shifts: driver, work date, duty, clock-in and clock-out (local, HH:MM). Paginated: returns `shifts`, `page`, `per_page`, `total`, `has_more`; when the timesheet service times out it returns `status` "error" and no rows instead (ask again).',
  filters: { driver_id: driverId.schema("Only this driver's shifts").optional(), ...dateFilters },
  key: "shifts",
  from: "shifts",
  where: (input) => [when(input.driver_id, "driver_id = ?"), ...inRange("work_date", input)],
  orderBy: "shift_id",
});

const fetchAvl = defineTool({
  name: "fetch_avl",
  description: `Fetch one page (${AVL_PAGE_LINES} raw lines, in order) of a bus's AVL telematics export for one day (${WEEK[0]} to ${WEEK[WEEK.length - 1]}). Returns \`bus_id\`, \`date\`, \`page\`, \`lines\`, \`has_more\`; a query that timed out returns \`status\` "partial" (fetch the page again).`,
  kind: "read",
  inputSchema: z.object({
    bus_id: busId.schema("The bus"),
    date: isoDateSchema.describe("The day, YYYY-MM-DD"),
    page: pageSchema,
  }),
  handler: ({ bus_id, date, page }, { db }: ToolContext) => {
    requireEntity(db, "buses", busId, bus_id);
    const lines = avlText(db, bus_id, date)?.split("\n");
    if (!lines)
      throw new ToolFailure(
        `no AVL export for ${bus_id} on ${date}; exports cover in-service buses on school days ${WEEK[0]} to ${WEEK[WEEK.length - 1]}`,
      );
    const [start, end] = [(page - 1) * AVL_PAGE_LINES, page * AVL_PAGE_LINES];
    return { bus_id, date, page, lines: lines.slice(start, end), has_more: lines.length > end };
  },
});

const assignStudentStop = defineTool({
  name: "assign_student_stop",
  description:
    'Assign a student to an open stop. Returns the updated `student`; when the record is locked by another user it returns `status` "error" and saves nothing (try again).',
  kind: "write",
  inputSchema: z.object({
    student_id: studentId.schema("The student"),
    stop_id: stopId.schema("The new stop"),
  }),
  handler: ({ student_id, stop_id }, { db }: ToolContext) => {
    requireEntity(db, "students", studentId, student_id);
    const stop = requireEntity(db, "stops", stopId, stop_id);
    if (stop.status !== "open") throw new ToolFailure(`stop ${stop_id} is closed; assign an open stop`);
    cachedStatement(db, "UPDATE students SET stop_id = ? WHERE student_id = ?").run(stop_id, student_id);
    const sql = "SELECT student_id, school_id, stop_id FROM students WHERE student_id = ?";
    return { student: getRow(db, sql, student_id) };
  },
});

const closeStop = defineTool({
  name: "close_stop",
  description:
    "Close a stop in the routing system (its riders keep their assignment until moved). Returns the `stop`.",
  kind: "write",
  inputSchema: z.object({ stop_id: stopId.schema("The stop") }),
  handler: ({ stop_id }, { db }: ToolContext) => {
    requireEntity(db, "stops", stopId, stop_id);
    return { stop: updateEntity(db, "stops", stopId, stop_id, { status: "closed" }) };
  },
});

const assignBus = defineTool({
  name: "assign_bus",
  description:
    "Put a spare bus on a route; the route's previous bus goes back to the spare pool. Returns the `route`.",
  kind: "write",
  inputSchema: z.object({ route_id: routeId.schema("The route"), bus_id: busId.schema("A spare bus") }),
  handler: ({ route_id, bus_id }, { db }: ToolContext) => {
    const route = requireEntity(db, "routes", routeId, route_id);
    const bus = requireEntity(db, "buses", busId, bus_id);
    if (bus.status !== "spare")
      throw new ToolFailure(`bus ${bus_id} is ${String(bus.status)}, not spare; pick a spare bus`);
    cachedStatement(db, "UPDATE buses SET status = 'spare' WHERE bus_id = ?").run(route.bus_id);
    cachedStatement(db, "UPDATE buses SET status = 'in_service' WHERE bus_id = ?").run(bus_id);
    return { route: updateEntity(db, "routes", routeId, route_id, { bus_id }) };
  },
});

const listStateReports = defineListTool({
  name: "list_state_reports",
  description:
    "List the incident reports already filed with the state. Paginated: returns `reports`, `page`, `per_page`, `total`, `has_more`.",
  key: "reports",
  from: "state_reports",
  orderBy: "report_id",
});

const fileStateReport = defineTool({
  name: "file_state_report",
  description: "File an incident report with the state's pupil transportation portal. Returns the `report`.",
  kind: "write",
  inputSchema: z.object({
    route_id: routeId.schema("The route"),
    driver_id: driverId.schema("The driver"),
    incident_date: isoDateSchema.describe("The day the incident happened, YYYY-MM-DD"),
    category: z.enum(REPORTABLE).describe("What makes it reportable"),
  }),
  handler: (input, { db }: ToolContext) => {
    requireEntity(db, "routes", routeId, input.route_id);
    requireEntity(db, "drivers", driverId, input.driver_id);
    const count = getRow<{ n: number }>(db, "SELECT COUNT(*) AS n FROM state_reports")!.n;
    return { report: insertRow(db, "state_reports", { report_id: reportId.format(count + 1), ...input }) };
  },
});

/** Student records the SIS locks (once each) while another user edits them. */
export const recordLocked = (id: string): boolean => Number(id.slice(4)) % 5 === 2;

/** The transport domain's tools, in the order agents see them. */
export const transportTools: DomainTool[] = [
  listSchools,
  listRoutes,
  listStops,
  listBuses,
  listDrivers,
  // Licence details come from the state's licensing service, which sheds load with 503s.
  withTransientFailures(getDriver, { when: (input) => Number(input.driver_id.slice(4)) % 3 === 0 }),
  // The SIS is slow: the second page of a student listing first fails with a 503.
  withTransientFailures(listStudents, { when: (input) => input.page === 2 }),
  listRidership,
  // The timesheet service answers each new query's first request with a timeout body.
  withSilentFailures(listShifts, {
    body: () => ({ status: "error", error: "timesheet service timeout: no rows returned, retry" }),
  }),
  // A slow archive shard: page 2 of Thursday's exports first comes back empty and marked partial.
  withSilentFailures(fetchAvl, {
    when: (input) => input.date === PARTIAL_DAY && input.page === 2,
    body: (input) => ({
      ...input,
      status: "partial",
      error: "archive shard timed out; lines incomplete, retry",
      lines: [],
      has_more: false,
    }),
  }),
  closeStop,
  withSilentFailures(assignStudentStop, {
    when: (input) => recordLocked(input.student_id),
    body: (input) => ({
      status: "error",
      error: `record ${input.student_id} is locked by another user; nothing saved, retry`,
    }),
  }),
  assignBus,
  listStateReports,
  withTransientFailures(fileStateReport, { when: (input) => input.category === "injury" }),
] as DomainTool[];
