import { defineMarketplaceTask } from "./python.js";
import { checkAnswerAmounts } from "../../../envs/index.js";
import { TODAY_TEXT, sellersOverLimit } from "./expectations.js";

/** Reads the performance policy and each seller's page; `over` holds the sellers over the limit and their pooled rate. */
export const DEFECT_PY = String.raw`
policy = read_text("policies/seller-performance.md")
limit = float(re.search(r"The limit is ([\d.]+)%", policy).group(1))
minimum = int(re.search(r"at least (\d+) orders", policy).group(1))
def over_limit():
    over = {}
    for row in listing("/sellers", "sellers"):
        doc = get(f"/sellers/{row['Seller']}")
        months = WINDOW(doc.rows("performance"))
        orders = sum(int(m["Orders"]) for m in months)
        defects = sum(int(m["Defects"]) for m in months)
        rate = RATE(months, orders, defects)
        if orders >= MINIMUM and rate > limit:
            over[row["Seller"]] = (rate, doc)
    return over
`;

export const windows = {
  complete: 'WINDOW = lambda rows: [m for m in rows if "to date" not in m["Month"]][:3]\n',
  latest: "WINDOW = lambda rows: rows[:3]\n",
};
export const rates = {
  pooled: "RATE = lambda months, orders, defects: 100 * defects / orders if orders else 0\n",
  averaged:
    'RATE = lambda months, orders, defects: sum(float(m["Defect rate"].rstrip("%")) for m in months) / len(months)\n',
};
export const MINIMUMS = { policy: "MINIMUM = minimum\n", none: "MINIMUM = 1\n" };

function cells({ window = windows.complete, rate = rates.pooled, minimum = MINIMUMS.policy }): string[] {
  return [
    DEFECT_PY +
      window +
      rate +
      minimum +
      "\nprint(json.dumps({s: round(r, 2) for s, (r, _) in sorted(over_limit().items())}))\n",
  ];
}

/** The two misreadings of the pooled defect rate that both defect tasks plant. */
export const DEFECT_MISSES = {
  "counts-month-to-date": [
    { window: windows.latest },
    "Takes the three latest rows, the month in progress among them.",
  ],
  "averages-monthly-rates": [
    { rate: rates.averaged },
    "Averages the monthly rates instead of pooling defects over orders.",
  ],
} as const;

export const defectRatesTask = defineMarketplaceTask({
  id: "marketplace.defect-rates",
  summary:
    "Report every seller over the order-defect-rate limit (pooled over the last three complete months, minimum volume) with their rate.",
  instruction: `${TODAY_TEXT} Quality wants the list of sellers who are over the order defect rate limit under our seller performance standards, whether or not they are already on hold. Reply with a JSON object from seller id to their defect rate in percent, rounded to two decimals, e.g. \`{"SL-01007": 3.85}\`.`,
  tools: ["browser_navigate"],
  verify: ({ initial, answer }) => {
    const expected = new Map([...sellersOverLimit(initial)].map(([id, { rate }]) => [id, rate]));
    return [checkAnswerAmounts("answer-rates", answer, expected)];
  },
  cells,
  nearMisses: {
    ...DEFECT_MISSES,
    "ignores-minimum-orders": [{ minimum: MINIMUMS.none }, "Leaves out the minimum order count."],
  },
});
