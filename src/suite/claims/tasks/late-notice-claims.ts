import { defineClaimsTask } from "./common.js";
import { allRows, daysBetween, type StateView } from "../../../envs/index.js";
import { COVERAGE_RULES_PATH, parseCoverageRules } from "../rules.js";
import { listAnswerVerifier } from "./common.js";

/** Open claims reported more days after the loss than the line's notice period (EXT_NOTICE extends it). */
export function lateNoticeClaims(state: StateView): string[] {
  const rules = parseCoverageRules(state.readFile(COVERAGE_RULES_PATH) ?? "");
  const rows = allRows<{
    claim_id: string;
    line: string;
    loss_date: string;
    reported_date: string;
    extended: number;
  }>(
    state.db,
    `SELECT c.claim_id, p.line, c.loss_date, c.reported_date,
       EXISTS (SELECT 1 FROM endorsements e WHERE e.policy_id = p.policy_id AND e.code = 'EXT_NOTICE') AS extended
     FROM claims c JOIN policies p ON p.policy_id = c.policy_id WHERE c.status = 'open' ORDER BY c.claim_id`,
  );
  return rows
    .filter((row) => {
      const allowed = row.extended === 1 ? rules.extendedNoticeDays : (rules.noticeDays.get(row.line) ?? 0);
      return daysBetween(row.loss_date, row.reported_date) > allowed;
    })
    .map((row) => row.claim_id);
}

function cells(options: { ignoreEndorsement?: boolean; inclusive?: boolean } = {}): string[] {
  return [
    String.raw`
rules = read_text("policies/coverage-rules.md")
notice = {line: int(days) for line, days in md_table(rules, "Notice of loss")}
extended = int(re.search(r"extends the notice period to (\d+) days", rules).group(1))
print(notice, extended)
open_claims = fetch_all("list_claims", "claims", status="open")
policies = {policy["policy_id"]: policy for policy in fetch_all("list_policies", "policies")}
`,
    String.raw`
late = []
for claim in open_claims:
    delay = days(claim["loss_date"], claim["reported_date"])
    allowed = notice[policies[claim["policy_id"]]["line"]]
    if delay ${options.inclusive ? ">=" : ">"} allowed and ${options.ignoreEndorsement ? "True" : "True"}:
        ${
          options.ignoreEndorsement
            ? "late.append(claim['claim_id'])"
            : `codes = {e["code"] for e in tools.get_policy(policy_id=claim["policy_id"])["endorsements"]}
        if "EXT_NOTICE" in codes and delay <= extended:
            continue
        late.append(claim["claim_id"])`
        }
print(json.dumps({"late_claims": late}))
`,
  ];
}

export const lateNoticeClaimsTask = defineClaimsTask({
  id: "claims.late-notice-claims",
  summary:
    "List open claims reported after the notice period of their policy line (more days than allowed; the EXT_NOTICE endorsement extends the period).",
  instruction:
    'Please list every open claim that was reported late, that is later than the notice-of-loss period our coverage rules give its policy. Do not change anything. Reply with only a JSON object {"late_claims": [<claim ids>]}.',
  tools: ["list_claims", "get_claim", "list_policies", "get_policy", "list_endorsements"],
  verify: listAnswerVerifier("late-notice-claims", "late_claims", lateNoticeClaims),
  cells,
  nearMisses: {
    "ignores-extended-notice": [{ ignoreEndorsement: true }, "Ignores the EXT_NOTICE endorsement."],
    "boundary-day-late": [
      { inclusive: true },
      "Counts a claim reported exactly on the last day of the period as late.",
    ],
  },
});
