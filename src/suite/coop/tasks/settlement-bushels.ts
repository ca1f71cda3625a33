import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { readScaleLogs } from "../logs.js";
import { gradeFactors, settledBushels } from "../world.js";
import { checkNestedAmounts, defineCoopTask } from "./common.js";

/** Settled bushels per member and crop over every journal ticket that was not voided, to one decimal. */
export function expectedSettlement(state: StateView): Map<string, Map<string, number>> {
  const factors = gradeFactors(state);
  const { tickets, voided } = readScaleLogs(state);
  const totals = new Map<string, Map<string, number>>();
  for (const t of tickets.values()) {
    if (voided.has(t.ticket_id)) continue;
    const crops = totals.get(t.member_id) ?? new Map<string, number>();
    crops.set(t.crop, (crops.get(t.crop) ?? 0) + settledBushels(t.net_lb, t.crop, t.moisture, t.fm, factors));
    totals.set(t.member_id, crops);
  }
  for (const crops of totals.values())
    for (const [crop, bu] of crops) crops.set(crop, Math.round(bu * 10) / 10);
  return totals;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkNestedAmounts(answer, expectedSettlement(initial), 0.15)];
}

type Variant = {
  voided?: boolean;
  kgAsLb?: boolean;
  firstProbe?: boolean;
  proportional?: boolean;
  allFm?: boolean;
};

const py = (flag: boolean | undefined): string => (flag ? "True" : "False");

function cell(v: Variant): string {
  return String.raw`
factors = grade_factors()
tickets, voided = scale_tickets(kg_as_lb=${py(v.kgAsLb)}, first_probe=${py(v.firstProbe)})
totals = {}
for tid, t in tickets.items():
    if tid in voided and not ${py(v.voided)}:
        continue
    bu = settled(t["net_lb"], t["crop"], t["moisture"], t["fm"], factors, proportional=${py(v.proportional)}, all_fm=${py(v.allFm)})
    crops = totals.setdefault(t["member_id"], {})
    crops[t["crop"]] = crops.get(t["crop"], 0.0) + bu
print(json.dumps({m: {c: round(b, 1) for c, b in sorted(crops.items())} for m, crops in sorted(totals.items())}))
`;
}

export const settlementBushelsTask = defineCoopTask<Variant>({
  id: "coop.settlement-bushels",
  summary: "Settled bushels per member and crop from the truck scale journals, after shrink and dockage.",
  instruction:
    'I need the settlement bushels for the loads in the truck scale journals under logs/ (every elevator, every day there). For each member, total the settled bushels per crop after moisture shrink and foreign-material dockage as grading/discount-schedule.md defines them; scale/scale-house-procedures.md explains how to read the journals. Reply with a JSON object like {"M-0012": {"corn": 1234.5, "soybeans": 880.2}}, one decimal, leaving out crops a member did not deliver.',
  tools: ["list_members"],
  verify,
  cells: cell,
  nearMisses: [
    ["counts-voided", "Counts voided tickets alongside their reissues.", { voided: true }],
    ["kg-as-lb", "Reads kilogram weights as pounds.", { kgAsLb: true }],
    ["first-probe", "Grades a re-probed load by its first probe.", { firstProbe: true }],
    [
      "proportional-shrink",
      "Shrinks in proportion to moisture instead of per started 0.5 point.",
      { proportional: true },
    ],
    ["docks-all-fm", "Docks all foreign material, not just what is above the allowance.", { allFm: true }],
  ],
});
