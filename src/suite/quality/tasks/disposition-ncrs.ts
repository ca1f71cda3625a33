import { addDays, allRows, type Flags } from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import { NCR_DESCRIPTIONS, beyondLimit } from "../generate.js";
import { ncrId, prescribedDisposition, type CharacteristicLimits } from "../rules.js";
import { qualityTask, checkRowChanges } from "./shared.js";

/** Every open NCR without a disposition, with the disposition the quality manual prescribes. */
export function expectedDispositions(db: VerifyContext["initial"]["db"]): Map<string, string> {
  const ncrs = allRows<{
    ncr_id: string;
    defect_code: string;
    char_id: string | null;
    measured_value: number | null;
  }>(
    db,
    "SELECT ncr_id, defect_code, char_id, measured_value FROM ncrs WHERE status = 'open' AND disposition IS NULL ORDER BY ncr_id",
  );
  const characteristic = db.prepare(
    "SELECT feature, lower_limit, upper_limit, critical FROM characteristics WHERE char_id = ?",
  );
  return new Map(
    ncrs.map((ncr) => [
      ncr.ncr_id,
      prescribedDisposition(
        ncr.defect_code,
        ncr.char_id ? (characteristic.get(ncr.char_id) as CharacteristicLimits) : undefined,
        ncr.measured_value,
      ),
    ]),
  );
}

type Case =
  "MAT" | "HRD" | "COS" | "critical" | "small" | "ext-above" | "ext-below" | "int-below" | "int-above";
const CASES: Case[] = [
  "MAT",
  "critical",
  "ext-above",
  "int-above",
  "small",
  "COS",
  "ext-below",
  "int-below",
  "HRD",
];

/** Plants open NCRs covering every rule of the disposition section, including the look-alikes each near-miss trips on. */
function prepare({ db, random, factors, referenceDate }: GenerateContext): void {
  const chars = allRows<CharacteristicLimits & { char_id: string; part_number: string }>(
    db,
    `SELECT c.* FROM characteristics c WHERE EXISTS (SELECT 1 FROM production_lots l WHERE l.part_number = c.part_number AND l.end_date IS NOT NULL) ORDER BY c.char_id`,
  );
  const lotOf = db.prepare(
    "SELECT lot_id, quantity FROM production_lots WHERE part_number = ? AND end_date IS NOT NULL ORDER BY lot_id",
  );
  const insert = db.prepare("INSERT INTO ncrs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'open', NULL)");
  const hold = db.prepare(
    "UPDATE production_lots SET status = 'on_hold', hold_reason = ? WHERE lot_id = ? AND status != 'shipped'",
  );
  const count = CASES.length + 2 * (factors.rows - 1);
  for (let index = 0; index < count; index += 1) {
    const kind = CASES[index % CASES.length]!;
    const pool =
      kind === "critical"
        ? chars.filter((c) => c.critical === 1)
        : kind.startsWith("ext")
          ? chars.filter((c) => c.critical === 0 && c.feature === "external")
          : kind.startsWith("int")
            ? chars.filter((c) => c.critical === 0 && c.feature === "internal")
            : chars.filter((c) => c.critical === 0);
    const c = random.pick(pool.length > 0 ? pool : chars);
    const lot = random.pick(lotOf.all(c.part_number) as Array<{ lot_id: string; quantity: number }>);
    const band = c.upper_limit - c.lower_limit;
    const dimensional = !["MAT", "HRD", "COS"].includes(kind);
    const share =
      kind === "small" || (kind === "critical" && random.chance(0.5)) ? 0.05 : random.pick([0.25, 0.4, 0.7]);
    const above =
      kind === "ext-above" ||
      kind === "int-above" ||
      ((kind === "critical" || kind === "small") && random.chance(0.5));
    const value = dimensional ? beyondLimit(c, above, band * share) : null;
    const id = ncrId.next(db, "ncrs");
    const description = dimensional
      ? `${c.char_id} measured ${value} mm against limits ${c.lower_limit}-${c.upper_limit} mm`
      : NCR_DESCRIPTIONS[kind as keyof typeof NCR_DESCRIPTIONS][0];
    insert.run(
      id,
      lot.lot_id,
      addDays(referenceDate, -random.int(0, 10)),
      kind === "critical" ? "critical" : random.pick(["major", "minor"]),
      dimensional ? "DIM" : kind,
      dimensional ? c.char_id : null,
      value,
      random.int(1, Math.max(1, Math.round(lot.quantity / 10))),
      description,
    );
    hold.run(`${id} open`, lot.lot_id);
  }
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedDispositions(context.initial.db);
  return checkRowChanges(context, {
    table: "ncrs",
    key: "ncr_id",
    changed: new Map(
      [...expected].map(([id, disposition]) => [id, { disposition, status: "dispositioned" }]),
    ),
  });
}

type Variant = Flags<"ignoreCritical" | "shareOfNominal" | "reworkWhenAbove">;

function cells(variant: Variant): string[] {
  return [
    String.raw`
manual = read_text("quality/quality-manual.md")
share = float(re.search(r"by no more than (\d+)% of the tolerance band", manual).group(1)) / 100
limits = {c["char_id"]: c for c in all_pages("list_characteristics", "characteristics")}
pending = [n for n in all_pages("list_ncrs", "ncrs", status="open") if n["disposition"] is None]
print(share, len(pending), "open NCRs without disposition")
`,
    String.raw`
def disposition(n):
    if n["defect_code"] in ("MAT", "HRD"):
        return "return_to_supplier"
    if n["defect_code"] == "COS":
        return "rework"
    c = limits[n["char_id"]]
    if c["critical"] and ${variant.ignoreCritical ? "False" : "True"}:
        return "scrap"
    value = n["measured_value"]
    above = value > c["upper_limit"]
    excess = value - c["upper_limit"] if above else c["lower_limit"] - value
    band = ${variant.shareOfNominal ? 'c["nominal"]' : 'c["upper_limit"] - c["lower_limit"]'}
    if excess <= share * band:
        return "use_as_is"
    material_left = ${variant.reworkWhenAbove ? "above" : 'above if c["feature"] == "external" else not above'}
    return "rework" if material_left else "scrap"

decided = {n["ncr_id"]: disposition(n) for n in pending}
for ncr_id, value in decided.items():
    call("set_ncr_disposition", ncr_id=ncr_id, disposition=value)
print(len(decided))
`,
  ];
}

export const dispositionNcrsTask = qualityTask({
  id: "quality.disposition-ncrs",
  summary:
    "Disposition every open NCR per the quality manual's MRB rules (criticality, 10% band, material-left direction).",
  instruction:
    "The Material Review Board is behind. Disposition every open NCR that has no disposition yet, applying the disposition rules of the quality manual (quality/quality-manual.md, section 8.3) to each one, and change nothing else. Reply with only the number of NCRs you dispositioned.",
  tools: ["list_ncrs", "get_ncr", "list_characteristics", "get_product", "get_lot", "set_ncr_disposition"],
  prepare,
  verify,
  cells,
  nearMisses: {
    "ignores-criticality": [
      { ignoreCritical: true },
      "Applies the use-as-is and rework rules to critical characteristics.",
    ],
    "share-of-nominal": [
      { shareOfNominal: true },
      "Reads the 10% allowance as 10% of the nominal size, not of the tolerance band.",
    ],
    "rework-when-above": [
      { reworkWhenAbove: true },
      "Reworks every oversize dimension, ignoring whether the feature is internal.",
    ],
  },
});
