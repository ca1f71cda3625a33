import {
  allRows,
  check,
  checkStateDiff,
  defineTask,
  roundCents,
  type StateView,
} from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { awardsOf, readPolicies, readTerms } from "../facts.js";
import { IDC_MONTH, SUBAWARD_CODE } from "../rules.js";
import { checkTotal } from "./expect.js";
import { grantsCells, nearMisses } from "./python.js";

/** Per award with May charges whose sponsor pays indirect costs: the F&A on the month's base. */
export function expectedIndirect(state: StateView): Map<string, number> {
  const policies = readPolicies(state);
  const terms = readTerms(state);
  const awards = awardsOf(state);
  const payments = allRows<{ subaward_id: string; amount: number; paid_on: string }>(
    state.db,
    "SELECT subaward_id, amount, paid_on FROM subaward_payments",
  );
  const charges = allRows<{
    award_id: string;
    object_code: string;
    amount: number;
    subaward_id: string | null;
    posted_on: string;
  }>(
    state.db,
    "SELECT * FROM transactions WHERE substr(posted_on, 1, 7) = ? AND status = 'posted'",
    IDC_MONTH,
  );
  const bases = new Map<string, number>();
  for (const charge of charges) {
    const { idc } = terms.get(awards.get(charge.award_id)!.sponsor_id)!;
    if (!idc) continue;
    let amount = charge.amount;
    if (idc.base === "MTDC" && policies.excluded.has(charge.object_code)) amount = 0;
    else if (idc.base === "MTDC" && charge.object_code === SUBAWARD_CODE) {
      const before = payments
        .filter((p) => p.subaward_id === charge.subaward_id && p.paid_on < charge.posted_on)
        .reduce((sum, p) => sum + p.amount, 0);
      amount = Math.min(amount, Math.max(0, policies.subawardCap - before));
    }
    bases.set(charge.award_id, (bases.get(charge.award_id) ?? 0) + amount);
  }
  const expected = new Map<string, number>();
  for (const [award, base] of bases) {
    const amount = roundCents((base * terms.get(awards.get(award)!.sponsor_id)!.idc!.rate) / 100);
    if (amount > 0) expected.set(award, amount);
  }
  if (expected.size === 0) throw new Error("generation produced no F&A to post");
  return expected;
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
            amount = 0 if "whole-subaward" in NEAR else min(amount, max(0, policy["cap"] - paid_before(t["subaward_id"], t["posted_on"])))
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
    const posted = new Map(
      allRows<{ award_id: string; amount: number }>(
        final.db,
        "SELECT award_id, amount FROM idc_postings",
      ).map((row) => [row.award_id, row.amount]),
    );
    const wrong = [...expected].filter(
      ([award, amount]) => Math.abs((posted.get(award) ?? -1) - amount) > 0.011,
    );
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "idc_postings",
          key: "posting_id",
          added: [...expected.keys()].map((award_id) => ({ award_id, month: IDC_MONTH })),
        },
      ]),
      check(
        "posted-amounts",
        wrong.length === 0,
        wrong.length === 0
          ? "every amount matches"
          : wrong
              .slice(0, 4)
              .map(([award, amount]) => `${award}: expected ${amount}, posted ${posted.get(award)}`)
              .join("; "),
      ),
      checkTotal(answer, roundCents([...expected.values()].reduce((sum, amount) => sum + amount, 0))),
    ];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    [
      "mtdc-everywhere",
      "Leaves MTDC exclusions out of the base for every sponsor, also those paying on total direct costs.",
      "mtdc-everywhere",
    ],
    [
      "whole-subaward-excluded",
      "Leaves every subaward payment out of the MTDC base instead of each subaward's first $25,000.",
      "whole-subaward",
    ],
    [
      "ledger-cumulative",
      "Counts a subaward's earlier payments from this year's ledger instead of its whole payment history.",
      "ledger-cumulative",
    ],
    ["no-retry", "Does not repeat a ledger query that answered 503.", "no-retry"],
  ]),
});
