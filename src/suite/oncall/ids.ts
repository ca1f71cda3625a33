import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const engineerId = defineIdFormat({
  field: "engineer_id",
  entity: "engineer",
  prefix: "ENG-",
  digits: 3,
  listTool: "list_engineers",
});
export const pageId = defineIdFormat({
  field: "page_id",
  entity: "page",
  prefix: "PG-",
  digits: 5,
  listTool: "list_pages",
});
export const deployId = defineIdFormat({
  field: "deploy_id",
  entity: "deploy",
  prefix: "D-",
  digits: 5,
  listTool: "list_deploys",
});
export const incidentId = defineIdFormat({
  field: "incident_id",
  entity: "incident",
  prefix: "INC-",
  digits: 4,
  listTool: "list_incidents",
});
export const actionItemId = defineIdFormat({
  field: "action_item_id",
  entity: "action item",
  prefix: "AI-",
  digits: 4,
  listTool: "list_action_items",
});
export const overrideId = defineIdFormat({
  field: "override_id",
  entity: "schedule override",
  prefix: "OVR-",
  digits: 4,
  listTool: "list_overrides",
});
