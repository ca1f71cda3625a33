import { REFERENCE_DATE, allRows, type Flags } from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import { requiredSamples, samplePlanRow } from "../rules.js";
import { qualityTask, checkAnswerIdList } from "./shared.js";

const MONTH_START = `${REFERENCE_DATE.slice(0, 8)}01`;

/** The lots that ended this month, by id. */
function monthLots(db: VerifyContext["initial"]["db"]) {
  return allRows<{ lot_id: string; part_number: string; quantity: number }>(
    db,
    "SELECT lot_id, part_number, quantity FROM production_lots WHERE end_date BETWEEN ? AND ? ORDER BY lot_id",
    MONTH_START,
    REFERENCE_DATE,
  );
}

/** Lots that ended this month with a characteristic measured on fewer valid samples than the plan requires. */
export function nonCompliantLots(db: VerifyContext["initial"]["db"]): string[] {
  const lots = monthLots(db);
  const chars = db.prepare("SELECT char_id FROM characteristics WHERE part_number = ? ORDER BY char_id");
  const samples = db.prepare(
    "SELECT COUNT(DISTINCT sample_no) AS n FROM measurements WHERE lot_id = ? AND char_id = ? AND valid = 1",
  );
  return lots
    .filter((lot) =>
      (chars.all(lot.part_number) as Array<{ char_id: string }>).some(
        (c) => (samples.get(lot.lot_id, c.char_id) as { n: number }).n < requiredSamples(lot.quantity),
      ),
    )
    .map((lot) => lot.lot_id);
}

/** Plants a missing sample on one characteristic, an invalidated sample, and lots sized exactly at a range's upper end. */
function prepare({ db, random, factors }: GenerateContext): void {
  const lots = random.shuffle(monthLots(db));
  const lastOfChar = db.prepare(
    "SELECT measurement_id FROM measurements WHERE lot_id = ? AND char_id = (SELECT char_id FROM measurements WHERE lot_id = ? ORDER BY measurement_id DESC LIMIT 1) ORDER BY sample_no DESC LIMIT 1",
  );
  const remove = db.prepare("DELETE FROM measurements WHERE measurement_id = ?");
  const invalidate = db.prepare(
    "UPDATE measurements SET valid = 0, invalid_reason = 'Sample dropped before measurement was confirmed' WHERE measurement_id = ?",
  );
  const resize = db.prepare("UPDATE production_lots SET quantity = ? WHERE lot_id = ?");
  for (let round = 0; round < Math.max(1, factors.rows / 2) * 3 && lots.length > 0; round += 1) {
    const lot = lots.shift()!;
    const kind = round % 3;
    if (kind === 2) {
      resize.run(samplePlanRow(lot.quantity).max, lot.lot_id);
      continue;
    }
    const row = lastOfChar.get(lot.lot_id, lot.lot_id) as { measurement_id: number } | undefined;
    if (!row) continue;
    if (kind === 0) remove.run(row.measurement_id);
    else invalidate.run(row.measurement_id);
  }
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = nonCompliantLots(initial.db);
  if (expected.length === 0) throw new Error("generation planted no non-compliant lot");
  return checkAnswerIdList(answer, "non_compliant", "non-compliant-lots", expected, "compliant");
}

type Variant = Flags<"exclusiveUpper" | "countInvalid" | "samplesAcrossCharacteristics">;

function cells(variant: Variant): string[] {
  return [
    String.raw`
plan_text = read_text("quality/sampling-plan.md")
plan = [(int(a), int(b), int(n)) for a, b, n in re.findall(r"^\| (\d+) to (\d+) \| (\d+) \|", plan_text, re.M)]
def required(quantity):
    for low, high, n in plan:
        if low <= quantity ${variant.exclusiveUpper ? "<" : "<="} high:
            return n
    return plan[-1][2]
lots = all_pages("list_lots", "lots", end_from="${MONTH_START}", end_to="${REFERENCE_DATE}")
plans = {}
for part in sorted({lot["part_number"] for lot in lots}):
    plans[part] = [c["char_id"] for c in call("get_product", part_number=part)["characteristics"]]
print(plan, len(lots), "lots")
`,
    String.raw`
non_compliant = []
for lot in lots:
    need = required(lot["quantity"])
    samples = {}
    for m in all_pages("list_measurements", "measurements", lot_id=lot["lot_id"]):
        if m["valid"] or ${variant.countInvalid ? "True" : "False"}:
            samples.setdefault(${variant.samplesAcrossCharacteristics ? '"all"' : 'm["char_id"]'}, set()).add(m["sample_no"])
    keys = ${variant.samplesAcrossCharacteristics ? '["all"]' : 'plans[lot["part_number"]]'}
    if any(len(samples.get(k, ())) < need for k in keys):
        non_compliant.append(lot["lot_id"])
print(json.dumps({"non_compliant": sorted(non_compliant)}))
`,
  ];
}

export const sampleSizeComplianceTask = qualityTask({
  id: "quality.sample-size-compliance",
  summary:
    "Find this month's lots whose characteristics were measured on fewer valid samples than the sampling plan requires for the lot size.",
  instruction: `An auditor asked whether our inspection followed sampling plan QP-07 (quality/sampling-plan.md). For every lot that ended between ${MONTH_START} and ${REFERENCE_DATE}, check each characteristic of its part's inspection plan against the number of samples the plan requires for the lot quantity, counting samples the way the plan says. Reply with only a JSON object {"non_compliant": ["LOT-00001", ...]} listing each lot that falls short.`,
  tools: ["list_lots", "get_lot", "get_product", "list_products", "list_measurements"],
  prepare,
  verify,
  cells,
  nearMisses: {
    "exclusive-upper-bound": [
      { exclusiveUpper: true },
      "Reads the lot-size ranges as excluding their upper end.",
    ],
    "counts-invalid": [{ countInvalid: true }, "Counts invalidated measurements as samples."],
    "samples-across-characteristics": [
      { samplesAcrossCharacteristics: true },
      "Counts distinct sample numbers over the whole lot instead of per characteristic.",
    ],
  },
});
