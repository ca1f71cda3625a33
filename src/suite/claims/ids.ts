import { defineIdFormat } from "../../envs/index.js";

export const policyholderId = defineIdFormat({
  field: "policyholder_id",
  entity: "policyholder",
  prefix: "PH-",
  digits: 5,
  listTool: "list_policyholders",
});
export const policyId = defineIdFormat({
  field: "policy_id",
  entity: "policy",
  prefix: "POL-",
  digits: 5,
  listTool: "list_policies",
});
export const endorsementId = defineIdFormat({
  field: "endorsement_id",
  entity: "endorsement",
  prefix: "END-",
  digits: 5,
});
export const adjusterId = defineIdFormat({
  field: "adjuster_id",
  entity: "adjuster",
  prefix: "ADJ-",
  digits: 3,
  listTool: "list_adjusters",
});
export const claimId = defineIdFormat({
  field: "claim_id",
  entity: "claim",
  prefix: "CLM-",
  digits: 5,
  listTool: "list_claims",
});
export const paymentId = defineIdFormat({
  field: "payment_id",
  entity: "payment",
  prefix: "PAY-",
  digits: 6,
});
