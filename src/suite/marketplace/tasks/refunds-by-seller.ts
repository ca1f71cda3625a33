import { defineMarketplaceTask } from "./python.js";
import { checkAnswerAmounts, previousMonth, REFERENCE_DATE } from "../../../envs/index.js";
import { TODAY_TEXT, refundsBySeller } from "./expectations.js";
import { NAIVE_LISTING_PY } from "./python.js";

function cells({ counted = 'row["Status"] == "Issued"' }): string[] {
  return [
    String.raw`
month = (TODAY.replace(day=1) - timedelta(days=1)).strftime("%Y-%m")
totals, sellers = {}, {}
for row in listing(f"/refunds?month={month}", "refunds"):
    if not (${counted}):
        continue
    order = row["Order"]
    if order not in sellers:
        sellers[order] = get(f"/orders/{order}").fields["Seller"]
    totals[sellers[order]] = totals.get(sellers[order], 0) + usd(row["Amount"])
print(json.dumps({s: cents(t) for s, t in sorted(totals.items())}))
`,
  ];
}

export const refundsBySellerTask = defineMarketplaceTask({
  id: "marketplace.refunds-by-seller",
  summary: "Total last month's issued refunds by the seller of each order (reversed refunds left out).",
  instruction: `${TODAY_TEXT} Finance needs last month's refunds broken down by seller, counted the way the refund-ledger note says. Reply with a JSON object from seller id to the dollar total, e.g. \`{"SL-01007": 84.48, "SL-01014": 19.95}\`.`,
  tools: ["browser_navigate"],
  verify: ({ initial, answer }) => [
    checkAnswerAmounts("answer-totals", answer, refundsBySeller(initial, previousMonth(REFERENCE_DATE).key)),
  ],
  cells,
  nearMisses: {
    "counts-reversed": [{ counted: "True" }, "Counts reversed refunds too."],
    "no-retry-on-503": [{ helpers: NAIVE_LISTING_PY }, "Does not open a listing page again after a 503."],
  },
});
