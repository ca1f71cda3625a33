import { defineMarketplaceTask } from "./python.js";
import { REFERENCE_DATE, checkAnswerTotal, checkStateDiff, roundCents } from "../../../envs/index.js";
import { acceptedOffers } from "./expectations.js";
import { STALE_TOKEN_PY } from "./python.js";

const OPENINGS = String.raw`tuple(re.findall(r'"([^"]+)"', re.search(r"begins with (.*?)\)", read_text("policies/dispute-resolution.md")).group(1)))`;

function cells({ accepts = "last.startswith(OPENINGS)", offer = "offers[-1]" }): string[] {
  return [
    String.raw`
OPENINGS = ${OPENINGS}
settled = []
for row in listing("/disputes?status=seller_responded", "disputes"):
    url = f"/disputes/{row['Case']}"
    doc = get(url)
    thread = [(m["class"].split("from-")[-1], m["text"]) for m in doc.articles]
    if doc.fields["Reason"] != "Not as described" or not thread:
        continue
    offers = [text for author, text in thread if author == "seller" and "$" in text]
    author, last = thread[-1]
    if offers and author == "buyer" and ${accepts}:
        amount = re.findall(r"\$([\d,]+\.\d{2})", ${offer})[-1]
        submit(doc, url, f"{url}/actions", action="refund_partial", amount=amount)
        settled.append(usd(amount))
print(f"Settled {len(settled)} cases with partial refunds totalling ${"$"}{sum(settled):,.2f}")
`,
  ];
}

export const settlePartialOffersTask = defineMarketplaceTask({
  id: "marketplace.settle-partial-offers",
  summary:
    "Settle not-as-described cases whose buyer accepted the seller's latest partial-refund offer, for that offer's amount.",
  instruction:
    "Some sellers have offered partial refunds in not-as-described cases. Settle the ones the buyer has accepted, as the partial-refund section of the dispute-resolution policy says, through the case actions. Reply with the total of the partial refunds, e.g. `Settled 2 cases with partial refunds totalling $31.40`.",
  tools: ["browser_navigate", "browser_submit_form"],
  verify: ({ initial, final, answer }) => {
    const accepted = acceptedOffers(initial);
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "disputes",
          key: "dispute_id",
          changed: new Map(
            accepted.map((item) => [item.dispute_id, { status: "refunded", closed_on: REFERENCE_DATE }]),
          ),
        },
        {
          table: "refunds",
          key: "refund_id",
          added: accepted.map((item) => ({
            order_id: item.order_id,
            dispute_id: item.dispute_id,
            amount: item.amount,
            status: "issued",
            issued_on: REFERENCE_DATE,
          })),
        },
        {
          table: "dispute_actions",
          key: "action_id",
          added: accepted.map((item) => ({
            dispute_id: item.dispute_id,
            action: "refund_partial",
            amount: item.amount,
          })),
        },
      ]),
      checkAnswerTotal(answer, roundCents(accepted.reduce((sum, item) => sum + item.amount, 0))),
    ];
  },
  cells,
  nearMisses: {
    "accept-substring": [
      { accepts: '"accept" in last.lower()' },
      "Takes any buyer message containing 'accept' as acceptance, 'I do not accept' included.",
    ],
    "first-offer": [
      { offer: "offers[0]" },
      "Refunds the seller's first offer where the seller raised it later.",
    ],
    "stale-csrf-token": [
      { helpers: STALE_TOKEN_PY },
      "Reuses the first form's CSRF token for every post and never reads the 403 page that comes back.",
    ],
  },
});
