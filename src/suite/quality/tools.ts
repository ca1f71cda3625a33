import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import {
  REFERENCE_DATE,
  allRows,
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  optionalChoice,
  optionalDate,
  requireEntity,
  requireRow,
  updateEntity,
  when,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { capaId, charId, gaugeId, lotId, materialLotId, ncrId, partNumber, supplierId } from "./rules.js";

const listProducts = defineListTool({
  name: "list_products",
  description:
    "List the machined parts the plant makes (part number, name, drawing revision, material, customer), ordered by part number. Paginated: returns `products`, `page`, `per_page`, `total`, `has_more`.",
  filters: { customer: z.string().optional().describe("Only parts for this customer (exact name)") },
  key: "products",
  from: "products",
  where: { customer: "=" },
  orderBy: "part_number",
});

const getProduct = defineGetTool({
  name: "get_product",
  description:
    "Get one part with its inspection plan: every characteristic with nominal, lower and upper limit (mm), feature type (external/internal), gauge type and whether it is critical.",
  input: { part_number: partNumber.schema("The part") },
  key: "product",
  from: "products",
  notFound: partNumber,
  related: {
    characteristics: (db, id) =>
      allRows(db, "SELECT * FROM characteristics WHERE part_number = ? ORDER BY char_id", id).map((row) =>
        withBooleans(row, "critical"),
      ),
  },
});

const listCharacteristics = defineListTool({
  name: "list_characteristics",
  description:
    "List inspection-plan characteristics of all parts (limits in mm, feature type, gauge type, critical flag), ordered by id. Paginated: returns `characteristics`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    part_number: partNumber.schema("Only this part").optional(),
    critical: z.boolean().optional().describe("Only critical (true) or non-critical (false) characteristics"),
  },
  key: "characteristics",
  from: "characteristics",
  where: ({ part_number, critical }) => [
    when(part_number, "part_number = ?"),
    when(critical === undefined ? undefined : critical ? 1 : 0, "critical = ?"),
  ],
  orderBy: "char_id",
  map: (row) => withBooleans(row, "critical"),
});

const listSuppliers = defineListTool({
  name: "list_suppliers",
  description:
    "List approved raw-material (bar stock) suppliers, ordered by id. Paginated: returns `suppliers`, `page`, `per_page`, `total`, `has_more`.",
  key: "suppliers",
  from: "suppliers",
  orderBy: "supplier_id",
});

const listMaterialLots = defineListTool({
  name: "list_material_lots",
  description:
    "List received raw-material lots (bar stock) with supplier, material, heat number and receipt date, ordered by id. Paginated: returns `material_lots`, `page`, `per_page`, `total`, `has_more`.",
  filters: { supplier_id: supplierId.schema("Only lots from this supplier").optional() },
  key: "material_lots",
  from: "material_lots",
  where: { supplier_id: "=" },
  orderBy: "material_lot_id",
});

const getMaterialLotBase = defineGetTool({
  name: "get_material_lot",
  description: "Get one raw-material lot with its supplier record.",
  input: { material_lot_id: materialLotId.schema("The material lot") },
  from: "material_lots",
  notFound: materialLotId,
  map: (row) => ({ status: "ok", material_lot: row }),
  related: {
    supplier: (db, _id, row) => getRow(db, "SELECT * FROM suppliers WHERE supplier_id = ?", row.supplier_id),
  },
});

/** The ERP bridge behind material lots times out on the first read of a record and returns the error as data. */
const getMaterialLot = withSilentFailures(getMaterialLotBase, {
  body: (input) => ({
    status: "error",
    error: `ERP gateway timeout while reading ${input.material_lot_id}; retry the request`,
  }),
});

const listLots = defineListTool({
  name: "list_lots",
  description:
    "List production lots (part, material lot, lot type, line, shift, quantity, start and end date, status), ordered by lot id. First-inspection results are on get_lot. Paginated: returns `lots`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    part_number: partNumber.schema("Only lots of this part").optional(),
    material_lot_id: materialLotId.schema("Only lots made from this material lot").optional(),
    line: optionalChoice(["L1", "L2", "L3", "L4"], "Only lots run on this line"),
    shift: optionalChoice(["A", "B", "C"], "Only lots run on this shift"),
    status: optionalChoice(["in_process", "released", "shipped", "on_hold"], "Only lots in this status"),
    end_from: optionalDate("Only lots that ended on or after this date, YYYY-MM-DD"),
    end_to: optionalDate("Only lots that ended on or before this date, YYYY-MM-DD"),
  },
  key: "lots",
  from: "production_lots",
  select:
    "lot_id, part_number, material_lot_id, lot_type, line, shift, quantity, start_date, end_date, status",
  where: {
    part_number: "=",
    material_lot_id: "=",
    line: "=",
    shift: "=",
    status: "=",
    end_from: "end_date >= ?",
    end_to: "end_date <= ?",
  },
  orderBy: "lot_id",
});

const getLotBase = defineGetTool({
  name: "get_lot",
  description:
    "Get one production lot with its first-inspection result (pieces rejected at first inspection) and its NCRs.",
  input: { lot_id: lotId.schema("The lot") },
  key: "lot",
  from: "production_lots",
  notFound: lotId,
  related: {
    ncrs: "SELECT ncr_id, severity, defect_code, status FROM ncrs WHERE lot_id = ? ORDER BY ncr_id",
  },
});

/** The MES read replica is flaky: some lot reads fail once with a 503 and succeed when repeated. */
const getLot = withTransientFailures(getLotBase, {
  when: (input) => Number(input.lot_id.slice(4)) % 7 === 3,
});

const listMeasurements = defineListTool({
  name: "list_measurements",
  description:
    "List sample measurements (lot, characteristic, sample number, value in mm, gauge, date, inspector, valid flag), ordered by id. Paginated: returns `measurements`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    lot_id: lotId.schema("Only measurements of this lot").optional(),
    char_id: charId.schema("Only this characteristic").optional(),
    gauge_id: gaugeId.schema("Only measurements taken with this gauge").optional(),
    measured_from: optionalDate("Only measurements taken on or after this date"),
    measured_to: optionalDate("Only measurements taken on or before this date"),
    valid: z.boolean().optional().describe("Only valid (true) or invalidated (false) measurements"),
  },
  key: "measurements",
  from: "measurements",
  where: ({ lot_id, char_id, gauge_id, measured_from, measured_to, valid }) => [
    when(lot_id, "lot_id = ?"),
    when(char_id, "char_id = ?"),
    when(gauge_id, "gauge_id = ?"),
    when(measured_from, "measured_on >= ?"),
    when(measured_to, "measured_on <= ?"),
    when(valid === undefined ? undefined : valid ? 1 : 0, "valid = ?"),
  ],
  orderBy: "measurement_id",
  map: (row) => withBooleans(row, "valid"),
});

const listGauges = defineListTool({
  name: "list_gauges",
  description:
    "List the gauge register (type, description, location, latest passing calibration date), ordered by id. Paginated: returns `gauges`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    gauge_type: optionalChoice(
      ["micrometer", "bore_gauge", "caliper", "height_gauge"],
      "Only gauges of this type",
    ),
  },
  key: "gauges",
  from: "gauges",
  where: { gauge_type: "=" },
  orderBy: "gauge_id",
});

const listNcrs = defineListTool({
  name: "list_ncrs",
  description:
    "List non-conformance reports (lot, opened date, severity, defect code, characteristic and measured value for dimensional defects, quantity, disposition, status, linked CAPA), ordered by id. Paginated: returns `ncrs`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["open", "dispositioned", "closed"], "Only NCRs in this status"),
    severity: optionalChoice(["critical", "major", "minor"], "Only NCRs of this severity"),
    defect_code: optionalChoice(["DIM", "COS", "MAT", "HRD"], "Only NCRs with this defect code"),
    lot_id: lotId.schema("Only NCRs on this lot").optional(),
    opened_from: optionalDate("Only NCRs opened on or after this date"),
    opened_to: optionalDate("Only NCRs opened on or before this date"),
  },
  key: "ncrs",
  from: "ncrs",
  select:
    "ncr_id, lot_id, opened_on, severity, defect_code, char_id, measured_value, quantity_affected, disposition, status, capa_id",
  where: {
    status: "=",
    severity: "=",
    defect_code: "=",
    lot_id: "=",
    opened_from: "opened_on >= ?",
    opened_to: "opened_on <= ?",
  },
  orderBy: "ncr_id",
});

const getNcr = defineGetTool({
  name: "get_ncr",
  description: "Get one NCR with its description.",
  input: { ncr_id: ncrId.schema("The NCR") },
  key: "ncr",
  from: "ncrs",
  notFound: ncrId,
});

const listCapas = defineListTool({
  name: "list_capas",
  description:
    "List corrective and preventive actions (opened date, owner, root cause, status open/implemented/closed, closed date), ordered by id. Paginated: returns `capas`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["open", "implemented", "closed"], "Only CAPAs in this status"),
  },
  key: "capas",
  from: "capas",
  where: { status: "=" },
  orderBy: "capa_id",
});

const getCapa = defineGetTool({
  name: "get_capa",
  description: "Get one CAPA with the NCRs linked to it.",
  input: { capa_id: capaId.schema("The CAPA") },
  key: "capa",
  from: "capas",
  notFound: capaId,
  related: {
    ncrs: "SELECT ncr_id, lot_id, opened_on, severity FROM ncrs WHERE capa_id = ? ORDER BY ncr_id",
  },
});

const placeLotOnHold = defineTool({
  name: "place_lot_on_hold",
  description:
    "Put a production lot on quality hold (status on_hold) with a reason. Shipped lots cannot be held.",
  kind: "write",
  inputSchema: z.object({
    lot_id: lotId.schema("The lot"),
    reason: z.string().min(3).max(200).describe("Why the lot is held, e.g. 'CH-004 out of tolerance'"),
  }),
  handler: ({ lot_id, reason }, { db }: ToolContext) => {
    const lot = requireEntity<{ status: string }>(db, "production_lots", lotId, lot_id, "status");
    if (lot.status === "shipped")
      throw new ToolFailure(`lot ${lot_id} has shipped; open an NCR instead of a hold`);
    if (lot.status === "on_hold") return { lot_id, status: "on_hold", changed: false };
    updateEntity(db, "production_lots", lotId, lot_id, { status: "on_hold", hold_reason: reason });
    return { lot_id, status: "on_hold", changed: true };
  },
});

const setNcrDisposition = defineTool({
  name: "set_ncr_disposition",
  description: "Record the Material Review Board disposition of an open NCR; the NCR becomes dispositioned.",
  kind: "write",
  inputSchema: z.object({
    ncr_id: ncrId.schema("The NCR"),
    disposition: z.enum(["rework", "scrap", "use_as_is", "return_to_supplier"]).describe("The disposition"),
  }),
  handler: ({ ncr_id, disposition }, { db }: ToolContext) => {
    const ncr = requireEntity<{ status: string }>(db, "ncrs", ncrId, ncr_id, "status");
    if (ncr.status !== "open")
      throw new ToolFailure(`NCR ${ncr_id} is ${ncr.status}; only open NCRs can be dispositioned`);
    updateEntity(db, "ncrs", ncrId, ncr_id, { disposition, status: "dispositioned" });
    return { ncr_id, disposition, status: "dispositioned" };
  },
});

const invalidateMeasurement = defineTool({
  name: "invalidate_measurement",
  description:
    "Mark one measurement invalid with a reason (it then no longer counts for acceptance or sampling).",
  kind: "write",
  inputSchema: z.object({
    measurement_id: z.number().int().min(1).describe("The measurement id"),
    reason: z.string().min(3).max(200).describe("Why, e.g. 'GA-004 out of calibration'"),
  }),
  handler: ({ measurement_id, reason }, { db }: ToolContext) => {
    const row = requireRow<{ valid: number }>(
      db,
      "SELECT valid FROM measurements WHERE measurement_id = ?",
      [measurement_id],
      `measurement ${measurement_id} not found; use list_measurements to find measurement ids`,
    );
    if (row.valid === 0) return { measurement_id, valid: false, changed: false };
    cachedStatement(db, "UPDATE measurements SET valid = 0, invalid_reason = ? WHERE measurement_id = ?").run(
      reason,
      measurement_id,
    );
    return { measurement_id, valid: false, changed: true, as_of: REFERENCE_DATE };
  },
});

export const qualityTools: DomainTool[] = [
  listProducts,
  getProduct,
  listCharacteristics,
  listSuppliers,
  listMaterialLots,
  getMaterialLot,
  listLots,
  getLot,
  listMeasurements,
  listGauges,
  listNcrs,
  getNcr,
  listCapas,
  getCapa,
  placeLotOnHold,
  setNcrDisposition,
  invalidateMeasurement,
] as DomainTool[];
