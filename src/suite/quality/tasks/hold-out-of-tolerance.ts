import { allRows, type Flags } from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import { beyondLimit, round3 } from "../generate.js";
import { qualityTask, checkRowChanges } from "./shared.js";

/** Lots not shipped and not on hold whose valid measurements include one outside its limits. */
export function lotsToHold(db: VerifyContext["initial"]["db"]): string[] {
  return allRows<{ lot_id: string }>(
    db,
    `SELECT DISTINCT l.lot_id FROM production_lots l
       JOIN measurements m ON m.lot_id = l.lot_id
       JOIN characteristics c ON c.char_id = m.char_id
      WHERE l.status IN ('in_process', 'released') AND m.valid = 1
        AND (m.value > c.upper_limit OR m.value < c.lower_limit)
      ORDER BY l.lot_id`,
  ).map((row) => row.lot_id);
}

/** Plants out-of-tolerance values (some on the last page of a lot), values exactly at a limit, and invalidated outliers. */
function prepare({ db, random }: GenerateContext): void {
  const [first, ...rest] = allRows<{ lot_id: string }>(
    db,
    `SELECT l.lot_id, COUNT(*) AS n FROM production_lots l JOIN measurements m ON m.lot_id = l.lot_id
      WHERE l.status IN ('in_process', 'released') GROUP BY l.lot_id ORDER BY n DESC, l.lot_id`,
  ).map((row) => row.lot_id);
  const order = [first!, ...random.shuffle(rest)];
  const last = db.prepare(
    `SELECT m.measurement_id, c.lower_limit, c.upper_limit FROM measurements m JOIN characteristics c ON c.char_id = m.char_id
      WHERE m.lot_id = ? ORDER BY m.measurement_id DESC LIMIT 1 OFFSET ?`,
  );
  const update = db.prepare(
    "UPDATE measurements SET value = ?, valid = ?, invalid_reason = ? WHERE measurement_id = ?",
  );
  order.forEach((lot, index) => {
    const kind = [0, 3, 2, 1][index % 4]!;
    const row = last.get(lot, kind === 0 ? 0 : random.int(0, 10)) as
      { measurement_id: number; lower_limit: number; upper_limit: number } | undefined;
    if (!row) return;
    const band = row.upper_limit - row.lower_limit;
    const high = random.chance(0.5);
    if (kind === 0 || kind === 1)
      update.run(beyondLimit(row, high, band * random.pick([0.1, 0.3, 0.5])), 1, null, row.measurement_id);
    else if (kind === 2) update.run(high ? row.upper_limit : row.lower_limit, 1, null, row.measurement_id);
    else
      update.run(
        round3(row.upper_limit + band * 0.4),
        0,
        "Re-measured: part not cleaned before check",
        row.measurement_id,
      );
  });
}

function verify(context: VerifyContext): Check[] {
  const expected = lotsToHold(context.initial.db);
  if (expected.length === 0) throw new Error("generation planted no out-of-tolerance lot");
  return checkRowChanges(context, {
    table: "production_lots",
    key: "lot_id",
    changed: new Map(expected.map((lot) => [lot, { status: "on_hold" }])),
    ignoreColumns: ["hold_reason"],
  });
}

type Variant = Flags<"countInvalid" | "limitIsFailure" | "firstPageOnly">;

function cells(variant: Variant): string[] {
  const fetchLot = variant.firstPageOnly
    ? `call("list_measurements", lot_id=lot["lot_id"])["measurements"]`
    : `all_pages("list_measurements", "measurements", lot_id=lot["lot_id"])`;
  const outside = variant.limitIsFailure
    ? `m["value"] >= c["upper_limit"] or m["value"] <= c["lower_limit"]`
    : `m["value"] > c["upper_limit"] or m["value"] < c["lower_limit"]`;
  return [
    String.raw`
limits = {c["char_id"]: c for c in all_pages("list_characteristics", "characteristics")}
open_lots = all_pages("list_lots", "lots", status="in_process") + all_pages("list_lots", "lots", status="released")
print(len(limits), "characteristics,", len(open_lots), "lots not shipped")
`,
    String.raw`
to_hold = []
for lot in open_lots:
    bad = []
    for m in ${fetchLot}:
        if not m["valid"] and ${variant.countInvalid ? "False" : "True"}:
            continue
        c = limits[m["char_id"]]
        if ${outside}:
            bad.append("%s=%s" % (m["char_id"], m["value"]))
    if bad:
        to_hold.append((lot["lot_id"], bad))
print(to_hold)
`,
    String.raw`
for lot_id, bad in to_hold:
    call("place_lot_on_hold", lot_id=lot_id, reason="Out of tolerance: " + ", ".join(bad[:3]))
print(len(to_hold))
`,
  ];
}

export const holdOutOfToleranceTask = qualityTask({
  id: "quality.hold-out-of-tolerance",
  summary:
    "Put on hold every unshipped lot with a valid measurement outside its characteristic's limits (limits inclusive, invalid measurements ignored).",
  instruction:
    "Please sweep the lots that have not shipped yet (status in_process or released). Any such lot with at least one valid measurement outside the lower or upper limit of its characteristic must go on quality hold; a value exactly on a limit is in tolerance, and measurements marked invalid do not count. Put those lots on hold with a short reason and leave every other lot alone. Reply with only the number of lots you put on hold.",
  tools: [
    "list_lots",
    "get_lot",
    "list_measurements",
    "list_characteristics",
    "get_product",
    "list_products",
    "place_lot_on_hold",
  ],
  prepare,
  verify,
  cells,
  nearMisses: {
    "counts-invalid-measurements": [
      { countInvalid: true },
      "Holds lots over measurements already marked invalid.",
    ],
    "limit-is-failure": [{ limitIsFailure: true }, "Treats a value exactly on a limit as out of tolerance."],
    "first-page-only": [{ firstPageOnly: true }, "Reads only the first page of each lot's measurements."],
  },
});
