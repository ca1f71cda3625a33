import {
  CORRECT,
  allRows,
  checkOtherTablesUnchanged,
  defineTask,
  roundCents,
  type Check,
  type StateView,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { claimsDomain } from "../domain.js";
import { COVERAGE_RULES_PATH, parseCoverageRules } from "../rules.js";
import { PYTHON_SETUP, answerListCheck, answerTotalCheck } from "./common.js";

/** Claims whose issued payments exceed min(limit, sublimit) minus the deductible, and the total excess. */
export function overpaidClaims(state: StateView): { claims: string[]; totalExcess: number } {
  const rules = parseCoverageRules(state.readFile(COVERAGE_RULES_PATH) ?? "");
  const rows = allRows<{
    claim_id: string;
    line: string;
    cause_of_loss: string;
    coverage_limit: number;
    deductible: number;
    paid: number;
  }>(
    state.db,
    `SELECT c.claim_id, p.line, c.cause_of_loss, p.coverage_limit, p.deductible, SUM(pay.amount) AS paid
     FROM claim_payments pay JOIN claims c ON c.claim_id = pay.claim_id JOIN policies p ON p.policy_id = c.policy_id
     WHERE pay.status = 'issued' GROUP BY c.claim_id ORDER BY c.claim_id`,
  );
  const claims: string[] = [];
  let excess = 0;
  for (const row of rows) {
    const sublimit = rules.sublimits.get(`${row.line}/${row.cause_of_loss}`) ?? Infinity;
    const cap = Math.min(row.coverage_limit, sublimit) - row.deductible;
    if (row.paid > cap + 1e-9) {
      claims.push(row.claim_id);
      excess += row.paid - cap;
    }
  }
  return { claims, totalExcess: roundCents(excess) };
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = overpaidClaims(initial);
  return [
    answerListCheck("overpaid-claims", answer, "claims", expected.claims),
    answerTotalCheck("total-excess", answer, "total_excess", expected.totalExcess, (given) =>
      given === undefined ? null : Number(String(given ?? "").replace(/[$,\s]/g, "")),
    ),
    checkOtherTablesUnchanged(initial.db, final.db, []),
  ];
}

function cells(
  options: { retry?: boolean; countVoided?: boolean; sublimits?: boolean; deductible?: boolean } = {},
): string[] {
  const { retry = true, countVoided = false, sublimits = true, deductible = true } = options;
  return [
    PYTHON_SETUP,
    String.raw`
rules = read_text("policies/coverage-rules.md")
sublimit = {(line, cause): float(amount.replace("$", "").replace(",", "")) for line, cause, amount in md_table(rules, "Sublimits")}
${sublimits ? "" : "sublimit = {}"}
print(sublimit)

def fetch_all_retrying(tool, key, **filters):
    items, page = [], 1
    while True:
        for attempt in range(4):
            try:
                result = tools[tool](page=page, per_page=50, **filters)
                break
            except Exception as error:
                if ${retry ? "attempt == 3" : "True"}:
                    raise
                print("retrying page", page, "after:", error)
        items.extend(result[key])
        if not result["has_more"]:
            return items
        page += 1
`,
    String.raw`
payments = fetch_all_retrying("list_payments", "payments")
claims = {claim["claim_id"]: claim for claim in fetch_all("list_claims", "claims")}
policies = {policy["policy_id"]: policy for policy in fetch_all("list_policies", "policies")}
paid = {}
for payment in payments:
    if payment["status"] == "issued" or ${countVoided ? "True" : "False"}:
        paid[payment["claim_id"]] = paid.get(payment["claim_id"], 0) + payment["amount"]
over, excess = [], 0.0
for claim_id in sorted(paid):
    claim = claims[claim_id]
    policy = policies[claim["policy_id"]]
    cap = min(policy["coverage_limit"], sublimit.get((policy["line"], claim["cause_of_loss"]), float("inf"))) ${deductible ? '- policy["deductible"]' : ""}
    if paid[claim_id] > cap + 1e-9:
        over.append(claim_id)
        excess += paid[claim_id] - cap
print(len(payments), "payments;", len(over), "claims over their cap")
`,
    `print(json.dumps({"claims": over, "total_excess": round(excess + 1e-9, 2)}))`,
  ];
}

export const paymentsOverCapTask = defineTask({
  id: "claims.payments-over-cap",
  domain: claimsDomain,
  summary:
    "Find claims whose issued payments exceed the applicable limit (coverage limit or lower sublimit) minus the deductible, and the total excess; the payments listing fails transiently once.",
  instruction:
    'Internal audit asked for the overpayment review. Using the payment cap in our coverage rules, find every claim whose issued payments add up to more than may be paid on it. Reply with only a JSON object {"claims": [<claim ids>], "total_excess": <sum over those claims of issued payments minus the most that may be paid, in dollars rounded to cents>}.',
  tools: ["list_claims", "get_claim", "list_policies", "get_policy", "list_payments"],
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, CORRECT, {
    "no-retry": [{ retry: false }, "Gives up when the payments listing returns a 503."],
    "counts-voided": [{ countVoided: true }, "Counts voided payments toward the total paid."],
    "ignores-sublimits": [
      { sublimits: false },
      "Caps every claim at the policy limit, ignoring cause sublimits.",
    ],
    "ignores-deductible": [{ deductible: false }, "Forgets to subtract the deductible."],
  }),
});
