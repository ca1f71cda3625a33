import { defineClaimsTask } from "./common.js";
import { allRows, type StateView } from "../../../envs/index.js";
import { deskWriteVerifier } from "./common.js";

/** Open claims whose loss date is before the policy's effective date or on/after its expiration date. */
export function claimsOutsidePeriod(state: StateView): string[] {
  return allRows<{ claim_id: string }>(
    state.db,
    `SELECT c.claim_id FROM claims c JOIN policies p ON p.policy_id = c.policy_id
     WHERE c.status = 'open' AND (c.loss_date < p.effective_date OR c.loss_date >= p.expiration_date)
     ORDER BY c.claim_id`,
  ).map((row) => row.claim_id);
}

function cells(options: { expirationCovered?: boolean; firstPageOnly?: boolean } = {}): string[] {
  return [
    String.raw`
rules = read_text("policies/coverage-rules.md")
print(rules[:200])
${options.firstPageOnly ? 'open_claims = tools.list_claims(status="open")["claims"]' : 'open_claims = fetch_all("list_claims", "claims", status="open")'}
policies = {policy["policy_id"]: policy for policy in fetch_all("list_policies", "policies")}
outside = []
for claim in open_claims:
    policy = policies[claim["policy_id"]]
    if claim["loss_date"] < policy["effective_date"] or claim["loss_date"] ${options.expirationCovered ? ">" : ">="} policy["expiration_date"]:
        outside.append(claim["claim_id"])
print(len(open_claims), "open claims;", len(outside), "outside the policy period")
`,
    String.raw`
for claim_id in outside:
    tools.deny_claim(claim_id=claim_id, reason="outside policy period")
print(json.dumps({"denied": outside}))
`,
  ];
}

export const lossOutsidePeriodTask = defineClaimsTask({
  id: "claims.loss-outside-period",
  summary:
    "Deny every open claim whose loss date is outside its policy period (a loss on the expiration date is outside, per the coverage rules).",
  instruction:
    'Coverage check before month end: find every open claim whose loss date falls outside its policy\'s period as our coverage rules define it, and deny each of them with the reason "outside policy period". Do not touch any other claim. Reply with only a JSON object {"denied": [<ids of the claims you denied>]}.',
  tools: ["list_claims", "get_claim", "list_policies", "get_policy", "deny_claim"],
  verify: deskWriteVerifier("answer-lists-denials", "denied", claimsOutsidePeriod, {
    status: "denied",
    reserve: 0,
  }),
  cells,
  nearMisses: {
    "expiration-day-covered": [
      { expirationCovered: true },
      "Treats a loss on the expiration date as covered.",
    ],
    "first-page-only": [{ firstPageOnly: true }, "Reads only the first page of open claims."],
  },
});
