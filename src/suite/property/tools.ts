import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import {
  REFERENCE_DATE,
  allRows,
  getRow,
  insertRow,
  requireEntity,
  requireRow,
  roundCents,
  updateEntity,
  when,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
  defineListTool,
  defineGetTool,
  optionalText,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { buildingId, inspectionId, leaseId, tenantId, unitId, vendorId, workOrderId } from "./ids.js";
import { PRIORITIES, TRADES } from "./rules.js";

const periodSchema = z.string().regex(/^\d{4}-\d{2}$/, "expected a rent period as YYYY-MM");

/** The `lease_ids` of a get tool: the ids of the leases matching `where`, whose one `?` is the id looked up. */
function leaseIds(where: string): (db: ToolContext["db"], id: unknown) => string[] {
  return (db, id) =>
    allRows<{ lease_id: string }>(db, `SELECT lease_id FROM leases WHERE ${where}`, id).map(
      (row) => row.lease_id,
    );
}

const listBuildings = defineListTool({
  name: "list_buildings",
  description:
    "List the company's buildings (id, name, address, site manager), ordered by id. Paginated: returns `buildings`, `page`, `per_page`, `total`, `has_more`.",
  key: "buildings",
  from: "buildings",
  orderBy: "building_id",
});

const getBuilding = defineGetTool({
  name: "get_building",
  description: "Get one building's record. Returns `building`.",
  input: { building_id: buildingId.schema("The building") },
  key: "building",
  from: "buildings",
  notFound: buildingId,
});

const listUnits = defineListTool({
  name: "list_units",
  description:
    "List units with building, unit number, bedrooms, size, market rent and whether the unit is offline (out of service), ordered by unit id. Occupancy is not stored on the unit; see the leases. Paginated: returns `units`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    building_id: buildingId.schema("Only units of this building").optional(),
    bedrooms: z.number().int().min(0).max(5).optional().describe("Only units with this many bedrooms"),
    offline: z.boolean().optional().describe("true: only offline units; false: only units in service"),
  },
  key: "units",
  from: "units",
  select: "unit_id, building_id, unit_number, bedrooms, square_feet, market_rent, offline",
  where: ({ building_id, bedrooms, offline }) => [
    when(building_id, "building_id = ?"),
    when(bedrooms, "bedrooms = ?"),
    when(offline === undefined ? undefined : offline ? 1 : 0, "offline = ?"),
  ],
  orderBy: "unit_id",
  map: (row) => withBooleans(row, "offline"),
});

const getUnit = defineGetTool({
  name: "get_unit",
  description:
    "Get one unit's record, including the offline reason, and the ids of its leases (newest first). Returns `unit`, `lease_ids`.",
  input: { unit_id: unitId.schema("The unit") },
  key: "unit",
  from: "units",
  notFound: unitId,
  map: (row) => withBooleans(row, "offline"),
  related: { lease_ids: leaseIds("unit_id = ? ORDER BY start_date DESC, lease_id DESC") },
});

const listTenants = defineListTool({
  name: "list_tenants",
  description:
    "Search tenants by name or email (case-insensitive substring), ordered by tenant id. Paginated: returns `tenants`, `page`, `per_page`, `total`, `has_more`.",
  filters: { query: optionalText("Substring of the first name, last name or email") },
  key: "tenants",
  from: "tenants",
  where: ({ query }) => [
    when(
      query === undefined ? undefined : `%${query.toLowerCase()}%`,
      "(lower(first_name || ' ' || last_name) LIKE ? OR lower(email) LIKE ?)",
    ),
  ],
  orderBy: "tenant_id",
});

const getTenant = defineGetTool({
  name: "get_tenant",
  description: "Get one tenant's contact record and the ids of their leases. Returns `tenant`, `lease_ids`.",
  input: { tenant_id: tenantId.schema("The tenant") },
  key: "tenant",
  from: "tenants",
  notFound: tenantId,
  related: { lease_ids: leaseIds("tenant_id = ? ORDER BY lease_id") },
});

const listLeases = defineListTool({
  name: "list_leases",
  description:
    "List leases matching all given filters, ordered by lease id. `status` is signed (starts in the future), active or ended. Summaries only: deposit and escalation clause are on get_lease. Paginated: returns `leases`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["signed", "active", "ended"], "Only leases in this status"),
    building_id: buildingId.schema("Only leases of units in this building").optional(),
    unit_id: unitId.schema("Only leases of this unit").optional(),
    end_from: optionalDate("Only leases ending on or after this date, YYYY-MM-DD"),
    end_to: optionalDate("Only leases ending on or before this date, YYYY-MM-DD"),
    moved_out_from: optionalDate("Only leases whose tenant moved out on or after this date, YYYY-MM-DD"),
  },
  key: "leases",
  from: "leases l JOIN units u ON u.unit_id = l.unit_id",
  select:
    "l.lease_id, l.unit_id, u.building_id, l.tenant_id, l.status, l.start_date, l.end_date, l.move_out_date, l.monthly_rent",
  where: {
    status: "l.status = ?",
    building_id: "u.building_id = ?",
    unit_id: "l.unit_id = ?",
    end_from: "l.end_date >= ?",
    end_to: "l.end_date <= ?",
    moved_out_from: "l.move_out_date >= ?",
  },
  orderBy: "l.lease_id",
});

const getLease = defineGetTool({
  name: "get_lease",
  description:
    "Get one lease in full: unit, building, tenant, dates, monthly rent, security deposit and the escalation clause (`escalation_pct`, the yearly increase the lease provides for at renewal). Addenda are documents in the workspace, not here. Returns `lease`.",
  input: { lease_id: leaseId.schema("The lease") },
  key: "lease",
  select: "l.*, u.building_id, u.unit_number, t.first_name || ' ' || t.last_name AS tenant_name",
  from: "leases l JOIN units u ON u.unit_id = l.unit_id JOIN tenants t ON t.tenant_id = l.tenant_id",
  idColumn: "l.lease_id",
  notFound: leaseId,
});

/** The lease, which must be in `status`; otherwise a failure that ends with `rule`. */
function leaseIn(db: ToolContext["db"], id: string, status: string, rule: string): Record<string, unknown> {
  const lease = requireEntity(db, "leases", leaseId, id);
  if (lease.status !== status) throw new ToolFailure(`lease ${id} is ${String(lease.status)}; ${rule}`);
  return lease;
}

const listLedgerEntries = defineListTool({
  name: "list_ledger_entries",
  description:
    "List rent-ledger entries matching all given filters, ordered by entry id. `entry_type` is rent (monthly charge), payment (received from the tenant; `reference` is the payment reference), late_fee or deposit_refund; `period` is the rent month (YYYY-MM) an entry belongs to and `entry_date` the day it was posted or received. Amounts are positive. Paginated: returns `entries`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    lease_id: leaseId.schema("Only entries of this lease").optional(),
    entry_type: optionalChoice(
      ["rent", "payment", "late_fee", "deposit_refund"],
      "Only entries of this type",
    ),
    period: periodSchema.optional().describe("Only entries of this rent period, YYYY-MM"),
    date_from: optionalDate("Only entries dated on or after this date, YYYY-MM-DD"),
    date_to: optionalDate("Only entries dated on or before this date, YYYY-MM-DD"),
  },
  key: "entries",
  from: "ledger_entries",
  where: {
    lease_id: "=",
    entry_type: "=",
    period: "=",
    date_from: "entry_date >= ?",
    date_to: "entry_date <= ?",
  },
  orderBy: "entry_id",
});

function requireCents(amount: number): number {
  if (Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6)
    throw new ToolFailure(`amount ${amount} has more than two decimals; give dollars with cents, e.g. 62.50`);
  return roundCents(amount);
}

const postLateFee = defineTool({
  name: "post_late_fee",
  description:
    "Charge a late fee on an active lease for one rent period, dated today. The ledger refuses a second late fee for the same lease and period. Returns the new `entry`.",
  kind: "write",
  inputSchema: z.object({
    lease_id: leaseId.schema("The lease to charge"),
    period: periodSchema.describe("The rent period the fee is for, YYYY-MM"),
    amount: z.number().positive().describe("Fee in dollars, e.g. 62.50"),
    memo: z.string().min(1).max(200).optional().describe("Note printed on the tenant's statement"),
  }),
  handler: ({ lease_id, period, amount, memo }, { db }: ToolContext) => {
    leaseIn(db, lease_id, "active", "late fees go on active leases only");
    const existing = getRow(
      db,
      "SELECT entry_id FROM ledger_entries WHERE lease_id = ? AND period = ? AND entry_type = 'late_fee'",
      lease_id,
      period,
    );
    if (existing) throw new ToolFailure(`lease ${lease_id} already has a late fee for ${period}`);
    const entry = insertRow(db, "ledger_entries", {
      lease_id,
      entry_date: REFERENCE_DATE,
      period,
      entry_type: "late_fee",
      amount: requireCents(amount),
      memo: memo ?? "Late fee",
    });
    return { entry };
  },
});

const recordDepositRefund = defineTool({
  name: "record_deposit_refund",
  description:
    "Record the security-deposit refund of an ended lease (the amount sent back to the former tenant, 0 when nothing is returned), dated today. One refund per lease. Returns the new `entry`.",
  kind: "write",
  inputSchema: z.object({
    lease_id: leaseId.schema("The ended lease"),
    amount: z.number().min(0).describe("Refund in dollars; 0 records that nothing is refunded"),
    memo: z.string().min(1).max(300).optional().describe("Short explanation of the deductions"),
  }),
  handler: ({ lease_id, amount, memo }, { db }: ToolContext) => {
    const lease = leaseIn(db, lease_id, "ended", "refunds are recorded on ended leases");
    if (
      getRow(
        db,
        "SELECT entry_id FROM ledger_entries WHERE lease_id = ? AND entry_type = 'deposit_refund'",
        lease_id,
      )
    )
      throw new ToolFailure(`lease ${lease_id} already has a deposit refund recorded`);
    const cents = requireCents(amount);
    if (cents > Number(lease.security_deposit))
      throw new ToolFailure(
        `refund ${cents} exceeds the security deposit of ${String(lease.security_deposit)}`,
      );
    const entry = insertRow(db, "ledger_entries", {
      lease_id,
      entry_date: REFERENCE_DATE,
      period: REFERENCE_DATE.slice(0, 7),
      entry_type: "deposit_refund",
      amount: cents,
      memo: memo ?? "Security deposit refund",
    });
    return { entry };
  },
});

const listVendors = defineListTool({
  name: "list_vendors",
  description:
    "List maintenance vendors with their trade, liability-insurance expiry date and whether they are active, ordered by vendor id. Rates are in the vendor rate card document. Paginated: returns `vendors`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    trade: optionalChoice(TRADES, "Only vendors of this trade"),
    active: z.boolean().optional().describe("Only active (true) or inactive (false) vendors"),
  },
  key: "vendors",
  from: "vendors",
  where: ({ trade, active }) => [
    when(trade, "trade = ?"),
    when(active === undefined ? undefined : active ? 1 : 0, "active = ?"),
  ],
  orderBy: "vendor_id",
  map: (row) => withBooleans(row, "active"),
});

const getVendor = defineGetTool({
  name: "get_vendor",
  description: "Get one vendor's record. Returns `vendor`.",
  input: { vendor_id: vendorId.schema("The vendor") },
  key: "vendor",
  from: "vendors",
  notFound: vendorId,
  map: (row) => withBooleans(row, "active"),
});

const WORK_ORDER_STATUSES = ["open", "assigned", "in_progress", "on_hold", "completed", "cancelled"] as const;

const listWorkOrders = defineListTool({
  name: "list_work_orders",
  description:
    "List maintenance work orders matching all given filters, ordered by work order id. `category` is the trade needed; `vendor_id` is null until a vendor is assigned. Paginated: returns `work_orders`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(WORK_ORDER_STATUSES, "Only work orders in this status"),
    priority: optionalChoice(PRIORITIES, "Only work orders of this priority"),
    vendor_id: vendorId.schema("Only work orders assigned to this vendor").optional(),
    building_id: buildingId.schema("Only work orders for units of this building").optional(),
    category: optionalChoice(TRADES, "Only work orders of this trade"),
    opened_from: optionalDate("Only work orders opened on or after this date, YYYY-MM-DD"),
  },
  key: "work_orders",
  from: "work_orders w JOIN units u ON u.unit_id = w.unit_id",
  select:
    "w.work_order_id, w.unit_id, u.building_id, w.category, w.priority, w.status, w.vendor_id, w.opened_on, w.completed_on, w.escalated_on",
  where: {
    status: "w.status = ?",
    priority: "w.priority = ?",
    vendor_id: "w.vendor_id = ?",
    building_id: "u.building_id = ?",
    category: "w.category = ?",
    opened_from: "w.opened_on >= ?",
  },
  orderBy: "w.work_order_id",
});

function workOrderRecord(db: ToolContext["db"], id: string): Record<string, unknown> {
  return requireRow(
    db,
    "SELECT w.*, u.building_id FROM work_orders w JOIN units u ON u.unit_id = w.unit_id WHERE w.work_order_id = ?",
    [id],
    workOrderId.notFound(id).message,
  );
}

/** The work order, which must not be completed or cancelled to be `action`. */
function unfinishedOrder(db: ToolContext["db"], id: string, action: string): Record<string, unknown> {
  const order = workOrderRecord(db, id);
  if (order.status === "completed" || order.status === "cancelled")
    throw new ToolFailure(
      `work order ${id} is ${String(order.status)}; only unfinished work orders can be ${action}`,
    );
  return order;
}

const getWorkOrder = defineTool({
  name: "get_work_order",
  description: "Get one work order in full, including the summary and cost. Returns `work_order`.",
  kind: "read",
  inputSchema: z.object({ work_order_id: workOrderId.schema("The work order") }),
  handler: ({ work_order_id }, { db }: ToolContext) => ({ work_order: workOrderRecord(db, work_order_id) }),
});

const assignWorkOrder = defineTool({
  name: "assign_work_order",
  description:
    "Assign (or reassign) a work order that is not completed or cancelled to a vendor. The work order keeps its status, except that an `open` order becomes `assigned`. The system does not check the vendor's trade or insurance. Returns the updated `work_order`.",
  kind: "write",
  inputSchema: z.object({
    work_order_id: workOrderId.schema("The work order"),
    vendor_id: vendorId.schema("The vendor who will do the work"),
  }),
  handler: ({ work_order_id, vendor_id }, { db }: ToolContext) => {
    const order = unfinishedOrder(db, work_order_id, "assigned");
    requireEntity(db, "vendors", vendorId, vendor_id, "vendor_id");
    if (order.vendor_id === vendor_id)
      throw new ToolFailure(`work order ${work_order_id} is already assigned to ${vendor_id}`);
    const status = order.status === "open" ? "assigned" : order.status;
    updateEntity(db, "work_orders", workOrderId, work_order_id, { vendor_id, status });
    return { work_order: workOrderRecord(db, work_order_id) };
  },
});

const escalateWorkOrder = defineTool({
  name: "escalate_work_order",
  description:
    "Escalate an unfinished work order to the maintenance supervisor (stamps `escalated_on` with today's date). A work order is escalated at most once; completed and cancelled orders cannot be escalated. Returns the updated `work_order`.",
  kind: "write",
  inputSchema: z.object({ work_order_id: workOrderId.schema("The work order") }),
  handler: ({ work_order_id }, { db }: ToolContext) => {
    const order = unfinishedOrder(db, work_order_id, "escalated");
    if (order.escalated_on !== null)
      throw new ToolFailure(
        `work order ${work_order_id} was already escalated on ${String(order.escalated_on)}`,
      );
    updateEntity(db, "work_orders", workOrderId, work_order_id, { escalated_on: REFERENCE_DATE });
    return { work_order: workOrderRecord(db, work_order_id) };
  },
});

const listInspections = defineListTool({
  name: "list_inspections",
  description:
    "List unit inspections (move_in, move_out, annual) matching all given filters, ordered by inspection id. Line items are on get_inspection. Paginated: returns `inspections`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    unit_id: unitId.schema("Only inspections of this unit").optional(),
    lease_id: leaseId.schema("Only inspections tied to this lease").optional(),
    inspection_type: optionalChoice(["move_in", "move_out", "annual"], "Only this kind of inspection"),
  },
  key: "inspections",
  from: "inspections",
  where: { unit_id: "=", lease_id: "=", inspection_type: "=" },
  orderBy: "inspection_id",
});

const getInspection = defineGetTool({
  name: "get_inspection",
  description:
    "Get one inspection with its line items (`area`, `finding`, `condition` good/normal_wear/damage/cleaning, `cost` in dollars as estimated by the inspector). Returns `inspection`, `items`.",
  input: { inspection_id: inspectionId.schema("The inspection") },
  key: "inspection",
  from: "inspections",
  notFound: inspectionId,
  related: {
    items:
      "SELECT item_id, area, finding, condition, cost FROM inspection_items WHERE inspection_id = ? ORDER BY item_id",
  },
});

/** The property domain's tools, in the order agents see them. */
export const propertyTools: DomainTool[] = [
  listBuildings,
  getBuilding,
  listUnits,
  getUnit,
  listTenants,
  getTenant,
  listLeases,
  getLease,
  // A portfolio-wide payment listing is a heavy query: its first page times out once (a 503) and
  // succeeds when repeated.
  withTransientFailures(listLedgerEntries, {
    when: (input) => input.entry_type === "payment" && input.lease_id === undefined && input.page === 1,
  }),
  postLateFee,
  recordDepositRefund,
  listVendors,
  getVendor,
  listWorkOrders,
  getWorkOrder,
  assignWorkOrder,
  escalateWorkOrder,
  listInspections,
  // The inspection archive answers the first request for a record with an error body (no isError)
  // while it restores the record from cold storage; the same request then succeeds.
  withSilentFailures(getInspection, {
    body: (input) => ({
      status: "error",
      error: `inspection ${input.inspection_id} is being restored from the archive, retry the request`,
    }),
  }),
] as DomainTool[];
