import { defineBillingTask } from "./python.js";
import { parseAnswerJson, roundCents, type StateView } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { contractDiscount, readContracts } from "./contracts.js";
import { answerAmount, problemsCheck } from "./expectations.js";

const ON = "2025-07-01";

function memoTerms(state: StateView): { prices: Map<string, number>; startedBefore: string } {
  const memo = state.readFile(PATHS.pricingMemo) ?? "";
  const prices = new Map(
    [...memo.matchAll(/^\| (\w+) \| (\d+\.\d{2}) \|$/gm)].map((m) => [m[1]!, Number(m[2])]),
  );
  const before = /Subscriptions that started before (\w+ \d+, \d{4})/.exec(memo);
  if (!before || prices.size === 0) throw new Error("the pricing memo lost its terms");
  const startedBefore = new Date(`${before[1]} UTC`).toISOString().slice(0, 10);
  return { prices, startedBefore };
}

export function expectedMrr(state: StateView): Record<string, Record<string, number>> {
  const { prices, startedBefore } = memoTerms(state);
  const contracts = readContracts(state);
  const rows = state.db
    .prepare(
      `SELECT s.subscription_id, s.plan_code, s.seats, s.start_date, s.renewal_date, c.region, p.seat_price
         FROM subscriptions s JOIN customers c ON c.customer_id = s.customer_id JOIN plans p ON p.plan_code = s.plan_code
        WHERE s.status IN ('active', 'past_due') ORDER BY s.subscription_id`,
    )
    .all() as Array<{
    subscription_id: string;
    plan_code: string;
    seats: number;
    start_date: string;
    renewal_date: string;
    region: string;
    seat_price: number;
  }>;
  const totals: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const grandfathered = row.start_date < startedBefore && row.renewal_date > ON;
    const price = prices.has(row.plan_code) && !grandfathered ? prices.get(row.plan_code)! : row.seat_price;
    const seatCharges = roundCents(row.seats * price);
    const mrr = seatCharges - contractDiscount(seatCharges, contracts.get(row.subscription_id));
    const region = (totals[row.region] ??= {});
    region[row.plan_code] = roundCents((region[row.plan_code] ?? 0) + mrr);
  }
  return totals;
}

interface Variant {
  noGrandfathering?: boolean;
  uncapped?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    `memo = read_text("${PATHS.pricingMemo}")
print(memo)
new_prices = {m.group(1): float(m.group(2)) for m in re.finditer(r"^\\| (\\w+) \\| (\\d+\\.\\d{2}) \\|$", memo, re.M)}
contracts = {}
for path in workspace_files("${PATHS.contractsDir}"):
    terms = json.loads(read_text(path))
    contracts[terms["subscription_id"]] = terms
plans = {p["plan_code"]: p for p in tools.list_plans()["plans"]}
region_of = {}
for region in ("NA", "EU", "APAC"):
    for c in fetch_all("list_customers", "customers", region=region):
        region_of[c["customer_id"]] = region
print(new_prices, len(contracts), "contracts")`,
    `totals = {}
for status in ("active", "past_due"):
    for s in fetch_all("list_subscriptions", "subscriptions", status=status):
        grandfathered = ${variant.noGrandfathering ? "False" : `s["start_date"] < "2025-04-01" and s["renewal_date"] > "2025-07-01"`}
        price = new_prices[s["plan_code"]] if s["plan_code"] in new_prices and not grandfathered else plans[s["plan_code"]]["seat_price"]
        seat_charges = round(s["seats"] * price + 1e-9, 2)
        discount = 0.0
        terms = contracts.get(s["subscription_id"])
        if terms:
            discount = round(seat_charges * terms["discount_pct"] / 100 + 1e-9, 2)
            ${variant.uncapped ? "" : 'discount = min(discount, terms["discount_cap_per_invoice"])'}
        region = totals.setdefault(region_of[s["customer_id"]], {})
        region[s["plan_code"]] = round(region.get(s["plan_code"], 0) + seat_charges - discount + 1e-9, 2)
print(json.dumps(totals))`,
  ];
}

export const mrrAfterPriceChangeTask = defineBillingTask({
  id: "billing.mrr-after-price-change",
  summary:
    "MRR by region and plan on July 1 after the seat price change: grandfathering until renewal, contract discounts with caps.",
  instruction:
    'For the board deck I need our monthly recurring revenue as it will stand on July 1, 2025, after the seat price change in the pricing memo takes effect. Count every subscription that is active or past due, at seats x the seat price it pays on that day (respect the memo\'s grandfathering rule), minus any negotiated contract discount in our contract excerpts (percentage of seat charges, limited to the contract\'s cap per invoice). Usage overage is not recurring revenue. Reply with only a JSON object keyed by customer region, each mapping plan code to MRR in USD rounded to cents, e.g. {"NA": {"TEAM": 1234.5, ...}, ...}; leave out plans with no subscriptions in a region.',
  tools: [
    "list_plans",
    "get_plan",
    "list_subscriptions",
    "get_subscription",
    "list_customers",
    "get_customer",
  ],
  verify: ({ initial, answer }) => {
    const expected = expectedMrr(initial);
    const given = parseAnswerJson(answer) as Record<string, Record<string, unknown>> | null;
    const problems: string[] = [];
    if (!given || typeof given !== "object") problems.push("the answer is not a JSON object");
    else {
      for (const [region, plans] of Object.entries(expected))
        for (const [plan, value] of Object.entries(plans)) {
          const actual = answerAmount(given[region]?.[plan]);
          if (!(Math.abs(actual - value) <= 0.011))
            problems.push(
              `${region}/${plan}: ${String(given[region]?.[plan])}, expected ${value.toFixed(2)}`,
            );
        }
      for (const [region, plans] of Object.entries(given))
        for (const plan of Object.keys(plans ?? {}))
          if (expected[region]?.[plan] === undefined) problems.push(`unexpected ${region}/${plan}`);
    }
    return [problemsCheck("mrr", problems, "MRR matches in every region and plan")];
  },
  cells,
  nearMisses: {
    "no-grandfathering": [
      { noGrandfathering: true },
      "Applies the new prices to every Team and Business subscription.",
    ],
    "uncapped-discounts": [{ uncapped: true }, "Applies contract discount percentages without their caps."],
  },
});
