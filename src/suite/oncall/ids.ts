import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
const idFormat = (
  entity: string,
  prefix: string,
  digits: number,
  list: string,
  field = `${entity.replace(" ", "_")}_id`,
) => defineIdFormat({ field, entity, prefix, digits, listTool: `list_${list}` });

export const engineerId = idFormat("engineer", "ENG-", 3, "engineers");
export const pageId = idFormat("page", "PG-", 5, "pages");
export const deployId = idFormat("deploy", "D-", 5, "deploys");
export const incidentId = idFormat("incident", "INC-", 4, "incidents");
export const actionItemId = idFormat("action item", "AI-", 4, "action_items");
export const overrideId = idFormat("schedule override", "OVR-", 4, "overrides", "override_id");
