import { REFERENCE_DATE, addDays, allRows, getRow, type Flags } from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import { DEFECT_CODES, ncrId, supplierRating } from "../rules.js";
import { qualityTask, QUARTER, checkAnswerObject, checkNoProblems } from "./shared.js";

const CHARGED = DEFECT_CODES.filter((code) => code.supplier).map((code) => code.code);

/** The deviation memos as the workspace states them: material lot, defect code covered, decision. */
export function readMemos(
  state: Pick<GenerateContext, "readFile">,
): Array<{ materialLot: string; code: string; approved: boolean }> {
  const memos = [];
  for (let n = 1; ; n += 1) {
    const text = state.readFile(`suppliers/deviation-${String(n).padStart(2, "0")}.md`);
    if (text === null) return memos;
    const materialLot = /Material lot: (ML-\d{4})/.exec(text)![1]!;
    const approved = /Decision: APPROVED/.test(text);
    const code = /defect code (\w+) on lots/.exec(text)?.[1] ?? (/hardness/.test(text) ? "HRD" : "MAT");
    memos.push({ materialLot, code, approved });
  }
}

/** Charged NCR counts and ratings for every supplier over the quarter to date. */
export function expectedScorecard(
  state: VerifyContext["initial"],
): Record<string, { ncrs: number; rating: string }> {
  const covered = new Set(
    readMemos(state)
      .filter((memo) => memo.approved)
      .map((memo) => `${memo.materialLot}:${memo.code}`),
  );
  const suppliers = allRows<{ supplier_id: string }>(
    state.db,
    "SELECT supplier_id FROM suppliers ORDER BY supplier_id",
  );
  const rows = allRows<{ supplier_id: string; material_lot_id: string; defect_code: string }>(
    state.db,
    `SELECT m.supplier_id, m.material_lot_id, n.defect_code FROM ncrs n JOIN production_lots l USING (lot_id)
       JOIN material_lots m ON m.material_lot_id = l.material_lot_id
      WHERE n.opened_on BETWEEN ? AND ? ORDER BY n.ncr_id`,
    QUARTER.start,
    REFERENCE_DATE,
  );
  const counts = new Map(suppliers.map((row) => [row.supplier_id, 0]));
  for (const row of rows)
    if (CHARGED.includes(row.defect_code) && !covered.has(`${row.material_lot_id}:${row.defect_code}`))
      counts.set(row.supplier_id, (counts.get(row.supplier_id) ?? 0) + 1);
  return Object.fromEntries(
    [...counts].map(([id, count]) => [id, { ncrs: count, rating: supplierRating(count) }]),
  );
}

/**
 * Plants NCRs a memo covers (approved) and does not cover (rejected, or another defect code), and a charged
 * NCR opened the day before the quarter.
 */
function prepare(context: GenerateContext): void {
  const { db, random } = context;
  const insert = db.prepare(
    "INSERT INTO ncrs VALUES (?, ?, ?, 'major', ?, NULL, NULL, ?, ?, 'return_to_supplier', 'dispositioned', NULL)",
  );
  const lotsOf = db.prepare(
    "SELECT lot_id, end_date FROM production_lots WHERE material_lot_id = ? AND end_date BETWEEN ? AND ? ORDER BY lot_id",
  );
  const add = (lot: { lot_id: string; end_date: string }, code: string, opened: string): void => {
    insert.run(
      ncrId.next(db, "ncrs"),
      lot.lot_id,
      opened,
      code,
      random.int(2, 30),
      code === "HRD" ? "Hardness 3 HRC below specification" : "Inclusions found at parting line",
    );
  };
  for (const memo of readMemos(context)) {
    const lots = lotsOf.all(memo.materialLot, QUARTER.start, addDays(REFERENCE_DATE, -2)) as Array<{
      lot_id: string;
      end_date: string;
    }>;
    if (lots.length === 0) continue;
    const lot = random.pick(lots);
    add(lot, memo.code, addDays(lot.end_date, 1));
    if (memo.approved) add(lot, memo.code === "HRD" ? "MAT" : "HRD", addDays(lot.end_date, 2));
  }
  const early = getRow<{ lot_id: string; end_date: string }>(
    db,
    "SELECT lot_id, end_date FROM production_lots WHERE end_date < ? ORDER BY end_date DESC, lot_id LIMIT 1",
    addDays(QUARTER.start, -1),
  );
  if (early) add(early, "MAT", addDays(QUARTER.start, -1));
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedScorecard(initial);
  return checkAnswerObject(answer, `{"SUP-001": {"ncrs": 0, "rating": "A"}, ...}`, (given) => {
    const problems: string[] = [];
    for (const [supplier, row] of Object.entries(expected)) {
      const entry = given[supplier] as { ncrs?: unknown; rating?: unknown } | undefined;
      if (!entry || Number(entry.ncrs) !== row.ncrs || entry.rating !== row.rating)
        problems.push(`${supplier}: expected ${row.ncrs} (${row.rating}), got ${JSON.stringify(entry)}`);
    }
    for (const supplier of Object.keys(given))
      if (!(supplier in expected)) problems.push(`unknown supplier ${supplier}`);
    return [checkNoProblems("scorecard", problems, "every supplier rated right")];
  });
}

type Variant = Flags<"ignoreMemos" | "anyMemoCovers" | "allCodes" | "wholeHistory">;

function cells(variant: Variant): string[] {
  const period = variant.wholeHistory
    ? ""
    : `, opened_from="${QUARTER.start}", opened_to="${REFERENCE_DATE}"`;
  return [
    String.raw`
manual = read_text("quality/quality-manual.md")
charged = [m.group(1) for m in re.finditer(r"^\| (\w+) \| [^|]+ \| yes \|", manual, re.M)]
${variant.allCodes ? 'charged = ["DIM", "COS", "MAT", "HRD"]' : ""}
covered = set()
listing = tools.list_files(path="suppliers")
for f in listing["files"]:
    memo = read_text(f["path"])
    material = re.search(r"Material lot: (ML-\d{4})", memo).group(1)
    code = re.search(r"defect code (\w+) on lots", memo)
    code = code.group(1) if code else ("HRD" if "hardness" in memo else "MAT")
    if ${variant.ignoreMemos ? "False" : variant.anyMemoCovers ? "True" : '"Decision: APPROVED" in memo'}:
        covered.add((material, code))
suppliers = [s["supplier_id"] for s in all_pages("list_suppliers", "suppliers")]
material_supplier = {m["material_lot_id"]: m["supplier_id"] for m in all_pages("list_material_lots", "material_lots")}
print(charged, sorted(covered), suppliers)
`,
    String.raw`
counts = {s: 0 for s in suppliers}
for code in charged:
    for n in all_pages("list_ncrs", "ncrs", defect_code=code${period}):
        lot = call("get_lot", lot_id=n["lot_id"])["lot"]
        if (lot["material_lot_id"], code) in covered:
            continue
        counts[material_supplier[lot["material_lot_id"]]] += 1
def rating(count):
    return "A" if count == 0 else "B" if count <= 2 else "C"
print(json.dumps({s: {"ncrs": c, "rating": rating(c)} for s, c in counts.items()}))
`,
  ];
}

export const supplierScorecardTask = qualityTask({
  id: "quality.supplier-scorecard",
  summary:
    "Quarter-to-date supplier scorecard: supplier-charged NCRs per supplier minus approved deviations, rated per the quality manual.",
  instruction: `Prepare the supplier scorecard for this quarter so far (${QUARTER.start} to ${REFERENCE_DATE}) following the quality manual (section 8.7), taking the supplier deviation memos in suppliers/ into account. Rate every approved supplier. Reply with only a JSON object mapping each supplier id to {"ncrs": <charged NCR count>, "rating": "A"|"B"|"C"}.`,
  tools: [
    "list_suppliers",
    "list_material_lots",
    "get_material_lot",
    "list_ncrs",
    "get_ncr",
    "list_lots",
    "get_lot",
  ],
  prepare,
  verify,
  cells,
  nearMisses: {
    "ignores-deviations": [{ ignoreMemos: true }, "Counts NCRs covered by approved deviations."],
    "rejected-deviation-covers": [
      { anyMemoCovers: true },
      "Treats rejected deviation requests as covering the NCRs too.",
    ],
    "all-defect-codes": [
      { allCodes: true },
      "Charges suppliers for the plant's own dimensional and cosmetic defects.",
    ],
    "whole-history": [{ wholeHistory: true }, "Counts NCRs opened before the quarter."],
  },
});
