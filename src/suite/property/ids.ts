import { defineIdFormat } from "../../envs/index.js";
import type { IdFormat } from "../../envs/index.js";

/** An entity's id format: field `<entity>_id`, listed by `list_<entity>s` (spaces as underscores). */
function idFormat(entity: string, prefix: string, digits: number): IdFormat {
  const name = entity.replace(/ /g, "_");
  return defineIdFormat({ field: `${name}_id`, entity, prefix, digits, listTool: `list_${name}s` });
}

/** One id shape per entity: generators format with these, tools validate with them. */
export const buildingId = idFormat("building", "BLD-", 2);
export const unitId = idFormat("unit", "U-", 4);
export const tenantId = idFormat("tenant", "T-", 5);
export const leaseId = idFormat("lease", "L-", 5);
export const vendorId = idFormat("vendor", "V-", 3);
export const workOrderId = idFormat("work order", "WO-", 5);
export const inspectionId = idFormat("inspection", "INS-", 5);
