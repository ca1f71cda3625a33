import { allRows, checkAnswerAmounts, defineTask, roundCents } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { FIRST_PAGE_PY, NAIVE_LISTING_PY, PERMITS_PY } from "./python.js";

const MONTH = "2025-05";

/** Fees paid in May 2025, summed per fee code. */
export function collectedByCode(state: StateView): Map<string, number> {
  const rows = allRows<{ fee_code: string; total: number }>(
    state.db,
    "SELECT fee_code, sum(amount) AS total FROM fees WHERE substr(paid_on, 1, 7) = ? GROUP BY fee_code",
    MONTH,
  );
  if (rows.length === 0) throw new Error("generation produced no payment in May");
  return new Map(rows.map((row) => [row.fee_code, roundCents(row.total)]));
}

function cells(helpers: string, column: "Paid" | "Assessed"): string[] {
  return [
    PERMITS_PY + helpers,
    String.raw`
totals = {}
for row in listing("/fees?status=paid", "Fee ledger"):
    if iso(row["${column}"]).startswith("${MONTH}"):
        totals[row["Code"]] = round(totals.get(row["Code"], 0) + usd(row["Amount"]) + 1e-9, 2)
print(json.dumps(totals, sort_keys=True))
`,
  ];
}

export const feesCollectedInMayTask = defineTask({
  id: "permits.fees-collected-in-may",
  domain: permitsDomain,
  summary:
    "Total the fee payments received in May 2025 per fee code from the paginated fee ledger (payment date, not assessment date).",
  instruction:
    'For the monthly revenue report, how much did we collect in May 2025, by fee code? Count every fee whose payment date falls in May 2025. Reply with a JSON object mapping each fee code that had payments to its total in dollars, e.g. `{"PLR": 4210.5, "REI": 285.0}`.',
  tools: ["open_page"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer-collected", answer, collectedByCode(initial))],
  oracle: cells("", "Paid"),
  nearMisses: [
    { id: "assessed-date", description: "Uses the date the fee was assessed.", cells: cells("", "Assessed") },
    {
      id: "first-page-only",
      description: "Reads only the ledger's first page.",
      cells: cells(FIRST_PAGE_PY, "Paid"),
    },
    {
      id: "no-retry-on-503",
      description: "Pages through the ledger without retrying a 503.",
      cells: cells(NAIVE_LISTING_PY, "Paid"),
    },
  ],
});
