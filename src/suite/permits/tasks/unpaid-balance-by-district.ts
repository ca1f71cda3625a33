import { allRows, defineTask, roundCents } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { checkAmounts } from "./expectations.js";
import { FIRST_PAGE_PY, NAIVE_LISTING_PY, PERMITS_PY } from "./python.js";

/** Balance due (unpaid fees less their waivers) summed per district over all permits. */
export function balancesByDistrict(state: StateView): Map<string, number> {
  const rows = allRows<{ district: string; balance: number }>(
    state.db,
    `SELECT p.district,
            (SELECT coalesce(sum(f.amount), 0) FROM fees f WHERE f.permit_id = p.permit_id AND f.paid_on IS NULL)
          - (SELECT coalesce(sum(w.amount), 0) FROM fee_waivers w JOIN fees f ON f.fee_id = w.fee_id
              WHERE w.permit_id = p.permit_id AND f.paid_on IS NULL) AS balance
       FROM permits p`,
  );
  const totals = new Map<string, number>();
  for (const { district, balance } of rows)
    totals.set(district, roundCents((totals.get(district) ?? 0) + roundCents(balance)));
  if ([...totals.values()].every((amount) => amount === 0)) throw new Error("generation produced no balance");
  return totals;
}

function cells(helpers: string, url: string): string[] {
  return [
    PERMITS_PY + helpers,
    String.raw`
totals = {}
for row in listing("${url}", "Permits"):
    totals[row["District"]] = round(totals.get(row["District"], 0) + usd(row["Balance due"]) + 1e-9, 2)
print(json.dumps(totals, sort_keys=True))
`,
  ];
}

export const unpaidBalanceByDistrictTask = defineTask({
  id: "permits.unpaid-balance-by-district",
  domain: permitsDomain,
  summary: "Sum the balance due of every permit (any status) per district from the paginated permit search.",
  instruction:
    'Finance wants the outstanding permit balances by district for the council packet. Add up the balance due of every permit on the portal, whatever its status, per district. Reply with a JSON object mapping each district name to its total in dollars, e.g. `{"Harbor": 1234.5, "Northgate": 880.0, ...}`, with every district that has permits.',
  tools: ["open_page"],
  verify: ({ initial, answer }) => [checkAmounts("answer-balances", answer, balancesByDistrict(initial))],
  oracle: cells("", "/permits"),
  nearMisses: [
    {
      id: "first-page-only",
      description: "Sums only the first page.",
      cells: cells(FIRST_PAGE_PY, "/permits"),
    },
    {
      id: "issued-only",
      description: "Sums only issued permits.",
      cells: cells("", "/permits?status=issued"),
    },
    {
      id: "no-retry-on-503",
      description: "Pages through without retrying a 503, so the run stops.",
      cells: cells(NAIVE_LISTING_PY, "/permits"),
    },
  ],
});
