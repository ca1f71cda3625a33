import {
  CORRECT,
  REFERENCE_DATE,
  check,
  defineTask,
  parseAnswerJson,
  variantNearMisses,
} from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import { qualityDomain } from "../domain.js";
import { SAMPLE_PLAN, requiredSamples } from "../rules.js";
import { PY_PRELUDE } from "./python.js";

const MONTH_START = `${REFERENCE_DATE.slice(0, 8)}01`;

/** Lots that ended this month with a characteristic measured on fewer valid samples than the plan requires. */
export function nonCompliantLots(db: VerifyContext["initial"]["db"]): string[] {
  const lots = db
    .prepare(
      "SELECT lot_id, part_number, quantity FROM production_lots WHERE end_date BETWEEN ? AND ? ORDER BY lot_id",
    )
    .all(MONTH_START, REFERENCE_DATE) as Array<{ lot_id: string; part_number: string; quantity: number }>;
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
  const lots = random.shuffle(
    db
      .prepare("SELECT lot_id, quantity FROM production_lots WHERE end_date BETWEEN ? AND ? ORDER BY lot_id")
      .all(MONTH_START, REFERENCE_DATE) as Array<{ lot_id: string; quantity: number }>,
  );
  const lastOfChar = db.prepare(
    "SELECT measurement_id FROM measurements WHERE lot_id = ? AND char_id = (SELECT char_id FROM measurements WHERE lot_id = ? ORDER BY measurement_id DESC LIMIT 1) ORDER BY sample_no DESC LIMIT 1",
  );
  const remove = db.prepare("DELETE FROM measurements WHERE measurement_id = ?");
  const invalidate = db.prepare(
    "UPDATE measurements SET valid = 0, invalid_reason = 'Sample dropped before measurement was confirmed' WHERE measurement_id = ?",
  );
  const resize = db.prepare("UPDATE production_lots SET quantity = ? WHERE lot_id = ?");
  const rounds = Math.max(1, factors.rows / 2);
  for (let round = 0; round < rounds * 3 && lots.length > 0; round += 1) {
    const lot = lots.shift()!;
    const kind = round % 3;
    if (kind === 2) {
      const range = SAMPLE_PLAN.find((row) => lot.quantity >= row.min && lot.quantity <= row.max)!;
      resize.run(range.max, lot.lot_id);
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
  const parsed = parseAnswerJson(answer) as { non_compliant?: unknown } | null;
  const given = Array.isArray(parsed?.non_compliant) ? parsed.non_compliant.map(String) : null;
  if (!given)
    return [check("answer-format", false, `expected {"non_compliant": [...]}, got: ${answer.slice(0, 200)}`)];
  const missing = expected.filter((id) => !given.includes(id));
  const extra = given.filter((id) => !expected.includes(id));
  return [
    check(
      "non-compliant-lots",
      missing.length === 0 && extra.length === 0 && given.length === new Set(given).size,
      `expected ${expected.length}; missing ${missing.join(", ") || "none"}; compliant: ${extra.join(", ") || "none"}`,
    ),
  ];
}

interface Variant {
  exclusiveUpper?: boolean;
  countInvalid?: boolean;
  samplesAcrossCharacteristics?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    PY_PRELUDE,
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

export const sampleSizeComplianceTask = defineTask({
  id: "quality.sample-size-compliance",
  domain: qualityDomain,
  summary:
    "Find this month's lots whose characteristics were measured on fewer valid samples than the sampling plan requires for the lot size.",
  instruction: `An auditor asked whether our inspection followed sampling plan QP-07 (quality/sampling-plan.md). For every lot that ended between ${MONTH_START} and ${REFERENCE_DATE}, check each characteristic of its part's inspection plan against the number of samples the plan requires for the lot quantity, counting samples the way the plan says. Reply with only a JSON object {"non_compliant": ["LOT-00001", ...]} listing each lot that falls short.`,
  tools: ["list_lots", "get_lot", "get_product", "list_products", "list_measurements"],
  prepare,
  verify,
  oracle: cells({}),
  nearMisses: variantNearMisses(cells, CORRECT, {
    "exclusive-upper-bound": [
      { exclusiveUpper: true },
      "Reads the lot-size ranges as excluding their upper end.",
    ],
    "counts-invalid": [{ countInvalid: true }, "Counts invalidated measurements as samples."],
    "samples-across-characteristics": [
      { samplesAcrossCharacteristics: true },
      "Counts distinct sample numbers over the whole lot instead of per characteristic.",
    ],
  }),
});
