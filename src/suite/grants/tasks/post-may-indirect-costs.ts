import { allRows, checkAnswerCount, checkAnswerTotal, checkProblems } from "../../../envs/index.js";
import { checkStateDiff, defineTask, roundCents, sumCents, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { charges, nonEmpty, readPolicies, termsByAward } from "../facts.js";
import { IDC_MONTH, SUBAWARD_CODE } from "../rules.js";
import { grantsCells, nearMisses } from "./python.js";

/** Per award with May charges whose sponsor pays indirect costs: the F&A on the month's base. */
export function expectedIndirect(state: StateView): Map<string, number> {
  const { excluded, subawardCap } = readPolicies(state);
  const terms = termsByAward(state);
  type Payment = { subaward_id: string; amount: number; paid_on: string };
  const payments = allRows<Payment>(state.db, "SELECT * FROM subaward_payments");
  const paidBefore = (subaward: string | null, day: string): number =>
    sumCents(payments.filter((p) => p.subaward_id === subaward && p.paid_on < day).map((p) => p.amount));
  const bases = new Map<string, number>();
  for (const charge of charges(state, "substr(posted_on, 1, 7) = ?", IDC_MONTH)) {
    const mtdc = terms.get(charge.award_id)!.idc?.base === "MTDC";
    let amount = mtdc && excluded.has(charge.object_code) ? 0 : charge.amount;
    if (mtdc && charge.object_code === SUBAWARD_CODE)
      amount = Math.min(amount, Math.max(0, subawardCap - paidBefore(charge.subaward_id, charge.posted_on)));
    bases.set(charge.award_id, (bases.get(charge.award_id) ?? 0) + amount);
  }
  const posted = [...bases].map(([award, base]) => [
    award,
    roundCents((base * (terms.get(award)!.idc?.rate ?? 0)) / 100),
  ]);
  return nonEmpty(
    new Map(posted.filter(([, amount]) => Number(amount) > 0) as Array<[string, number]>),
    "F&A to post",
  );
}

const cells = grantsCells(String.raw`
policy = policies()
terms = sponsor_terms(policy)
awards = {a["award_id"]: a for a in fetch("list_awards", "awards")}
history = {}
def paid_before(subaward, day):
    if subaward not in history:
        if "ledger-cumulative" in NEAR:
            rows = fetch("list_transactions", "transactions", object_code="5700", posted_to=TODAY)
            history[subaward] = [(t["posted_on"], t["amount"]) for t in rows if t["subaward_id"] == subaward]
        else:
            history[subaward] = [(p["paid_on"], p["amount"]) for p in call("get_subaward", subaward_id=subaward)["payments"]]
    return sum(amount for paid, amount in history[subaward] if paid < day)
bases = {}
for t in fetch("list_transactions", "transactions", posted_from="2025-05-01", posted_to="2025-05-31"):
    idc = terms[awards[t["award_id"]]["sponsor_id"]]["idc"]
    if t["status"] != "posted" or idc is None:
        continue
    amount = t["amount"]
    if idc["base"] == "MTDC" or "mtdc-everywhere" in NEAR:
        if t["object_code"] in policy["excluded"]:
            amount = 0
        elif t["object_code"] == "5700":
            left = policy["cap"] - paid_before(t["subaward_id"], t["posted_on"])
            amount = 0 if "whole-subaward-excluded" in NEAR else min(amount, max(0, left))
    bases[t["award_id"]] = bases.get(t["award_id"], 0) + amount
count, total = 0, 0.0
for award_id in sorted(bases):
    amount = money(bases[award_id] * terms[awards[award_id]["sponsor_id"]]["idc"]["rate"] / 100)
    if amount > 0:
        call("post_indirect_costs", award_id=award_id, month="2025-05", amount=amount)
        count, total = count + 1, total + amount
print(f"Posted F&A on {count} awards totalling ${"$"}{total:,.2f}")
`);

export const postMayIndirectCostsTask = defineTask({
  id: "grants.post-may-indirect-costs",
  domain: grantsDomain,
  summary:
    "Post May's F&A on every award with May charges: sponsor rate and base (MTDC or TDC) from its terms, MTDC per the rate agreement, subaward payments only within each subaward's first $25,000.",
  instruction:
    "May 2025 has closed: post the F&A (indirect cost) charge for May on every award that had direct costs posted in May, as each sponsor's terms and our rate agreement say. Reply with the number of awards and the total you posted, e.g. `Posted F&A on 12 awards totalling $48,210.55`.",
  tools: ["list_sponsors", "list_awards", "list_transactions", "get_subaward", "post_indirect_costs"],
  verify: ({ initial, final, answer }) => {
    const expected = expectedIndirect(initial);
    const posted = allRows<{ award_id: string; amount: number }>(final.db, "SELECT * FROM idc_postings");
    const wrong = posted.filter((row) => Math.abs(row.amount - (expected.get(row.award_id) ?? -1)) > 0.011);
    const problems = wrong.map(
      (row) => `${row.award_id}: ${row.amount}, expected ${expected.get(row.award_id)}`,
    );
    const added = [...expected.keys()].map((award_id) => ({ award_id, month: IDC_MONTH }));
    return [
      ...checkStateDiff(initial.db, final.db, [{ table: "idc_postings", key: "posting_id", added }]),
      checkProblems("amounts", problems, "ok"),
      checkAnswerCount(answer, expected.size),
      checkAnswerTotal(answer, sumCents(expected.values())),
    ];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "mtdc-everywhere: Leaves MTDC exclusions out of the base for every sponsor, also those paying on total direct costs.",
    "whole-subaward-excluded: Leaves every subaward payment out of the MTDC base, not only what exceeds each subaward's first $25,000.",
    "ledger-cumulative: Counts a subaward's earlier payments from this year's ledger instead of its whole payment history.",
    "no-retry: Does not repeat a ledger query that answered 503.",
  ]),
});
