import { defineMarketplaceTask } from "./python.js";
import { checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import { HOLD_CODE } from "../rules.js";
import { DEFECT_MISSES, DEFECT_PY, MINIMUMS, rates, windows } from "./defect-rates.js";
import { TODAY_TEXT, sellersOverLimit } from "./expectations.js";
import { STALE_TOKEN_PY } from "./python.js";

function cells({ window = windows.complete, rate = rates.pooled }): string[] {
  return [
    DEFECT_PY +
      window +
      rate +
      MINIMUMS.policy +
      String.raw`
code = re.search(r"reason code ([A-Z-]+[A-Z])", policy).group(1)
held = []
for seller, (rate, doc) in sorted(over_limit().items()):
    action = f"/sellers/{seller}/hold"
    if action in doc.forms:
        submit(doc, f"/sellers/{seller}", action, reason_code=code)
        held.append(seller)
print(f"Placed {len(held)} sellers on hold: {', '.join(held)}")
`,
  ];
}

export const holdSellersTask = defineMarketplaceTask({
  id: "marketplace.hold-sellers",
  summary: "Place the active sellers over the order-defect-rate limit on hold with the policy's reason code.",
  instruction: `${TODAY_TEXT} Apply this month's performance holds: every seller over the order defect rate limit in our seller performance standards gets the hold the standards describe, in the back office. Reply with how many sellers you placed on hold, e.g. \`Placed 3 sellers on hold\`.`,
  tools: ["browser_navigate", "browser_submit_form"],
  verify: ({ initial, final, answer }) => {
    const active = [...sellersOverLimit(initial)]
      .filter(([, seller]) => seller.status === "active")
      .map(([id]) => id);
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "sellers",
          key: "seller_id",
          changed: new Map(active.map((id) => [id, { status: "on_hold", hold_reason: HOLD_CODE }])),
        },
      ]),
      checkAnswerCount(answer, active.length),
    ];
  },
  cells,
  nearMisses: {
    ...DEFECT_MISSES,
    "stale-csrf-token": [
      { helpers: STALE_TOKEN_PY },
      "Reuses the first form's CSRF token for every post and never reads the 403 page that comes back.",
    ],
  },
});
