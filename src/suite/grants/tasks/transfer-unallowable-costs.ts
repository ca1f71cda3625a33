import { checkAnswerCount, checkAnswerTotal, checkStateDiff, defineTask } from "../../../envs/index.js";
import { sumCents, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { charges, termsByAward, nonEmpty } from "../facts.js";
import { grantsCells, nearMisses } from "./python.js";

/** Posted charges whose object code the award's sponsor lists as unallowable, on any award. */
export function unallowableCharges(state: StateView): Array<{ txn_id: string; amount: number }> {
  const terms = termsByAward(state);
  const found = charges(state, "1").filter((charge) =>
    terms.get(charge.award_id)!.unallowable.has(charge.object_code),
  );
  return nonEmpty(found, "unallowable charge").map(({ txn_id, amount }) => ({ txn_id, amount }));
}

const cells = grantsCells(String.raw`
terms = sponsor_terms(policies())
awards = {a["award_id"]: a for a in fetch("list_awards", "awards", **({"status": "active"} if "active-only" in NEAR else {}))}
federal = next(t for t in terms.values() if t["type"] == "federal")
moved, total = 0, 0.0
for code in sorted(set().union(*(t["unallowable"] for t in terms.values()))):
    for t in fetch("list_transactions", "transactions", object_code=code):
        if t["status"] != "posted" or t["award_id"] not in awards:
            continue
        rules = federal if "federal-list" in NEAR else terms[awards[t["award_id"]]["sponsor_id"]]
        if code in rules["unallowable"]:
            call("transfer_cost", txn_id=t["txn_id"], reason=f"Unallowable under the sponsor's terms (object code {code})")
            moved, total = moved + 1, total + t["amount"]
print(f"Transferred {moved} charges totalling ${"$"}{total:,.2f}")
`);

export const transferUnallowableCostsTask = defineTask({
  id: "grants.transfer-unallowable-costs",
  domain: grantsDomain,
  summary:
    "Transfer off every award each charge whose object code its sponsor's terms list as unallowable (lists differ by sponsor; closed awards included).",
  instruction:
    "Before the mid-year review, move every charge that the award's sponsor does not allow off its award, to the department's unrestricted account, on all awards, active or closed. Reply with the number of charges moved and their total, e.g. `Transferred 7 charges totalling $2,315.40`.",
  tools: ["list_sponsors", "list_awards", "list_transactions", "transfer_cost"],
  verify: ({ initial, final, answer }) => {
    const expected = unallowableCharges(initial);
    const changed = new Map(expected.map(({ txn_id }) => [txn_id, { status: "transferred" }]));
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "transactions", key: "txn_id", changed },
        { table: "cost_transfers", key: "transfer_id", added: expected },
      ]),
      checkAnswerCount(answer, expected.length),
      checkAnswerTotal(answer, sumCents(expected.map((charge) => charge.amount))),
    ];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "federal-list: Applies the federal list of unallowable costs to every sponsor.",
    "active-only: Leaves out closed awards.",
    "no-retry: Does not repeat a ledger query that answered 503.",
  ]),
});
