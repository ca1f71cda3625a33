import { addDays, allRows, type Flags } from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import { qualityTask, QUARTER as PERIOD, checkAnswerObject, checkNoProblems } from "./shared.js";

/** Pooled first-pass yield (%, one decimal) of the quarter's production lots by `line-shift`. */
export function expectedYields(db: VerifyContext["initial"]["db"]): Record<string, number> {
  const rows = allRows<{ grp: string; produced: number; rejected: number }>(
    db,
    `SELECT line || '-' || shift AS grp, SUM(quantity) AS produced, SUM(first_pass_rejects) AS rejected
       FROM production_lots WHERE lot_type = 'production' AND end_date BETWEEN ? AND ? GROUP BY grp ORDER BY grp`,
    PERIOD.start,
    PERIOD.end,
  );
  return Object.fromEntries(
    rows.map((row) => [row.grp, Math.round((1000 * (row.produced - row.rejected)) / row.produced) / 10]),
  );
}

/** Plants a lot that starts the day before the quarter and ends on its first day, and a rework lot with many rejects. */
function prepare({ db, random }: GenerateContext): void {
  const inMonth = random.shuffle(
    allRows<{ lot_id: string }>(
      db,
      "SELECT lot_id FROM production_lots WHERE end_date BETWEEN ? AND ? AND lot_type = 'production' ORDER BY lot_id",
      PERIOD.start,
      PERIOD.end,
    ),
  );
  const dates = db.prepare("UPDATE production_lots SET start_date = ?, end_date = ? WHERE lot_id = ?");
  const [straddle, rework] = inMonth;
  if (straddle) dates.run(addDays(PERIOD.start, -1), PERIOD.start, straddle.lot_id);
  if (rework)
    db.prepare(
      "UPDATE production_lots SET lot_type = 'rework', quantity = 60, first_pass_rejects = 14 WHERE lot_id = ?",
    ).run(rework.lot_id);
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedYields(initial.db);
  return checkAnswerObject(answer, `{"L1-A": 97.3, ...}`, (given) => {
    const problems: string[] = [];
    for (const [group, value] of Object.entries(expected))
      if (typeof given[group] !== "number" || Math.abs(given[group] - value) > 0.051)
        problems.push(`${group}: expected ${value}, got ${JSON.stringify(given[group])}`);
    for (const group of Object.keys(given))
      if (!(group in expected)) problems.push(`${group} had no production lot ending in ${PERIOD.label}`);
    return [checkNoProblems("yields", problems.slice(0, 8), `${Object.keys(expected).length} groups right`)];
  });
}

type Variant = Flags<"includeRework" | "byStartDate" | "meanOfLots" | "noRetry">;

function cells(variant: Variant): string[] {
  const dateFilter = variant.byStartDate ? "" : `, end_from="${PERIOD.start}", end_to="${PERIOD.end}"`;
  return [
    String.raw`
lots = []
for line in ["L1", "L2", "L3", "L4"]:
    lots += all_pages("list_lots", "lots", line=line${dateFilter})
lots = [l for l in lots if ${variant.byStartDate ? `l["start_date"] >= "${PERIOD.start}"` : "True"} and ${variant.includeRework ? "True" : 'l["lot_type"] == "production"'}]
print(len(lots), "lots in ${PERIOD.label}")
`,
    String.raw`
groups = {}
for lot in lots:
    detail = ${variant.noRetry ? 'tools.get_lot(lot_id=lot["lot_id"])' : 'call("get_lot", lot_id=lot["lot_id"])'}["lot"]
    groups.setdefault("%s-%s" % (lot["line"], lot["shift"]), []).append((detail["quantity"], detail["first_pass_rejects"]))
result = {}
for key, rows in sorted(groups.items()):
    ${
      variant.meanOfLots
        ? "result[key] = round(sum(100 * (q - r) / q for q, r in rows) / len(rows), 1)"
        : "produced = sum(q for q, r in rows)\n    result[key] = round(100 * (produced - sum(r for q, r in rows)) / produced, 1)"
    }
print(json.dumps(result))
`,
  ];
}

export const firstPassYieldTask = qualityTask({
  id: "quality.first-pass-yield",
  summary:
    "First-pass yield by line and shift for the quarter to date, per the quality manual's definition (pooled, by end date, no rework lots).",
  instruction: `I need this quarter's first-pass yield so far (${PERIOD.label}, ${PERIOD.start} to today, ${PERIOD.end}) for every line and shift combination, computed as the quality manual defines it (section 8.9). Reply with only a JSON object mapping "<line>-<shift>" (for example "L2-B") to the FPY percentage rounded to one decimal, with one entry for every combination that had lots counted.`,
  tools: ["list_lots", "get_lot", "list_products"],
  prepare,
  verify,
  cells,
  nearMisses: {
    "includes-rework": [{ includeRework: true }, "Counts rework lots as first passes."],
    "by-start-date": [{ byStartDate: true }, "Assigns lots to the period by start date."],
    "mean-of-lot-yields": [{ meanOfLots: true }, "Averages per-lot yields instead of pooling pieces."],
    "no-retry": [{ noRetry: true }, "Does not retry get_lot when the replica answers 503."],
  },
});
