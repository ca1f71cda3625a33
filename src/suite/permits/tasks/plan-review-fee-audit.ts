import { definePermitsTask } from "./python.js";
import {
  allRows,
  checkAnswerAmounts,
  parseMarkdownTable,
  roundCents,
  requireFile,
} from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { FEE_SCHEDULE } from "../documents.js";
import { PERMIT_TYPES } from "../rules.js";
import type { PermitType } from "../rules.js";

const SINCE = "2025-01-01";

/** 2025 plan-review fees that differ from the schedule, with the amount the schedule sets. */
export function misbilledPlanReviews(state: StateView): Map<string, number> {
  const text = requireFile(state, FEE_SCHEDULE);
  const rates = new Map(parseMarkdownTable(text, "Plan review").map((row) => [row[0]!, Number(row[1])]));
  const bound = (pattern: RegExp): number => Number(pattern.exec(text)![1]!.replace(/,/g, ""));
  const [min, max] = [bound(/never less than \$([\d,.]+\d)/), bound(/never more than \$([\d,.]+\d)/)];
  const fees = allRows<{ permit_id: string; amount: number; permit_type: PermitType; valuation: number }>(
    state.db,
    `SELECT f.permit_id, f.amount, p.permit_type, p.valuation FROM fees f JOIN permits p ON p.permit_id = f.permit_id
      WHERE f.fee_code = 'PLR' AND f.assessed_on >= ?`,
    SINCE,
  );
  const wrong = new Map<string, number>();
  for (const fee of fees) {
    const rate = rates.get(PERMIT_TYPES[fee.permit_type].label)!;
    const due = roundCents(Math.min(max, Math.max(min, (fee.valuation * rate) / 100)));
    if (Math.abs(due - fee.amount) > 0.001) wrong.set(fee.permit_id, due);
  }
  if (wrong.size === 0) throw new Error("generation produced no misbilled plan review");
  return wrong;
}

function cells({
  clamp = "min(fee_max, max(fee_min, raw))",
  since = SINCE,
  rate = 'info["Type"]',
}): string[] {
  return [
    String.raw`
schedule = read_text("policies/fee-schedule.md")
rates = {m.group(1): float(m.group(2)) for m in re.finditer(r"^\| (\w+) \| ([\d.]+) \|", schedule, re.M)}
fee_min = usd(re.search(r"never less than (\$[\d,.]+\d)", schedule).group(1))
fee_max = usd(re.search(r"never more than (\$[\d,.]+\d)", schedule).group(1))
print(rates, fee_min, fee_max)
`,
    String.raw`
wrong = {}
for row in listing("/fees?code=PLR", "Fee ledger"):
    if iso(row["Assessed"]) < "${since}":
        continue
    info = fields(page(f"/permits/{row['Permit']}"))
    raw = usd(info["Valuation"]) * rates[${rate}] / 100
    fee = round(${clamp} + 1e-9, 2)
    if abs(fee - usd(row["Amount"])) > 0.001:
        wrong[row["Permit"]] = fee
print(json.dumps(wrong, sort_keys=True))
`,
  ];
}

export const planReviewFeeAuditTask = definePermitsTask({
  id: "permits.plan-review-fee-audit",
  summary:
    "Recompute every 2025 plan-review fee from the fee schedule (rate by permit type on valuation, min and max) and list the misbilled ones.",
  instruction:
    'An auditor thinks some plan-review fees were keyed wrong this year. Check every plan-review (PLR) fee assessed on or after January 1, 2025 against our fee schedule and the permit\'s declared valuation. Reply with a JSON object mapping each permit whose plan-review fee is wrong to the amount the schedule calls for, e.g. `{"BP-2025-00412": 812.5}`; leave out permits charged correctly.',
  tools: ["open_page"],
  verify: ({ initial, answer }) => [
    checkAnswerAmounts("answer-corrections", answer, misbilledPlanReviews(initial)),
  ],
  cells,
  nearMisses: {
    "ignores-min-max": [{ clamp: "raw" }, "Applies the rate without the bounds."],
    "all-years": [{ since: "2000-01-01" }, "Also audits fees assessed before 2025."],
    "building-rate-for-all": [{ rate: '"Building"' }, "Uses the building rate for every permit type."],
  },
});
