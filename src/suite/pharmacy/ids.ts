import { prefixedId } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const drugId = prefixedId("drug_id", "drug", "D-", 4, "list_drugs");
export const locationId = prefixedId("location_id", "location", "LOC-", 2, "list_locations");
export const lotId = prefixedId("lot_id", "lot", "LOT-", 5, "list_lots");
export const stockId = prefixedId("stock_id", "stock row", "STK-", 5, "list_inventory");
export const purchaseOrderId = prefixedId("po_id", "purchase order", "PO-", 5, "list_purchase_orders");
export const orderId = prefixedId("order_id", "medication order", "MO-", 5, "list_medication_orders");
export const dispenseId = prefixedId("dispense_id", "dispense", "DSP-", 6, "list_dispenses");
export const mrnFormat = prefixedId("mrn", "patient", "MRN-", 6, "list_medication_orders");
