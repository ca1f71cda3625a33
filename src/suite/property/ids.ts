import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const buildingId = defineIdFormat({
  field: "building_id",
  entity: "building",
  prefix: "BLD-",
  digits: 2,
  listTool: "list_buildings",
});
export const unitId = defineIdFormat({
  field: "unit_id",
  entity: "unit",
  prefix: "U-",
  digits: 4,
  listTool: "list_units",
});
export const tenantId = defineIdFormat({
  field: "tenant_id",
  entity: "tenant",
  prefix: "T-",
  digits: 5,
  listTool: "list_tenants",
});
export const leaseId = defineIdFormat({
  field: "lease_id",
  entity: "lease",
  prefix: "L-",
  digits: 5,
  listTool: "list_leases",
});
export const vendorId = defineIdFormat({
  field: "vendor_id",
  entity: "vendor",
  prefix: "V-",
  digits: 3,
  listTool: "list_vendors",
});
export const workOrderId = defineIdFormat({
  field: "work_order_id",
  entity: "work order",
  prefix: "WO-",
  digits: 5,
  listTool: "list_work_orders",
});
export const inspectionId = defineIdFormat({
  field: "inspection_id",
  entity: "inspection",
  prefix: "INS-",
  digits: 5,
  listTool: "list_inspections",
});
