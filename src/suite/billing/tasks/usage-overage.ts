import { CORRECT, defineTask, parseAnswerJson, variantNearMisses } from "../../../envs/index.js";
import { billingDomain } from "../domain.js";
import { PATHS } from "../rules.js";
import { compareAmounts, overageCharges, problemsCheck } from "./expectations.js";
import { BILLING_PY } from "./python.js";

interface Variant {
  volume?: boolean;
  throughJune1?: boolean;
  noRetry?: boolean;
}

function cells(variant: Variant): string[] {
  const fetch = variant.noRetry ? "fetch_all" : "fetch_all_retrying";
  return [
    BILLING_PY,
    `print(read_text("${PATHS.priceBook}"))
plans = {p["plan_code"]: p for p in tools.list_plans()["plans"]}
tiers = {code: tools.get_plan(plan_code=code)["tiers"] for code in plans}
subs = {s["subscription_id"]: s for s in fetch_all("list_subscriptions", "subscriptions")}
print(len(subs), "subscriptions")`,
    `records = ${fetch}("list_usage_records", "records", date_from="2025-05-01", date_to="${variant.throughJune1 ? "2025-06-01" : "2025-05-31"}")
calls = {}
for r in records:
    calls[r["subscription_id"]] = calls.get(r["subscription_id"], 0) + r["api_calls"]

def charge(overage, plan_tiers):
    total = 0.0
    for t in plan_tiers:
        upper = t["to_calls"] if t["to_calls"] is not None else float("inf")
        if ${variant.volume ? "True" : "False"}:
            if t["from_calls"] < overage <= upper:
                return round(overage / 1000 * t["price_per_1000"] + 1e-9, 2)
            continue
        if overage <= t["from_calls"]:
            break
        total += (min(overage, upper) - t["from_calls"]) / 1000 * t["price_per_1000"]
    return round(total + 1e-9, 2)

result = {}
for sid, n in sorted(calls.items()):
    sub = subs[sid]
    if sub["status"] == "cancelled":
        continue
    amount = charge(max(0, n - plans[sub["plan_code"]]["included_api_calls"]), tiers[sub["plan_code"]])
    if amount > 0:
        result[sid] = amount
print(json.dumps(result))`,
  ];
}

export const usageOverageTask = defineTask({
  id: "billing.usage-overage",
  domain: billingDomain,
  summary:
    "May 2025 API overage per subscription from daily usage records (paginated, flaky API) and graduated tiers.",
  instruction:
    "Finance needs the API usage overage to bill for May 2025 (usage dated May 1 through May 31). For every subscription that isn't cancelled, total its May API calls, take what exceeds its plan's included monthly allowance, and price that overage with the plan's tiers as the price book describes. Reply with only a JSON object mapping subscription id to the overage charge in USD rounded to cents, e.g. {\"SUB-00012\": 431.25}, listing only subscriptions with a charge above zero.",
  tools: ["list_plans", "get_plan", "list_subscriptions", "get_subscription", "list_usage_records"],
  verify: ({ initial, answer }) => {
    const expected = overageCharges(initial, "2025-05-01", "2025-05-31");
    if (expected.size === 0) throw new Error("generation produced no overage");
    const problems = compareAmounts(parseAnswerJson(answer), expected);
    return [problemsCheck("overage-charges", problems, `all ${expected.size} overage charges match`)];
  },
  oracle: cells({}),
  nearMisses: variantNearMisses(cells, CORRECT, {
    "volume-pricing": [
      { volume: true },
      "Prices the whole overage at the tier it reaches (volume, not graduated).",
    ],
    "includes-june-1": [{ throughJune1: true }, "Date range runs through June 1 (off by one day)."],
    "no-retry": [{ noRetry: true }, "Does not retry the metering API's 503 on a deep page."],
  }),
});
