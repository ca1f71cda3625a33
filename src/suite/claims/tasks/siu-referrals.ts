import { defineClaimsTask } from "./common.js";
import { allRows, daysBetween, type StateView } from "../../../envs/index.js";
import { FRAUD_MEMO_PATH, parseFraudMemo } from "../rules.js";
import { deskWriteVerifier } from "./common.js";

interface ClaimFacts {
  claim_id: string;
  policyholder_id: string;
  effective_date: string;
  loss_date: string;
  reported_date: string;
  status: string;
  siu_referral: number;
}

/** Open, unreferred claims showing at least the memo's number of fraud indicators. */
export function siuReferrals(state: StateView): string[] {
  const memo = parseFraudMemo(state.readFile(FRAUD_MEMO_PATH) ?? "");
  const claims = allRows<ClaimFacts>(
    state.db,
    `SELECT c.claim_id, p.policyholder_id, p.effective_date, c.loss_date, c.reported_date, c.status, c.siu_referral
     FROM claims c JOIN policies p ON p.policy_id = c.policy_id ORDER BY c.claim_id`,
  );
  return claims
    .filter((claim) => claim.status === "open" && claim.siu_referral === 0)
    .filter((claim) => {
      const afterStart = daysBetween(claim.effective_date, claim.loss_date);
      const prior = claims.filter(
        (other) =>
          other.claim_id !== claim.claim_id &&
          other.policyholder_id === claim.policyholder_id &&
          other.loss_date < claim.loss_date &&
          daysBetween(other.loss_date, claim.loss_date) <= 365,
      ).length;
      const indicators = [
        daysBetween(claim.loss_date, claim.reported_date) > memo.lateDays,
        afterStart >= 0 && afterStart <= memo.newPolicyDays,
        prior >= memo.repeatCount,
      ].filter(Boolean).length;
      return indicators >= memo.minimumIndicators;
    })
    .map((claim) => claim.claim_id);
}

function cells(options: { minimum?: number; skipRepeat?: boolean } = {}): string[] {
  return [
    String.raw`
memo = read_text("memos/fraud-indicators.md")
threshold = {code: int(value) for code, _, value in md_table(memo, "Indicators")}
print(threshold)
claims = fetch_all("list_claims", "claims")
policies = {policy["policy_id"]: policy for policy in fetch_all("list_policies", "policies")}
holder_of = {claim["claim_id"]: policies[claim["policy_id"]]["policyholder_id"] for claim in claims}
`,
    String.raw`
referred = []
for claim in claims:
    if claim["status"] != "open" or claim["siu_referral"]:
        continue
    policy = policies[claim["policy_id"]]
    found = []
    if days(claim["loss_date"], claim["reported_date"]) > threshold["LATE_REPORT"]:
        found.append("LATE_REPORT")
    if 0 <= days(policy["effective_date"], claim["loss_date"]) <= threshold["NEW_POLICY"]:
        found.append("NEW_POLICY")
    prior = [other for other in claims if other["claim_id"] != claim["claim_id"] and holder_of[other["claim_id"]] == policy["policyholder_id"]
             and other["loss_date"] < claim["loss_date"] and days(other["loss_date"], claim["loss_date"]) <= 365]
    if ${options.skipRepeat ? "False" : "True"} and len(prior) >= threshold["REPEAT_LOSS"]:
        found.append("REPEAT_LOSS")
    if len(found) >= ${options.minimum ?? 2}:
        tools.refer_to_siu(claim_id=claim["claim_id"], indicators=found)
        referred.append(claim["claim_id"])
print(json.dumps({"referred": referred}))
`,
  ];
}

export const siuReferralsTask = defineClaimsTask({
  id: "claims.siu-referrals",
  summary:
    "Refer to SIU every open, unreferred claim with at least two fraud indicators from the memo (late report, loss soon after inception, repeat losses by the policyholder across policies).",
  instruction:
    'Please run the weekly SIU screen: apply the fraud indicators memo to our claims and refer every claim it says should be referred, naming the indicators found. Reply with only a JSON object {"referred": [<ids of the claims you referred>]}.',
  tools: [
    "list_claims",
    "get_claim",
    "list_policies",
    "get_policy",
    "list_policyholders",
    "get_policyholder",
    "refer_to_siu",
  ],
  verify: deskWriteVerifier("answer-lists-referrals", "referred", siuReferrals, { siu_referral: 1 }),
  cells,
  nearMisses: {
    "one-indicator-enough": [{ minimum: 1 }, "Refers claims that show a single indicator."],
    "no-repeat-loss": [
      { skipRepeat: true },
      "Skips the repeat-loss indicator, which needs the policyholder's other policies.",
    ],
  },
});
