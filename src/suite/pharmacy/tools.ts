import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import {
  REFERENCE_DATE,
  defineGetTool,
  defineListTool,
  getRow,
  insertRow,
  isoDateSchema,
  requireEntity,
  requireRow,
  roundCents,
  updateEntity,
  when,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
  optionalText,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { drugId, locationId, lotId, mrnFormat, orderId, purchaseOrderId, stockId } from "./ids.js";

type Db = ToolContext["db"];

const listDrugs = defineListTool({
  name: "list_drugs",
  description:
    "List the drug catalog, ordered by drug id: name, therapeutic class, DEA `schedule` (II-V, null when not controlled), `formulary_status`, NDC and `pack_size` (units per wholesaler pack). Costs are on get_drug. Paginated: returns `drugs`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    schedule: optionalChoice(["II", "III", "IV", "V"], "Only drugs of this DEA schedule"),
    controlled: z.boolean().optional().describe("true: only controlled substances; false: only others"),
    formulary_status: optionalChoice(["formulary", "non_formulary"], "Only drugs with this status"),
    query: optionalText("Substring of the drug name (case-insensitive)"),
  },
  key: "drugs",
  from: "drugs",
  select: "drug_id, name, therapeutic_class, schedule, formulary_status, ndc, pack_size",
  where: (input) => [
    when(input.schedule, "schedule = ?"),
    input.controlled === undefined ? null : input.controlled ? "schedule IS NOT NULL" : "schedule IS NULL",
    when(input.formulary_status, "formulary_status = ?"),
    when(input.query === undefined ? undefined : `%${input.query.toLowerCase()}%`, "lower(name) LIKE ?"),
  ],
  orderBy: "drug_id",
});

const getDrug = defineGetTool({
  name: "get_drug",
  description:
    "Get one drug's full catalog record (generic name, strength, form, manufacturer, `pack_cost`: dollars per wholesaler pack). Returns `drug`.",
  input: { drug_id: drugId.schema("The drug") },
  key: "drug",
  from: "drugs",
  notFound: drugId,
});

const listLocations = defineListTool({
  name: "list_locations",
  description:
    "List stock locations, ordered by id: the pharmacies (`kind` pharmacy) and the automated dispensing cabinets on the wards (`kind` cabinet, with their nursing unit). Paginated: returns `locations`, `page`, `per_page`, `total`, `has_more`.",
  filters: { kind: optionalChoice(["pharmacy", "cabinet"], "Only locations of this kind") },
  key: "locations",
  from: "locations",
  where: { kind: "=" },
  orderBy: "location_id",
});

const listLots = defineListTool({
  name: "list_lots",
  description:
    "List manufacturer lots, ordered by lot id, with the product's drug id and NDC. Different products can carry the same lot number. Paginated: returns `lots`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    drug_id: drugId.schema("Only lots of this drug").optional(),
    lot_number: optionalText("Only lots with exactly this manufacturer lot number"),
    expires_from: optionalDate("Only lots expiring on or after this date, YYYY-MM-DD"),
    expires_to: optionalDate("Only lots expiring on or before this date, YYYY-MM-DD"),
  },
  key: "lots",
  from: "lots l JOIN drugs d ON d.drug_id = l.drug_id",
  select: "l.lot_id, l.drug_id, d.name AS drug_name, d.ndc, l.lot_number, l.expiry_date",
  where: (input) => [
    when(input.drug_id, "l.drug_id = ?"),
    when(input.lot_number?.trim().toUpperCase(), "l.lot_number = ?"),
    when(input.expires_from, "l.expiry_date >= ?"),
    when(input.expires_to, "l.expiry_date <= ?"),
  ],
  orderBy: "l.lot_id",
});

const getLot = defineGetTool({
  name: "get_lot",
  description: "Get one lot with the stock rows that hold it at every location. Returns `lot`, `stock`.",
  input: { lot_id: lotId.schema("The lot") },
  key: "lot",
  from: "lots",
  notFound: lotId,
  related: {
    stock: "SELECT stock_id, location_id, quantity, status FROM inventory WHERE lot_id = ? ORDER BY stock_id",
  },
});

const STOCK_COLUMNS =
  "i.stock_id, i.location_id, i.lot_id, l.drug_id, l.lot_number, l.expiry_date, i.quantity, i.status";

const listInventory = defineListTool({
  name: "list_inventory",
  description:
    "List stock rows (one lot at one location), ordered by stock id: quantity in units, `status` available or quarantined, and the lot's expiry date. Paginated: returns `stock`, `page`, `per_page`, `total`, `has_more`. The inventory service pages from a replica: a call can fail with 503 Service Unavailable; make the same call again.",
  filters: {
    location_id: locationId.schema("Only stock at this location").optional(),
    drug_id: drugId.schema("Only stock of this drug").optional(),
    lot_id: lotId.schema("Only stock of this lot").optional(),
    status: optionalChoice(["available", "quarantined"], "Only stock in this status"),
    expires_to: optionalDate("Only stock whose lot expires on or before this date"),
  },
  key: "stock",
  from: "inventory i JOIN lots l ON l.lot_id = i.lot_id",
  select: STOCK_COLUMNS,
  where: {
    location_id: "i.location_id = ?",
    drug_id: "l.drug_id = ?",
    lot_id: "i.lot_id = ?",
    status: "i.status = ?",
    expires_to: "l.expiry_date <= ?",
  },
  orderBy: "i.stock_id",
});

function stockRow(db: Db, id: string): Record<string, unknown> {
  return requireRow(
    db,
    `SELECT ${STOCK_COLUMNS}, i.quarantine_reason FROM inventory i JOIN lots l ON l.lot_id = i.lot_id WHERE i.stock_id = ?`,
    [id],
    stockId.notFound(id).message,
  );
}

const quarantineStock = defineTool({
  name: "quarantine_stock",
  description:
    'Quarantine one stock row: its units stay where they are but can no longer be dispensed. For a cabinet row the cabinet locks the pocket. Returns the updated `stock` row. When a device does not acknowledge the lock the result is `{"status": "error", ...}` (not a tool error) and nothing changed: make the same call again.',
  kind: "write",
  inputSchema: z.object({
    stock_id: stockId.schema("The stock row"),
    reason: z.string().min(1).max(200).describe("Why, e.g. the recall notice number"),
  }),
  handler: ({ stock_id, reason }, { db }: ToolContext) => {
    const row = stockRow(db, stock_id);
    if (row.status === "quarantined") throw new ToolFailure(`stock ${stock_id} is already quarantined`);
    updateEntity(db, "inventory", stockId, stock_id, { status: "quarantined", quarantine_reason: reason });
    return { stock: stockRow(db, stock_id) };
  },
});

const createReturn = defineTool({
  name: "create_return",
  description:
    "Return a stock row's whole quantity to the wholesaler for credit, dated today: the row's quantity drops to 0 and a return record is created. Returns `return` and the updated `stock` row.",
  kind: "write",
  inputSchema: z.object({
    stock_id: stockId.schema("The stock row to send back"),
    reason: z.enum(["expired", "recalled", "damaged"]).describe("Why the product goes back"),
  }),
  handler: ({ stock_id, reason }, { db }: ToolContext) => {
    const row = stockRow(db, stock_id);
    const quantity = Number(row.quantity);
    if (quantity === 0) throw new ToolFailure(`stock ${stock_id} holds no units; nothing to return`);
    updateEntity(db, "inventory", stockId, stock_id, { quantity: 0 });
    const values = { stock_id, lot_id: row.lot_id, quantity, reason, created_on: REFERENCE_DATE };
    return { return: insertRow(db, "returns", values), stock: stockRow(db, stock_id) };
  },
});

const listPurchaseOrders = defineListTool({
  name: "list_purchase_orders",
  description:
    "List wholesaler purchase orders, ordered by id: one drug per order, `packs` ordered and `pack_size`, `status` open (not yet received), received or cancelled. Paginated: returns `purchase_orders`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["open", "received", "cancelled"], "Only orders in this status"),
    drug_id: drugId.schema("Only orders of this drug").optional(),
  },
  key: "purchase_orders",
  from: "purchase_orders",
  where: { status: "=", drug_id: "=" },
  orderBy: "po_id",
});

const getPurchaseOrder = defineGetTool({
  name: "get_purchase_order",
  description:
    "Get one purchase order: drug, packs ordered, pack size, status, date. Returns `purchase_order`. The purchasing system sheds load: a call can fail with 503 Service Unavailable; make the same call again.",
  input: { po_id: purchaseOrderId.schema("The purchase order") },
  key: "purchase_order",
  from: "purchase_orders",
  notFound: purchaseOrderId,
});

const placeOrder = defineTool({
  name: "place_order",
  description:
    'Place a purchase order with the wholesaler for whole packs of one drug, dated today. Returns the new `purchase_order`. When the wholesaler\'s EDI gateway times out the result is `{"status": "error", ...}` (not a tool error) and nothing was ordered: make the same call again.',
  kind: "write",
  inputSchema: z.object({
    drug_id: drugId.schema("The drug to order"),
    packs: z.number().int().min(1).max(500).describe("Number of wholesaler packs (not units)"),
  }),
  handler: ({ drug_id, packs }, { db }: ToolContext) => {
    const drug = requireEntity<{ pack_size: number }>(db, "drugs", drugId, drug_id, "pack_size");
    return {
      purchase_order: insertRow(db, "purchase_orders", {
        po_id: purchaseOrderId.next(db, "purchase_orders"),
        wholesaler: "Cardinal Health",
        status: "open",
        created_on: REFERENCE_DATE,
        drug_id,
        packs,
        pack_size: drug.pack_size,
      }),
    };
  },
});

const requestRefill = defineTool({
  name: "request_refill",
  description:
    "Ask the central pharmacy to refill one drug in an automated dispensing cabinet, dated today. Returns the new `refill_request`.",
  kind: "write",
  inputSchema: z.object({
    location_id: locationId.schema("The cabinet"),
    drug_id: drugId.schema("The drug"),
    quantity: z.number().int().min(1).max(1000).describe("Units to deliver"),
  }),
  handler: ({ location_id, drug_id, quantity }, { db }: ToolContext) => {
    if (requireEntity<{ kind: string }>(db, "locations", locationId, location_id, "kind").kind !== "cabinet")
      throw new ToolFailure(`${location_id} is a pharmacy, not a cabinet; refills go to cabinets`);
    requireEntity(db, "drugs", drugId, drug_id, "drug_id");
    const values = { location_id, drug_id, quantity, requested_on: REFERENCE_DATE };
    return { refill_request: insertRow(db, "refill_requests", values) };
  },
});

const ORDER_COLUMNS =
  "order_id, mrn, drug_id, dose, dose_unit, frequency, status, dispense_as_written, ordered_at, verified_at";

const listMedicationOrders = defineListTool({
  name: "list_medication_orders",
  description:
    "List medication orders, ordered by id: patient MRN, drug, dose, `status` (active, discontinued, completed), whether the prescriber marked it `dispense_as_written`, when it was ordered and when a pharmacist verified it (`verified_at`, null until verified; times are YYYY-MM-DD HH:MM). Paginated: returns `orders`, `page`, `per_page`, `total`, `has_more`. The EHR interface is busy: a call can fail with 503 Service Unavailable; make the same call again.",
  filters: {
    status: optionalChoice(["active", "discontinued", "completed"], "Only orders in this status"),
    drug_id: drugId.schema("Only orders of this drug").optional(),
    mrn: mrnFormat.schema("Only this patient's orders").optional(),
  },
  key: "orders",
  from: "medication_orders",
  select: ORDER_COLUMNS,
  where: { status: "=", drug_id: "=", mrn: "=" },
  orderBy: "order_id",
  map: (row) => withBooleans(row, "dispense_as_written"),
});

const getMedicationOrder = defineGetTool({
  name: "get_medication_order",
  description: "Get one medication order in full, including its prescriber. Returns `order`.",
  input: { order_id: orderId.schema("The order") },
  key: "order",
  from: "medication_orders",
  notFound: orderId,
  map: (row) => withBooleans(row, "dispense_as_written"),
});

const substituteOrder = defineTool({
  name: "substitute_order",
  description:
    "Convert an active medication order to another drug and dose (a therapeutic interchange). The original drug is kept in `substituted_from`. Returns the updated `order`.",
  kind: "write",
  inputSchema: z.object({
    order_id: orderId.schema("The order"),
    drug_id: drugId.schema("The drug to switch to"),
    dose: z.number().positive().describe("The new dose, in the order's dose unit"),
  }),
  handler: ({ order_id, drug_id, dose }, { db }: ToolContext) => {
    const order = requireEntity(db, "medication_orders", orderId, order_id);
    if (order.status !== "active")
      throw new ToolFailure(`order ${order_id} is ${String(order.status)}; only active orders change`);
    if (order.drug_id === drug_id) throw new ToolFailure(`order ${order_id} is already for ${drug_id}`);
    requireEntity(db, "drugs", drugId, drug_id, "drug_id");
    const set = { drug_id, dose: roundCents(dose), substituted_from: order.drug_id };
    return { order: updateEntity(db, "medication_orders", orderId, order_id, set) };
  },
});

const listDispenses = defineListTool({
  name: "list_dispenses",
  description:
    'List dispenses (doses removed from a location for a patient\'s order), ordered by id: lot, quantity, `dispensed_at` (YYYY-MM-DD HH:MM) and whether it was an `override` pull taken before pharmacist verification. Paginated: returns `dispenses`, `page`, `per_page`, `total`, `has_more`. A lot\'s history is served from an archive: when that times out the result is `{"status": "error", ...}` with no `dispenses` (not a tool error): make the same call again.',
  filters: {
    lot_id: lotId.schema("Only dispenses from this lot").optional(),
    location_id: locationId.schema("Only dispenses from this location").optional(),
    override: z.boolean().optional().describe("true: only override pulls; false: only regular dispenses"),
    date_from: optionalDate("Only dispenses on or after this date, YYYY-MM-DD"),
  },
  key: "dispenses",
  from: "dispenses",
  where: (input) => [
    when(input.lot_id, "lot_id = ?"),
    when(input.location_id, "location_id = ?"),
    when(input.override === undefined ? undefined : input.override ? 1 : 0, "override = ?"),
    when(input.date_from, "dispensed_at >= ?"),
  ],
  orderBy: "dispense_id",
  map: (row) => withBooleans(row, "override"),
});

const recordDiscrepancy = defineTool({
  name: "record_discrepancy",
  description:
    "Record a controlled-substance count discrepancy for one drug in one cabinet. The system quantity (all lots of the drug in the cabinet) is filled in from inventory and the difference is counted minus system. Returns the new `discrepancy`.",
  kind: "write",
  inputSchema: z.object({
    location_id: locationId.schema("The cabinet counted"),
    drug_id: drugId.schema("The drug counted"),
    count_date: isoDateSchema.describe("The date of the count sheet, YYYY-MM-DD"),
    counted_quantity: z.number().int().min(0).describe("The units the nurses counted"),
  }),
  handler: ({ location_id, drug_id, count_date, counted_quantity }, { db }: ToolContext) => {
    requireEntity(db, "locations", locationId, location_id, "kind");
    const drug = requireEntity<{ schedule: string | null }>(db, "drugs", drugId, drug_id, "schedule");
    if (drug.schedule === null) throw new ToolFailure(`${drug_id} is not a controlled substance`);
    const system = getRow<{ units: number }>(
      db,
      "SELECT COALESCE(SUM(i.quantity), 0) AS units FROM inventory i JOIN lots l ON l.lot_id = i.lot_id WHERE i.location_id = ? AND l.drug_id = ?",
      location_id,
      drug_id,
    )!.units;
    return {
      discrepancy: insertRow(db, "discrepancies", {
        location_id,
        drug_id,
        count_date,
        system_quantity: system,
        counted_quantity,
        difference: counted_quantity - system,
        reported_on: REFERENCE_DATE,
      }),
    };
  },
});

/** The pharmacy domain's tools, in the order agents see them. */
export const pharmacyTools: DomainTool[] = [
  listDrugs,
  getDrug,
  listLocations,
  listLots,
  getLot,
  // The inventory service pages from a replica; its second page times out once (a 503) and succeeds
  // when repeated.
  withTransientFailures(listInventory, { when: (input) => input.page === 2 }),
  // A cabinet acknowledges the pocket lock asynchronously: on odd stock rows the first request comes back
  // as an ordinary body saying the lock was not confirmed, and nothing changed; repeating it succeeds.
  withSilentFailures(quarantineStock, {
    when: (input) => Number(input.stock_id.slice(4)) % 2 === 1,
    body: (input) => ({
      status: "error",
      error: `lock of ${input.stock_id} not acknowledged by the device; nothing was changed, retry the request`,
    }),
  }),
  createReturn,
  listPurchaseOrders,
  // The purchasing system's order lookup sheds load: every fourth order's first lookup gets a 503.
  withTransientFailures(getPurchaseOrder, { when: (input) => Number(input.po_id.slice(3)) % 4 === 0 }),
  // The wholesaler's EDI gateway answers some first submissions with a timeout body; nothing is ordered.
  withSilentFailures(placeOrder, {
    when: (input) => Number(input.drug_id.slice(2)) % 3 === 0,
    body: (input) => ({
      status: "error",
      error: `EDI gateway timeout: order for ${input.drug_id} not transmitted`,
    }),
  }),
  requestRefill,
  // Active orders come from the EHR interface; the first page of a listing of them fails once.
  withTransientFailures(listMedicationOrders, {
    when: (input) => input.status === "active" && input.page === 1,
  }),
  getMedicationOrder,
  substituteOrder,
  // Dispense history per lot is served from the archive: the first page comes back as an error body once.
  withSilentFailures(listDispenses, {
    when: (input) => input.lot_id !== undefined && input.page === 1,
  }),
  recordDiscrepancy,
] as DomainTool[];
