import { defineIdFormat } from "../../envs/index.js";

function idFormat(field: string, entity: string, prefix: string, digits: number, listTool: string) {
  return defineIdFormat({ field, entity, prefix, digits, listTool });
}

/** One id shape per entity: generators format with these, tools validate with them. */
export const drugId = idFormat("drug_id", "drug", "D-", 4, "list_drugs");
export const locationId = idFormat("location_id", "location", "LOC-", 2, "list_locations");
export const lotId = idFormat("lot_id", "lot", "LOT-", 5, "list_lots");
export const stockId = idFormat("stock_id", "stock row", "STK-", 5, "list_inventory");
export const purchaseOrderId = idFormat("po_id", "purchase order", "PO-", 5, "list_purchase_orders");
export const orderId = idFormat("order_id", "medication order", "MO-", 5, "list_medication_orders");
export const dispenseId = idFormat("dispense_id", "dispense", "DSP-", 6, "list_dispenses");
export const mrnFormat = idFormat("mrn", "patient", "MRN-", 6, "list_medication_orders");
