import {
  REFERENCE_DATE,
  checkAnswerTotal,
  checkStateDiff,
  defineTask,
  roundCents,
} from "../../../envs/index.js";
import { marketplaceDomain } from "../domain.js";
import { escalatedDecisions } from "./expectations.js";
import { MARKET_PY, NAIVE_GET_PY } from "./python.js";

function cells({
  delivered = 'latest.startswith("Delivered")',
  latest = "scans[0]",
  amount = "Order total",
  helpers = "",
}): string[] {
  return [
    MARKET_PY + helpers,
    String.raw`
refunded, closed = [], []
for row in listing("/disputes?status=escalated", "disputes"):
    url = f"/disputes/{row['Case']}"
    doc = get(url)
    if doc.fields["Reason"] != "Item not received":
        continue
    order = get(f"/orders/{doc.fields['Order']}")
    scans = get(f"/tracking/{order.fields['Tracking']}").rows("scan-history")
    latest = ${latest}["Scan"]
    if ${delivered}:
        submit(doc, url, f"{url}/actions", action="close_for_seller")
        closed.append(row["Case"])
    else:
        amount = usd(order.fields["${amount}"])
        submit(doc, url, f"{url}/actions", action="refund_full", amount=f"{amount:.2f}")
        refunded.append(amount)
print(f"Closed {len(closed)} for the seller; refunded {len(refunded)} cases totalling ${"$"}{sum(refunded):,.2f}")
`,
  ];
}

export const decideUndeliveredTask = defineTask({
  id: "marketplace.decide-undelivered",
  domain: marketplaceDomain,
  summary:
    "Decide the escalated item-not-received cases on the carrier's latest scan: close for the seller when delivered, else refund the order total.",
  instruction:
    "Work through the escalated item-not-received cases: decide each one on the carrier tracking as our dispute-resolution policy says, and take the case action in the back office. Reply with the total you refunded, e.g. `Closed 2 for the seller; refunded 3 cases totalling $142.85`.",
  tools: ["browser_navigate", "browser_submit_form"],
  verify: ({ initial, final, answer }) => {
    const decisions = escalatedDecisions(initial);
    const refunds = decisions.filter((item) => item.refund !== null);
    const status = (refund: number | null) => ({
      status: refund === null ? "closed" : "refunded",
      closed_on: REFERENCE_DATE,
    });
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "disputes",
          key: "dispute_id",
          changed: new Map(decisions.map((item) => [item.dispute_id, status(item.refund)])),
        },
        {
          table: "refunds",
          key: "refund_id",
          added: refunds.map((item) => ({
            order_id: item.order_id,
            dispute_id: item.dispute_id,
            amount: item.refund,
            status: "issued",
            issued_on: REFERENCE_DATE,
          })),
        },
        {
          table: "dispute_actions",
          key: "action_id",
          added: decisions.map((item) => ({
            dispute_id: item.dispute_id,
            action: item.refund === null ? "close_for_seller" : "refund_full",
            amount: item.refund,
          })),
        },
      ]),
      checkAnswerTotal(answer, roundCents(refunds.reduce((sum, item) => sum + item.refund!, 0))),
    ];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "any-delivery-scan",
      description:
        "Counts 'Out for delivery' and 'Delivery attempted' as delivered (any scan mentioning delivery).",
      cells: cells({ delivered: '"deliver" in latest.lower()' }),
    },
    {
      id: "oldest-scan-as-latest",
      description:
        "Reads the last row of the scan table as the latest scan, though the carrier lists newest first.",
      cells: cells({ latest: "scans[-1]" }),
    },
    {
      id: "item-price-only",
      description: "Refunds the item price without the shipping.",
      cells: cells({ amount: "Item price" }),
    },
    {
      id: "misses-browser-check",
      description: "Takes the CDN's browser-check page for the record page.",
      cells: cells({ helpers: NAIVE_GET_PY }),
    },
  ],
});
