import { allRows, check, defineTask, flagNearMisses } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { propertyDomain } from "../domain.js";
import { answerObject } from "./answers.js";
import { PROPERTY_PY } from "./python.js";

interface BuildingOccupancy {
  rentable: number;
  occupied: number;
  vacant: number;
  pre_leased: number;
  occupancy_pct: number;
}

const FIELDS = ["rentable", "occupied", "vacant", "pre_leased", "occupancy_pct"] as const;

/** Occupancy by building under the reporting definitions. */
export function expectedOccupancy(state: StateView): Map<string, BuildingOccupancy> {
  const buildings = allRows<{ building_id: string; rentable: number; occupied: number; pre_leased: number }>(
    state.db,
    `SELECT b.building_id, COUNT(u.unit_id) AS rentable, COALESCE(SUM(u.active), 0) AS occupied,
            COALESCE(SUM(u.signed AND NOT u.active), 0) AS pre_leased
       FROM buildings b LEFT JOIN (
         SELECT unit_id, building_id,
                EXISTS (SELECT 1 FROM leases l WHERE l.unit_id = units.unit_id AND l.status = 'active') AS active,
                EXISTS (SELECT 1 FROM leases l WHERE l.unit_id = units.unit_id AND l.status = 'signed') AS signed
           FROM units WHERE offline = 0) u ON u.building_id = b.building_id
      GROUP BY b.building_id ORDER BY b.building_id`,
  );
  return new Map(
    buildings.map(({ building_id, rentable, occupied, pre_leased }) => [
      building_id,
      {
        rentable,
        occupied,
        vacant: rentable - occupied,
        pre_leased,
        occupancy_pct: rentable === 0 ? 0 : Math.round((occupied / rentable) * 1000) / 10,
      },
    ]),
  );
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedOccupancy(initial);
  const given = answerObject(answer) ?? {};
  const problems: string[] = [];
  for (const [building, want] of expected) {
    const got = given[building] as Record<string, unknown> | undefined;
    if (!got || typeof got !== "object") {
      problems.push(`${building} missing`);
      continue;
    }
    for (const field of FIELDS.filter((name) => name !== "occupancy_pct"))
      if (Math.abs(Number(got[field]) - want[field]) > 1e-6)
        problems.push(`${building}.${field}: expected ${want[field]}, got ${String(got[field])}`);
    // A rate exactly halfway (81.25) may round either way; anything else must be the rate to one decimal.
    const rate = Number(got.occupancy_pct);
    const exact = want.rentable === 0 ? 0 : (want.occupied / want.rentable) * 100;
    if (!(Math.abs(rate - exact) <= 0.05 + 1e-9 && Math.abs(rate * 10 - Math.round(rate * 10)) < 1e-6))
      problems.push(
        `${building}.occupancy_pct: expected ${want.occupancy_pct}, got ${String(got.occupancy_pct)}`,
      );
  }
  const extra = Object.keys(given).filter((key) => !expected.has(key));
  return [
    check(
      "buildings",
      extra.length === 0 && expected.size > 0,
      extra.length === 0 ? "every building once" : `unknown keys ${extra.join(", ")}`,
    ),
    check(
      "occupancy-figures",
      problems.length === 0,
      problems.length === 0 ? "all figures right" : problems.slice(0, 10).join("; "),
    ),
  ];
}

function cells(near: string[]): string[] {
  return [
    PROPERTY_PY,
    String.raw`
print(read_text("policies/reporting-definitions.md"))
buildings = fetch("list_buildings", "buildings")
`,
    String.raw`
report = {}
for building in buildings:
    bid = building["building_id"]
    units = fetch("list_units", "units", building_id=bid${near.includes("counts-offline-units") ? "" : ", offline=False"})
    rentable = {u["unit_id"] for u in units}
    occupied = {l["unit_id"] for l in fetch("list_leases", "leases", building_id=bid, status="active")} & rentable
    signed = {l["unit_id"] for l in fetch("list_leases", "leases", building_id=bid, status="signed")} & rentable
    ${near.includes("signed-as-occupied") ? "occupied = occupied | signed" : ""}
    report[bid] = {
        "rentable": len(rentable),
        "occupied": len(occupied),
        "vacant": len(rentable) - len(occupied),
        "pre_leased": len(signed - occupied),
        "occupancy_pct": round(100 * len(occupied) / len(rentable), 1) if rentable else 0,
    }
print(json.dumps(report))
`,
  ];
}

export const occupancyReportTask = defineTask({
  id: "property.occupancy-report",
  domain: propertyDomain,
  summary:
    "Occupancy by building per the reporting definitions: offline units excluded, signed future leases pre-leased but vacant.",
  instruction:
    'Prepare the occupancy section of the monthly owner report, using our portfolio reporting definitions. For every building give rentable units, occupied units, vacant units, pre-leased units (vacant units with a signed lease that has not started) and the occupancy rate in percent rounded to one decimal. Reply with only a JSON object keyed by building id, e.g. {"BLD-01": {"rentable": 12, "occupied": 10, "vacant": 2, "pre_leased": 1, "occupancy_pct": 83.3}}.',
  tools: ["list_buildings", "get_building", "list_units", "get_unit", "list_leases", "get_lease"],
  verify,
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["counts-offline-units", "Counts offline units as rentable."],
    ["signed-as-occupied", "Counts units with a signed future lease as occupied."],
  ]),
});
