import { z } from "zod";
import {
  REFERENCE_DATE,
  cachedStatement,
  defineGetTool,
  defineListTool,
  defineStatusTool,
  getRow,
  requireEntity,
  updateEntity,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import {
  DOC_TYPES,
  PROGRAMS,
  documentId,
  entryId,
  holdId,
  hsCodeFormat,
  importerId,
  shipmentId,
} from "./rules.js";

const STATUSES = ["arrived", "entered", "released"] as const;
const HOLD_TYPES = ["documents", "exam", "valuation"] as const;
const programSchema = z.enum(Object.keys(PROGRAMS) as [string, ...string[]]);

const getImporter = defineGetTool({
  name: "get_importer",
  description: "Get one importer of record. Returns `importer`.",
  input: { importer_id: importerId.schema("The importer") },
  key: "importer",
  from: "importers",
  notFound: importerId,
});

const listShipments = defineListTool({
  name: "list_shipments",
  description:
    "List shipments matching all given filters, ordered by id: importer, origin country, mode, port of entry, arrival date, invoice currency, the value the importer declared (in the invoice currency), the preference program claimed (null for none) and the clearance status (arrived = awaiting clearance, entered = entry filed, released). Paginated: returns `shipments`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(STATUSES, "Only shipments in this status"),
    importer_id: importerId.schema("Only this importer's shipments").optional(),
    origin_country: z.string().length(2).optional().describe("Only this origin country (ISO code, e.g. MX)"),
    arrived_from: optionalDate("Only arrivals on or after this date"),
    arrived_to: optionalDate("Only arrivals on or before this date"),
  },
  key: "shipments",
  from: "shipments",
  where: (input) => [
    when(input.status, "status = ?"),
    when(input.importer_id, "importer_id = ?"),
    when(input.origin_country?.toUpperCase(), "origin_country = ?"),
    when(input.arrived_from, "arrival_date >= ?"),
    when(input.arrived_to, "arrival_date <= ?"),
  ],
  orderBy: "shipment_id",
});

const getShipment = defineGetTool({
  name: "get_shipment",
  description:
    "Get one shipment with the scanned documents on file for it (doc_id, doc_type, page_count, received_on). Returns `shipment`, `documents`.",
  input: { shipment_id: shipmentId.schema("The shipment") },
  key: "shipment",
  from: "shipments",
  notFound: shipmentId,
  related: {
    documents:
      "SELECT doc_id, doc_type, page_count, received_on FROM documents WHERE shipment_id = ? ORDER BY doc_id",
  },
});

const listDocuments = defineListTool({
  name: "list_documents",
  description:
    "List scanned shipping documents on file (commercial_invoice, packing_list, bill_of_lading, certificate_of_origin) matching all given filters, ordered by doc id. The text is on get_document_page. Paginated: returns `documents`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    shipment_id: shipmentId.schema("Only this shipment's documents").optional(),
    doc_type: optionalChoice(DOC_TYPES, "Only this kind of document"),
  },
  key: "documents",
  from: "documents",
  where: { shipment_id: "=", doc_type: "=" },
  orderBy: "doc_id",
});

const getDocumentPage = defineTool({
  name: "get_document_page",
  description:
    "Get the OCR text of one page of a scanned document, as the scanner read it (layout kept, scan noise included). Returns `doc_id`, `doc_type`, `shipment_id`, `page`, `page_count`, `status` and `text`; `status` is `processing` while OCR of the page has not finished (then `text` is a notice, not the page): request it again.",
  kind: "read",
  inputSchema: z.object({
    doc_id: documentId.schema("The document"),
    page: z.number().int().min(1).default(1).describe("Page number, from 1"),
  }),
  handler: ({ doc_id, page }, { db }: ToolContext) => {
    const doc = requireEntity<{ doc_type: string; shipment_id: string; page_count: number }>(
      db,
      "documents",
      documentId,
      doc_id,
      "doc_type, shipment_id, page_count",
    );
    if (page > doc.page_count)
      throw new ToolFailure(
        `document ${doc_id} has ${doc.page_count} page(s); ask for page 1 to ${doc.page_count}`,
      );
    const text = getRow<{ ocr_text: string }>(
      db,
      "SELECT ocr_text FROM document_pages WHERE doc_id = ? AND page_no = ?",
      doc_id,
      page,
    )!.ocr_text;
    return {
      doc_id,
      doc_type: doc.doc_type,
      shipment_id: doc.shipment_id,
      page,
      page_count: doc.page_count,
      status: "ok",
      text,
    };
  },
});

const getTariffLine = defineGetTool({
  name: "get_tariff_line",
  description:
    "Get one tariff line with the special (preference) rates it lists per program, in percent. Returns `tariff_line`, `special_rates`.",
  input: { hs_code: hsCodeFormat.schema("The ten-digit HS code, e.g. 8471.30.0100") },
  key: "tariff_line",
  from: "tariff_lines",
  notFound: hsCodeFormat,
  related: {
    special_rates: "SELECT program, rate_pct FROM special_rates WHERE hs_code = ? ORDER BY program",
  },
});

const listEntries = defineListTool({
  name: "list_entries",
  description:
    "List customs entries filed (shipment, importer, filing date, entered value and duty in USD, preference program, number of invoice lines, status), ordered by entry id. Paginated: returns `entries`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    importer_id: importerId.schema("Only this importer's entries").optional(),
    shipment_id: shipmentId.schema("Only this shipment's entries").optional(),
    filed_from: optionalDate("Only entries filed on or after this date"),
    filed_to: optionalDate("Only entries filed on or before this date"),
  },
  key: "entries",
  from: "entries",
  where: { importer_id: "=", shipment_id: "=", filed_from: "filed_on >= ?", filed_to: "filed_on <= ?" },
  orderBy: "entry_id",
});

const fileEntry = defineTool({
  name: "file_entry",
  description:
    "File a customs entry for an arrived shipment, dated today; the shipment becomes 'entered'. Returns `entry`.",
  kind: "write",
  inputSchema: z.object({
    shipment_id: shipmentId.schema("The arrived shipment"),
    entered_value_usd: z.number().positive().describe("The shipment's customs value in USD"),
    duty_usd: z.number().min(0).describe("The duty owed in USD"),
    program: programSchema
      .nullable()
      .default(null)
      .describe("The preference program applied, or null for none"),
    line_count: z.number().int().min(1).describe("Number of commercial invoice lines"),
  }),
  handler: (input, { db }: ToolContext) => {
    const shipment = requireEntity<{ status: string; importer_id: string }>(
      db,
      "shipments",
      shipmentId,
      input.shipment_id,
      "status, importer_id",
    );
    if (shipment.status !== "arrived")
      throw new ToolFailure(
        `shipment ${input.shipment_id} is ${shipment.status}; entries are filed only for arrived shipments`,
      );
    const id = entryId.next(db, "entries");
    cachedStatement(db, "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'filed')").run(
      id,
      input.shipment_id,
      shipment.importer_id,
      REFERENCE_DATE,
      Math.round(input.entered_value_usd * 100) / 100,
      Math.round(input.duty_usd * 100) / 100,
      input.program,
      input.line_count,
    );
    updateEntity(db, "shipments", shipmentId, input.shipment_id, { status: "entered" });
    return { entry: getRow(db, "SELECT * FROM entries WHERE entry_id = ?", id) };
  },
});

const listHolds = defineListTool({
  name: "list_holds",
  description:
    "List holds on shipments (type documents/exam/valuation, reason, placed_on, released_on null while open) matching all given filters, ordered by hold id. Paginated: returns `holds`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    shipment_id: shipmentId.schema("Only holds on this shipment").optional(),
    hold_type: optionalChoice(HOLD_TYPES, "Only this type of hold"),
    open_only: z.boolean().optional().describe("true: only holds not yet released"),
  },
  key: "holds",
  from: "holds",
  where: (input) => [
    when(input.shipment_id, "shipment_id = ?"),
    when(input.hold_type, "hold_type = ?"),
    input.open_only ? "released_on IS NULL" : null,
  ],
  orderBy: "hold_id",
});

const placeHold = defineTool({
  name: "place_hold",
  description: "Place a hold on a shipment, dated today. Returns `hold`.",
  kind: "write",
  inputSchema: z.object({
    shipment_id: shipmentId.schema("The shipment"),
    hold_type: z.enum(HOLD_TYPES).describe("documents, exam or valuation"),
    reason: z.string().min(3).describe("Why; for a documents hold, the document it waits for"),
  }),
  handler: ({ shipment_id, hold_type, reason }, { db }: ToolContext) => {
    requireEntity(db, "shipments", shipmentId, shipment_id, "1");
    const id = holdId.next(db, "holds");
    cachedStatement(db, "INSERT INTO holds VALUES (?, ?, ?, ?, ?, NULL, NULL)").run(
      id,
      shipment_id,
      hold_type,
      reason,
      REFERENCE_DATE,
    );
    return { hold: getRow(db, "SELECT * FROM holds WHERE hold_id = ?", id) };
  },
});

const releaseHold = defineTool({
  name: "release_hold",
  description: "Release an open hold, dated today. Returns `hold`.",
  kind: "write",
  inputSchema: z.object({
    hold_id: holdId.schema("The hold"),
    note: z.string().min(3).describe("Why it is released"),
  }),
  handler: ({ hold_id, note }, { db }: ToolContext) => {
    const hold = requireEntity<{ released_on: string | null }>(db, "holds", holdId, hold_id, "released_on");
    if (hold.released_on !== null)
      throw new ToolFailure(`hold ${hold_id} was already released on ${hold.released_on}`);
    const release = { released_on: REFERENCE_DATE, release_note: note };
    return { hold: updateEntity(db, "holds", holdId, hold_id, release) };
  },
});

const updateDeclaredValue = defineTool({
  name: "update_declared_value",
  description: "Correct a shipment's declared value (in its invoice currency). Returns `shipment`.",
  kind: "write",
  inputSchema: z.object({
    shipment_id: shipmentId.schema("The shipment"),
    declared_value: z.number().positive().describe("The corrected value in the invoice currency"),
    note: z.string().min(3).describe("Why it changes"),
  }),
  handler: ({ shipment_id, declared_value, note }, { db }: ToolContext) => {
    requireEntity(db, "shipments", shipmentId, shipment_id, "1");
    const set = { declared_value: Math.round(declared_value * 100) / 100, status_note: note };
    return { shipment: updateEntity(db, "shipments", shipmentId, shipment_id, set) };
  },
});

const releaseShipment = defineStatusTool({
  name: "release_shipment",
  description:
    "Release a shipment from customs custody without an entry (basis `de_minimis`). Returns `shipment`.",
  id: shipmentId,
  idDescription: "The shipment",
  input: { basis: z.enum(["de_minimis"]).describe("The legal basis of the release") },
  table: "shipments",
  from: ["arrived", "entered"],
  refusal: (id) => `shipment ${id} is already released`,
  set: ({ basis }) => ({ status: "released", status_note: basis }),
  key: "shipment",
});

/** The customs domain's tools, in the order agents see them. */
export const customsTools: DomainTool[] = [
  getImporter,
  listShipments,
  getShipment,
  // The document store's deeper pages come from a slower replica: each fails once with a 503.
  withTransientFailures(listDocuments, { when: (input) => input.page >= 2 }),
  // OCR runs asynchronously: some pages answer "still processing" (an ordinary result) the first time.
  withSilentFailures(getDocumentPage, {
    when: (input) => input.page === 2 || Number(input.doc_id.slice(4)) % 5 === 3,
    body: (input) => ({
      doc_id: input.doc_id,
      page: input.page,
      status: "processing",
      text: "Document still processing: OCR text for this page is not available yet. Request the page again.",
    }),
  }),
  // The tariff service times out once on the heavy vehicle-parts chapter.
  withTransientFailures(getTariffLine, { when: (input) => input.hs_code.startsWith("87") }),
  withTransientFailures(listEntries, {
    when: (input) => input.page === 1 && input.shipment_id === undefined,
  }),
  fileEntry,
  listHolds,
  placeHold,
  releaseHold,
  updateDeclaredValue,
  releaseShipment,
] as DomainTool[];
