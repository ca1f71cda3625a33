import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import {
  allRows,
  defineGetTool,
  defineListTool,
  getRow,
  insertRow,
  isoDateSchema,
  requireEntity,
  updateEntity,
  when,
  withSilentFailures,
  withTransientFailures,
  optionalText,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { crewId, customerId, feederId, meterId, workOrderId } from "./ids.js";
import { NOW, PRIORITIES } from "./world.js";

const utilitySchema = z.enum(["electric", "water"]);
const prioritySchema = z.enum(PRIORITIES);
const utcSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, "expected a UTC timestamp like 2025-06-28T14:05:00Z");

const listFeeders = defineListTool({
  name: "list_feeders",
  description:
    "List distribution feeders (id, substation, voltage), ordered by id. Paginated: returns `feeders`, `page`, `per_page`, `total`, `has_more`.",
  key: "feeders",
  from: "feeders",
  orderBy: "feeder_id",
});

const listCustomers = defineListTool({
  name: "list_customers",
  description:
    "List customer accounts matching all given filters, ordered by id. `critical_care` is true for customers on the medical life-support register. Paginated: returns `customers`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    customer_class: optionalChoice(["residential", "commercial"], "Only customers of this class"),
    critical_care: z.boolean().optional().describe("true: only critical-care customers"),
  },
  key: "customers",
  from: "customers",
  where: (input) => [
    when(input.customer_class, "customer_class = ?"),
    when(input.critical_care === undefined ? undefined : input.critical_care ? 1 : 0, "critical_care = ?"),
  ],
  orderBy: "customer_id",
  map: (row) => ({ ...row, critical_care: row.critical_care === 1 }),
});

const listMeters = defineListTool({
  name: "list_meters",
  description:
    "List meters (service points) matching all given filters, ordered by id: customer, utility, the feeder an electric meter is served from (null for water), address. Paginated: returns `meters`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    feeder_id: feederId.schema("Only meters on this feeder").optional(),
    utility: utilitySchema.optional().describe("Only electric or only water meters"),
    customer_id: customerId.schema("Only this customer's meters").optional(),
  },
  key: "meters",
  from: "meters",
  where: { feeder_id: "=", utility: "=", customer_id: "=" },
  orderBy: "meter_id",
});

const listMeterReads = defineListTool({
  name: "list_meter_reads",
  description:
    "List meter reads matching all given filters, ordered by meter then read date. `read_type` is actual or estimated (billed on an estimate). Paginated: returns `reads`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    meter_id: meterId.schema("Only this meter's reads").optional(),
    read_type: optionalChoice(["actual", "estimated"], "Only reads of this type"),
    date_from: optionalDate("Only reads on or after this day, YYYY-MM-DD"),
    date_to: optionalDate("Only reads on or before this day, YYYY-MM-DD"),
  },
  key: "reads",
  from: "meter_reads",
  select: "meter_id, read_date, reading, read_type, source",
  where: { meter_id: "=", read_type: "=", date_from: "read_date >= ?", date_to: "read_date <= ?" },
  orderBy: "meter_id, read_date",
});

const recordMeterRead = defineTool({
  name: "record_meter_read",
  description:
    "Record an actual meter read taken in the field (a meter may have several reads on one day). Returns the stored `read`.",
  kind: "write",
  inputSchema: z.object({
    meter_id: meterId.schema("The meter"),
    read_date: isoDateSchema.describe("The day it was read, YYYY-MM-DD"),
    reading: z.number().int().min(0).describe("The register reading (whole units)"),
  }),
  handler: ({ meter_id, read_date, reading }, { db }: ToolContext) => {
    requireEntity(db, "meters", meterId, meter_id);
    const row = { meter_id, read_date, reading, read_type: "actual", source: "field" };
    insertRow(db, "meter_reads", row);
    return { read: row };
  },
});

const WORK_ORDER_SUMMARY =
  "work_order_id, meter_id, utility, kind, priority, status, created_at, crew_id, completed_at";

const listWorkOrders = defineListTool({
  name: "list_work_orders",
  description:
    "List work orders matching all given filters, ordered by id (times UTC). Descriptions and dispatch times are on get_work_order. Paginated: returns `work_orders`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["open", "dispatched", "completed"], "Only orders in this status"),
    priority: prioritySchema.optional().describe("Only orders of this priority"),
    kind: optionalText("Only orders of this kind, e.g. meter_inspection"),
    meter_id: meterId.schema("Only orders on this meter").optional(),
    crew_id: crewId.schema("Only orders of this crew").optional(),
    created_from: optionalDate("Only orders created on or after this UTC day"),
    created_to: optionalDate("Only orders created on or before this UTC day"),
  },
  key: "work_orders",
  from: "work_orders",
  select: WORK_ORDER_SUMMARY,
  where: {
    status: "=",
    priority: "=",
    kind: "=",
    meter_id: "=",
    crew_id: "=",
    created_from: "substr(created_at, 1, 10) >= ?",
    created_to: "substr(created_at, 1, 10) <= ?",
  },
  orderBy: "work_order_id",
});

const getWorkOrder = defineGetTool({
  name: "get_work_order",
  description:
    "Get one work order in full, with its dispatch time, minutes on customer hold (`hold_minutes`) and description. Returns `work_order`.",
  input: { work_order_id: workOrderId.schema("The work order") },
  key: "work_order",
  from: "work_orders",
  notFound: workOrderId,
});

const createWorkOrder = defineTool({
  name: "create_work_order",
  description: "Raise a new work order (status open, created now) on a meter. Returns the new `work_order`.",
  kind: "write",
  inputSchema: z.object({
    meter_id: meterId.schema("The meter"),
    kind: z
      .enum(["meter_inspection", "meter_exchange", "service_connect", "leak_repair", "outage_restoration"])
      .describe("Kind of work"),
    priority: prioritySchema.describe("Priority"),
    description: z.string().min(3).max(200).describe("What is to be done"),
  }),
  handler: ({ meter_id, kind, priority, description }, { db }: ToolContext) => {
    const meter = requireEntity(db, "meters", meterId, meter_id);
    const count = getRow<{ n: number }>(db, "SELECT COUNT(*) AS n FROM work_orders")!.n;
    const row = insertRow(db, "work_orders", {
      work_order_id: workOrderId.format(count + 1),
      meter_id,
      utility: meter.utility,
      kind,
      priority,
      status: "open",
      created_at: NOW,
      crew_id: null,
      dispatched_at: null,
      completed_at: null,
      description,
    });
    return { work_order: row };
  },
});

const dispatchWorkOrder = defineTool({
  name: "dispatch_work_order",
  description: `Dispatch an open work order to a crew (dispatched now, ${NOW}). The crew's skill must match the order's utility. Returns the updated \`work_order\`.`,
  kind: "write",
  inputSchema: z.object({
    work_order_id: workOrderId.schema("The work order"),
    crew_id: crewId.schema("The crew"),
  }),
  handler: ({ work_order_id, crew_id }, { db }: ToolContext) => {
    const wo = requireEntity(db, "work_orders", workOrderId, work_order_id);
    const crew = requireEntity(db, "crews", crewId, crew_id);
    if (wo.status !== "open")
      throw new ToolFailure(`work order ${work_order_id} is ${String(wo.status)}, not open`);
    if (crew.skill !== wo.utility)
      throw new ToolFailure(
        `crew ${crew_id} is a ${String(crew.skill)} crew; ${work_order_id} is ${String(wo.utility)} work`,
      );
    const dispatched = { status: "dispatched", crew_id, dispatched_at: NOW };
    return { work_order: updateEntity(db, "work_orders", workOrderId, work_order_id, dispatched) };
  },
});

const completeWorkOrder = defineTool({
  name: "complete_work_order",
  description:
    "Close a dispatched work order as completed at the given UTC time. Returns the updated `work_order`.",
  kind: "write",
  inputSchema: z.object({
    work_order_id: workOrderId.schema("The work order"),
    completed_at: utcSchema.describe("When the work was finished, UTC"),
  }),
  handler: ({ work_order_id, completed_at }, { db }: ToolContext) => {
    const wo = requireEntity(db, "work_orders", workOrderId, work_order_id);
    if (wo.status !== "dispatched")
      throw new ToolFailure(
        `work order ${work_order_id} is ${String(wo.status)}; only dispatched orders are completed`,
      );
    if (completed_at <= String(wo.dispatched_at) || completed_at > NOW)
      throw new ToolFailure(
        `completed_at must be after the dispatch (${String(wo.dispatched_at)}) and not after now (${NOW})`,
      );
    const completed = { status: "completed", completed_at };
    return { work_order: updateEntity(db, "work_orders", workOrderId, work_order_id, completed) };
  },
});

const listCrews = defineListTool({
  name: "list_crews",
  description:
    "List field crews (id, lead technician, skill electric or water, depot), ordered by id. Paginated: returns `crews`, `page`, `per_page`, `total`, `has_more`.",
  filters: { skill: utilitySchema.optional().describe("Only crews of this skill") },
  key: "crews",
  from: "crews",
  where: { skill: "=" },
  orderBy: "crew_id",
});

const getTruckStock = defineTool({
  name: "get_truck_stock",
  description:
    'The parts on one crew\'s truck as its handheld last reported them. Returns `crew_id`, `items` (sku, description, quantity); when the handheld has not synced it returns `status` "error" and no items (ask again).',
  kind: "read",
  inputSchema: z.object({ crew_id: crewId.schema("The crew") }),
  handler: ({ crew_id }, { db }: ToolContext) => {
    requireEntity(db, "crews", crewId, crew_id);
    const items = allRows(
      db,
      "SELECT s.sku, p.description, s.quantity FROM truck_stock s JOIN parts p ON p.sku = s.sku WHERE s.crew_id = ? ORDER BY s.sku",
      crew_id,
    );
    return { crew_id, items };
  },
});

/** Crews whose handheld has not synced (once each). */
export const unsynced = (id: string): boolean => Number(id.slice(4)) % 3 === 2;
/** Work orders whose dispatch the WMS answers with a 503 once. */
export const dispatchBusy = (id: string): boolean => Number(id.slice(3)) % 4 === 1;

/** The utility domain's tools, in the order agents see them. */
export const utilityTools: DomainTool[] = [
  listFeeders,
  listCustomers,
  listMeters,
  withTransientFailures(listMeterReads, { when: (input) => input.page === 3 }),
  recordMeterRead,
  // The work-order store answers a slow second page with an empty, partial result instead of an error.
  withSilentFailures(listWorkOrders, {
    when: (input) => input.page === 2,
    body: (input) => ({
      work_orders: [],
      page: input.page,
      per_page: input.per_page,
      total: null,
      has_more: false,
      status: "partial",
      error: "query timed out on replica wms-ro-2; results are incomplete, retry",
    }),
  }),
  getWorkOrder,
  createWorkOrder,
  withTransientFailures(dispatchWorkOrder, { when: (input) => dispatchBusy(input.work_order_id) }),
  completeWorkOrder,
  listCrews,
  withSilentFailures(getTruckStock, {
    when: (input) => unsynced(input.crew_id),
    body: (input) => ({
      crew_id: input.crew_id,
      status: "error",
      error: "handheld HH sync pending: no inventory reported, retry",
      items: [],
    }),
  }),
] as DomainTool[];
