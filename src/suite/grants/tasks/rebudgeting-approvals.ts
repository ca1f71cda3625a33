import { allRows, checkAnswerAmounts, defineTask, roundCents, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { awardsOf, charges, termsByAward, nonEmpty } from "../facts.js";
import { BUDGET_PERIOD } from "../rules.js";
import { grantsCells, nearMisses } from "./python.js";

/** Active awards whose overspending (categories above budget, not netted) exceeds their sponsor's threshold. */
export function rebudgetingOverruns(state: StateView): Map<string, number> {
  const terms = termsByAward(state);
  // Per award and category, spending less the budget line; per award, the direct-cost budget.
  const sums = (): Map<string, number> => new Map();
  const [net, budgets, over] = [sums(), sums(), sums()];
  const add = (map: Map<string, number>, key: string, amount: number): void =>
    void map.set(key, (map.get(key) ?? 0) + amount);
  for (const charge of charges(state, "posted_on BETWEEN ? AND ?", BUDGET_PERIOD.start, BUDGET_PERIOD.end))
    add(net, `${charge.award_id}|${charge.category}`, charge.amount);
  type Line = { award_id: string; category: string; amount: number };
  for (const line of allRows<Line>(state.db, "SELECT * FROM budget_lines")) {
    add(net, `${line.award_id}|${line.category}`, -line.amount);
    add(budgets, line.award_id, line.amount);
  }
  for (const [key, amount] of net) add(over, key.split("|")[0]!, Math.max(0, amount));
  const found = new Map<string, number>();
  for (const [id, award] of awardsOf(state)) {
    const [pct, spent] = [terms.get(id)!.rebudgetPct, over.get(id) ?? 0];
    if (award.status === "active" && pct !== null && spent > (pct / 100) * (budgets.get(id) ?? 0))
      found.set(id, roundCents(spent));
  }
  return nonEmpty(found, "overspent award");
}

const cells = grantsCells(String.raw`
terms = sponsor_terms(policies())
awards = {a["award_id"]: a for a in fetch("list_awards", "awards", status="active")}
spent = {}
for t in fetch("list_transactions", "transactions", posted_from="2025-01-01", posted_to="2025-12-31"):
    if t["status"] == "posted" and t["award_id"] in awards:
        by_category = spent.setdefault(t["award_id"], {})
        by_category[t["category"]] = by_category.get(t["category"], 0) + t["amount"]
result = {}
for award_id, award in sorted(awards.items()):
    pct = 10 if "flat-10-percent" in NEAR else terms[award["sponsor_id"]]["rebudget"]
    if pct is None:
        continue
    budget = {line["category"]: line["amount"] for line in call("get_award", award_id=award_id)["budget"]}
    by_category = spent.get(award_id, {})
    if "nets-categories" in NEAR:
        over = sum(by_category.values()) - sum(budget.values())
    else:
        over = sum(max(0, amount - budget.get(category, 0)) for category, amount in by_category.items())
    if over > pct / 100 * sum(budget.values()):
        result[award_id] = money(over)
print(json.dumps(result))
`);

export const rebudgetingApprovalsTask = defineTask({
  id: "grants.rebudgeting-approvals",
  domain: grantsDomain,
  summary:
    "Active awards whose overspending (the sum of each category's spending above its budget line, from the whole paginated ledger) exceeds the sponsor's rebudgeting threshold.",
  instruction:
    'Mid-year check: which active awards have overspent their budget lines by more than their sponsor allows without prior approval? Use the spending posted so far in the current budget period and the budget lines in the grants system. Reply with only a JSON object mapping each such award ID to its overspending in dollars, e.g. {"AWD-10021": 18250.4}.',
  tools: ["list_sponsors", "list_awards", "get_award", "list_transactions"],
  verify: ({ initial, answer }) => [
    checkAnswerAmounts("answer", answer, rebudgetingOverruns(initial), 0.011),
  ],
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "flat-10-percent: Uses a 10% threshold for every sponsor instead of each sponsor's own (or none).",
    "nets-categories: Lets categories under budget offset the overspent ones.",
    "first-page-only: Reads only the first page of the ledger.",
    "no-retry: Does not repeat a ledger page that answered 503.",
  ]),
});
