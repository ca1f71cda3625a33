import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const feederId = defineIdFormat({
  field: "feeder_id",
  entity: "feeder",
  prefix: "FDR-",
  digits: 3,
  listTool: "list_feeders",
});
export const customerId = defineIdFormat({
  field: "customer_id",
  entity: "customer",
  prefix: "C-",
  digits: 5,
  listTool: "list_customers",
});
export const meterId = defineIdFormat({
  field: "meter_id",
  entity: "meter",
  prefix: "M-",
  digits: 6,
  listTool: "list_meters",
});
export const workOrderId = defineIdFormat({
  field: "work_order_id",
  entity: "work order",
  prefix: "WO-",
  digits: 5,
  listTool: "list_work_orders",
});
export const crewId = defineIdFormat({
  field: "crew_id",
  entity: "crew",
  prefix: "CRW-",
  digits: 2,
  listTool: "list_crews",
});
