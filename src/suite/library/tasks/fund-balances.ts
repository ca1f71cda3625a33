import { checkAnswerAmounts, defineTask, flagNearMisses } from "../../../envs/index.js";
import { libraryDomain } from "../domain.js";
import { fundBalances } from "../facts.js";
import { LIBRARY_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    LIBRARY_PY,
    `NEAR = set(${JSON.stringify(near)})
policy = read_text("policies/fund-accounting.md")
effects = {row[0]: (1 if row[2] == "add" else -1) for row in md_table(policy, "Transaction kinds")}
if "all-subtract" in NEAR:
    effects = {kind: (1 if kind == "transfer_in" else -1) for kind in effects}
funds = fetch("list_funds", "funds")
print(effects)`,
    `balances = {}
for fund in funds:
    filters = {"fund_code": fund["fund_code"]}
    if "no-fiscal-year" not in NEAR:
        filters["posted_from"] = FY_START
    items, page = [], 1
    while True:
        result = call("list_fund_transactions", page=page, **filters)
        items.extend(result["transactions"])
        if not result["has_more"] or "first-page" in NEAR:
            break
        page += 1
    balances[fund["fund_code"]] = money(fund["budget"] + sum(effects[t["kind"]] * t["amount"] for t in items))
print(json.dumps(balances))`,
  ];
}

export const fundBalancesTask = defineTask({
  id: "library.fund-balances",
  domain: libraryDomain,
  summary:
    "Each fund's available balance from the paginated ledger, per the fund-accounting policy (fiscal year, signs by kind).",
  instruction:
    'What is the available balance of each fund right now? Compute it from the fund ledger exactly as our fund accounting policy defines it. Reply with only a JSON object mapping each fund code to its available balance in dollars, e.g. {"AFIC": 1234.56}.',
  tools: ["list_funds", "list_fund_transactions"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("balances", answer, fundBalances(initial), 0.011)],
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["first-page-only", "Reads only the first page of each fund's ledger.", "first-page"],
    ["prior-year-included", "Counts FY2024 transactions too.", "no-fiscal-year"],
    [
      "releases-subtracted",
      "Subtracts every kind but transfers in, releases and credits included.",
      "all-subtract",
    ],
    ["no-retry", "Does not retry the ledger's transient 503s.", "no-retry"],
  ]),
});
