import { defineIdFormat, type IdFormat } from "../../envs/index.js";

/** Every claims id is `<entity>_id`, a prefix and zero-padded digits; listed entities name their list tool. */
function claimsIdFormat(entity: string, prefix: string, digits: number, listTool?: string): IdFormat {
  return defineIdFormat({ field: `${entity}_id`, entity, prefix, digits, listTool });
}

export const policyholderId = claimsIdFormat("policyholder", "PH-", 5, "list_policyholders");
export const policyId = claimsIdFormat("policy", "POL-", 5, "list_policies");
export const endorsementId = claimsIdFormat("endorsement", "END-", 5);
export const adjusterId = claimsIdFormat("adjuster", "ADJ-", 3, "list_adjusters");
export const claimId = claimsIdFormat("claim", "CLM-", 5, "list_claims");
export const paymentId = claimsIdFormat("payment", "PAY-", 6);
