import { z } from "zod";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import {
  allRows,
  cachedStatement,
  defineGetTool,
  defineListTool,
  defineStatusTool,
  REFERENCE_DATE,
  requireEntity,
  updateEntity,
  when,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
  optionalText,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { adjusterId, claimId, policyId, policyholderId } from "./ids.js";
import type Database from "better-sqlite3";

const stateSchema = z
  .string()
  .regex(/^[A-Z]{2}$/, "expected a two-letter state code such as MN")
  .optional();
const OPEN_CASELOAD =
  "(SELECT COUNT(*) FROM claims c WHERE c.adjuster_id = adjusters.adjuster_id AND c.status = 'open') AS open_caseload";

const listPolicyholders = defineListTool({
  name: "list_policyholders",
  description:
    "List policyholders (id, name, contact, city, state, ZIP, customer since). Paginated: returns `policyholders`, `page`, `per_page`, `total`, `has_more`.",
  filters: { state: stateSchema.describe("Only policyholders in this state") },
  key: "policyholders",
  from: "policyholders",
  where: { state: "=" },
  orderBy: "policyholder_id",
});

const getPolicyholder = defineGetTool({
  name: "get_policyholder",
  description:
    "Get one policyholder with the ids of their policies. Returns `policyholder` and `policy_ids`.",
  input: { policyholder_id: policyholderId.schema("The policyholder") },
  key: "policyholder",
  from: "policyholders",
  notFound: policyholderId,
  related: {
    policy_ids: (db, id) =>
      allRows<{ policy_id: string }>(
        db,
        "SELECT policy_id FROM policies WHERE policyholder_id = ? ORDER BY policy_id",
        id,
      ).map((row) => row.policy_id),
  },
});

const listPolicies = defineListTool({
  name: "list_policies",
  description:
    "List policies (line, coverage type, coverage_limit, deductible, effective and expiration dates, state, status) without endorsements; get_policy adds them. Paginated: returns `policies`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    line: optionalChoice(["home", "auto"], "Only policies of this line"),
    status: optionalChoice(["active", "expired", "cancelled"], "Only policies in this status"),
    policyholder_id: policyholderId.schema("Only this policyholder's policies").optional(),
  },
  key: "policies",
  from: "policies",
  where: { line: "=", status: "=", policyholder_id: "=" },
  orderBy: "policy_id",
});

const getPolicy = defineGetTool({
  name: "get_policy",
  description:
    "Get one policy with its endorsements (code, description, added_on). Returns `policy` and `endorsements`.",
  input: { policy_id: policyId.schema("The policy") },
  key: "policy",
  from: "policies",
  notFound: policyId,
  related: {
    endorsements:
      "SELECT endorsement_id, code, description, added_on FROM endorsements WHERE policy_id = ? ORDER BY endorsement_id",
  },
});

const listEndorsements = defineListTool({
  name: "list_endorsements",
  description:
    "List policy endorsements (endorsement_id, policy_id, code, description, added_on). Paginated: returns `endorsements`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    code: optionalText("Only endorsements with this code, e.g. EXT_NOTICE"),
    policy_id: policyId.schema("Only this policy's endorsements").optional(),
  },
  key: "endorsements",
  from: "endorsements",
  where: ({ code, policy_id }) => [when(code?.toUpperCase(), "code = ?"), when(policy_id, "policy_id = ?")],
  orderBy: "endorsement_id",
});

const listAdjusters = defineListTool({
  name: "list_adjusters",
  description:
    "List adjusters with region, licensed_states (comma-separated), HR status and open_caseload (open claims assigned now). Paginated: returns `adjusters`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    region: optionalChoice(["North", "Central", "South"], "Only adjusters of this region"),
    status: optionalChoice(["active", "inactive"], "Only adjusters with this HR status"),
  },
  key: "adjusters",
  from: "adjusters",
  select: `adjusters.*, ${OPEN_CASELOAD}`,
  where: { region: "=", status: "=" },
  orderBy: "adjuster_id",
});

const getAdjuster = defineGetTool({
  name: "get_adjuster",
  description: "Get one adjuster with their current open_caseload. Returns `adjuster`.",
  input: { adjuster_id: adjusterId.schema("The adjuster") },
  key: "adjuster",
  from: "adjusters",
  select: `adjusters.*, ${OPEN_CASELOAD}`,
  notFound: adjusterId,
});

const CLAIM_COLUMNS =
  "claim_id, policy_id, adjuster_id, loss_date, reported_date, cause_of_loss, loss_zip, loss_state, status, reserve, cat_code, siu_referral";

const listClaims = defineListTool({
  name: "list_claims",
  description:
    "List claims (policy, adjuster, loss and reported dates, cause_of_loss, loss ZIP and state, status, reserve, cat_code, siu_referral) without description, payments or notes; get_claim has them. Paginated: returns `claims`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["open", "closed", "denied"], "Only claims in this status"),
    adjuster_id: adjusterId.schema("Only claims assigned to this adjuster").optional(),
    policy_id: policyId.schema("Only claims on this policy").optional(),
    cause_of_loss: optionalText("Only claims with this cause of loss, e.g. hail"),
    loss_date_from: optionalDate("Only losses on or after this date, YYYY-MM-DD"),
    loss_date_to: optionalDate("Only losses on or before this date, YYYY-MM-DD"),
  },
  key: "claims",
  from: "claims",
  select: CLAIM_COLUMNS,
  where: {
    status: "=",
    adjuster_id: "=",
    policy_id: "=",
    cause_of_loss: "=",
    loss_date_from: "loss_date >= ?",
    loss_date_to: "loss_date <= ?",
  },
  orderBy: "claim_id",
  map: (row) => withBooleans(row, "siu_referral"),
});

const getClaim = defineGetTool({
  name: "get_claim",
  description:
    "Get one claim with its description, payments and notes. Returns `claim`, `payments`, `notes`.",
  input: { claim_id: claimId.schema("The claim") },
  key: "claim",
  from: "claims",
  notFound: claimId,
  map: (row) => withBooleans(row, "siu_referral"),
  related: {
    payments:
      "SELECT payment_id, paid_on, amount, payee, status FROM claim_payments WHERE claim_id = ? ORDER BY payment_id",
    notes: "SELECT note_id, author, written_on, body FROM claim_notes WHERE claim_id = ? ORDER BY note_id",
  },
});

const listPayments = withTransientFailures(
  defineListTool({
    name: "list_payments",
    description:
      "List claim payments (payment_id, claim_id, paid_on, amount, payee, status issued or voided). Paginated: returns `payments`, `page`, `per_page`, `total`, `has_more`.",
    filters: {
      claim_id: claimId.schema("Only this claim's payments").optional(),
      status: optionalChoice(["issued", "voided"], "Only payments in this status"),
    },
    key: "payments",
    from: "claim_payments",
    where: { claim_id: "=", status: "=" },
    orderBy: "payment_id",
  }),
  { when: (input) => input.page === 2 && input.claim_id === undefined },
);

const listClaimNotes = defineListTool({
  name: "list_claim_notes",
  description:
    "List claim notes (note_id, claim_id, author, written_on, body). Paginated: returns `notes`, `page`, `per_page`, `total`, `has_more`.",
  filters: { claim_id: claimId.schema("Only this claim's notes").optional() },
  key: "notes",
  from: "claim_notes",
  where: { claim_id: "=" },
  orderBy: "note_id",
});

function addNote(db: Database.Database, claim: string, body: string): void {
  cachedStatement(
    db,
    "INSERT INTO claim_notes (claim_id, author, written_on, body) VALUES (?, 'Claims desk', ?, ?)",
  ).run(claim, REFERENCE_DATE, body);
}

function requireOpen(claim: Record<string, unknown>, action: string): void {
  if (claim.status !== "open")
    throw new ToolFailure(
      `claim ${String(claim.claim_id)} is ${String(claim.status)}; only open claims can be ${action}`,
    );
}

const denyClaim = defineTool({
  name: "deny_claim",
  description:
    "Deny an open claim: sets status to denied, the reserve to 0 and records the reason as a claim note. Returns the updated `claim`.",
  kind: "write",
  inputSchema: z.object({
    claim_id: claimId.schema("The claim to deny"),
    reason: z.string().min(3).describe("Why the claim is denied, e.g. 'outside policy period'"),
  }),
  handler: ({ claim_id, reason }, { db }: ToolContext) => {
    requireOpen(requireEntity(db, "claims", claimId, claim_id), "denied");
    const claim = updateEntity(db, "claims", claimId, claim_id, { status: "denied", reserve: 0 });
    addNote(db, claim_id, `Denied: ${reason}`);
    return { claim };
  },
});

const assignClaim = defineTool({
  name: "assign_claim",
  description:
    "Assign an open claim to another adjuster (who must be active in HR) and record a claim note. Does not check licenses or caseload caps. Returns the updated `claim`.",
  kind: "write",
  inputSchema: z.object({
    claim_id: claimId.schema("The claim"),
    adjuster_id: adjusterId.schema("The new adjuster"),
  }),
  handler: ({ claim_id, adjuster_id }, { db }: ToolContext) => {
    const claim = requireEntity(db, "claims", claimId, claim_id);
    requireOpen(claim, "reassigned");
    const adjuster = requireEntity<{ status: string }>(db, "adjusters", adjusterId, adjuster_id, "status");
    if (adjuster.status !== "active")
      throw new ToolFailure(`adjuster ${adjuster_id} is ${adjuster.status} and cannot take claims`);
    if (claim.adjuster_id === adjuster_id)
      throw new ToolFailure(`claim ${claim_id} is already assigned to ${adjuster_id}`);
    const updated = updateEntity(db, "claims", claimId, claim_id, { adjuster_id });
    addNote(db, claim_id, `Reassigned from ${String(claim.adjuster_id)} to ${adjuster_id}`);
    return { claim: updated };
  },
});

const tagCatastrophe = defineStatusTool({
  name: "tag_catastrophe",
  description:
    "Tag a claim (open or closed, not denied) to a catastrophe event code such as CAT-25-04. Returns the updated `claim`.",
  id: claimId,
  idDescription: "The claim",
  input: {
    cat_code: z
      .string()
      .regex(/^CAT-\d{2}-\d{2}$/, "cat_code must look like CAT-25-04")
      .describe("The event code"),
  },
  table: "claims",
  from: ["open", "closed"],
  refusal: (id, status) => `claim ${id} is ${status}; denied claims are not tagged`,
  set: ({ cat_code }) => ({ cat_code }),
  key: "claim",
});

const referToSiu = defineTool({
  name: "refer_to_siu",
  description:
    "Refer an open claim to the Special Investigations Unit, naming the fraud indicator codes found; records a claim note. Returns the updated `claim`.",
  kind: "write",
  inputSchema: z.object({
    claim_id: claimId.schema("The claim"),
    indicators: z
      .array(z.string().min(1))
      .min(1)
      .describe("Indicator codes from the fraud memo, e.g. ['LATE_REPORT', 'NEW_POLICY']"),
  }),
  handler: ({ claim_id, indicators }, { db }: ToolContext) => {
    const claim = requireEntity(db, "claims", claimId, claim_id);
    requireOpen(claim, "referred");
    if (claim.siu_referral === 1) throw new ToolFailure(`claim ${claim_id} is already referred to SIU`);
    const updated = updateEntity(db, "claims", claimId, claim_id, { siu_referral: 1 });
    addNote(db, claim_id, `Referred to SIU: ${indicators.join(", ")}`);
    return { claim: withBooleans(updated, "siu_referral") };
  },
});

const setReserveBase = defineTool({
  name: "set_reserve",
  description:
    "Set the case reserve of an open claim (in dollars) and record the change and its reason as a claim note. Returns the updated `claim`.",
  kind: "write",
  inputSchema: z.object({
    claim_id: claimId.schema("The claim"),
    reserve: z.number().nonnegative().describe("The new case reserve in dollars, e.g. 4500"),
    reason: z.string().min(3).describe("Why the reserve changes, e.g. 'raised to the guideline minimum'"),
  }),
  handler: ({ claim_id, reserve, reason }, { db }: ToolContext) => {
    const claim = requireEntity(db, "claims", claimId, claim_id);
    requireOpen(claim, "re-reserved");
    const amount = Math.round(reserve * 100) / 100;
    const updated = updateEntity(db, "claims", claimId, claim_id, { reserve: amount });
    addNote(db, claim_id, `Reserve changed from ${String(claim.reserve)} to ${amount}: ${reason}`);
    return { claim: withBooleans(updated, "siu_referral") };
  },
});

/**
 * The reserving service times out on some claims and says so only in the body: the first write to every
 * claim whose number leaves 1 when divided by 6 returns `{"status": "error", ...}` without MCP isError,
 * and nothing is written.
 */
const setReserve = withSilentFailures(setReserveBase, {
  when: (input) => Number(input.claim_id.slice(4)) % 6 === 1,
  body: (input) => ({
    status: "error",
    error: `reserving service timeout: the reserve of ${input.claim_id} was not saved, retry the request`,
  }),
});

export const claimsTools: DomainTool[] = [
  listPolicyholders,
  getPolicyholder,
  listPolicies,
  getPolicy,
  listEndorsements,
  listAdjusters,
  getAdjuster,
  listClaims,
  getClaim,
  listPayments,
  listClaimNotes,
  denyClaim,
  assignClaim,
  tagCatastrophe,
  referToSiu,
  setReserve,
] as DomainTool[];
