import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const drugId = defineIdFormat({
  field: "drug_id",
  entity: "drug",
  prefix: "D-",
  digits: 4,
  listTool: "list_drugs",
});
export const locationId = defineIdFormat({
  field: "location_id",
  entity: "location",
  prefix: "LOC-",
  digits: 2,
  listTool: "list_locations",
});
export const lotId = defineIdFormat({
  field: "lot_id",
  entity: "lot",
  prefix: "LOT-",
  digits: 5,
  listTool: "list_lots",
});
export const stockId = defineIdFormat({
  field: "stock_id",
  entity: "stock row",
  prefix: "STK-",
  digits: 5,
  listTool: "list_inventory",
});
export const purchaseOrderId = defineIdFormat({
  field: "po_id",
  entity: "purchase order",
  prefix: "PO-",
  digits: 5,
  listTool: "list_purchase_orders",
});
export const orderId = defineIdFormat({
  field: "order_id",
  entity: "medication order",
  prefix: "MO-",
  digits: 5,
  listTool: "list_medication_orders",
});
export const dispenseId = defineIdFormat({
  field: "dispense_id",
  entity: "dispense",
  prefix: "DSP-",
  digits: 6,
  listTool: "list_dispenses",
});
export const mrnFormat = defineIdFormat({
  field: "mrn",
  entity: "patient",
  prefix: "MRN-",
  digits: 6,
  listTool: "list_medication_orders",
});
