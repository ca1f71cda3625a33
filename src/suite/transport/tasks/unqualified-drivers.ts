import { REFERENCE_DATE, allRows, checkAnswerIds } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { defineTransportTask, nonEmpty } from "./common.js";

interface Row {
  route_id: string;
  cdl_class: string;
  endorsements: string;
  medical_card_expires: string;
  lift_training_expires: string | null;
  wheelchair_lift: number;
}

/** Routes whose driver fails the policy's licence, medical card or lift-training rule today. */
export function expectedUnqualified(state: StateView): string[] {
  const rows = allRows<Row>(
    state.db,
    `SELECT r.route_id, d.cdl_class, d.endorsements, d.medical_card_expires, d.lift_training_expires, b.wheelchair_lift
       FROM routes r JOIN drivers d ON d.driver_id = r.driver_id JOIN buses b ON b.bus_id = r.bus_id ORDER BY r.route_id`,
  );
  const qualified = (row: Row): boolean => {
    const endorsements = row.endorsements.split(",");
    return (
      ["A", "B"].includes(row.cdl_class) &&
      endorsements.includes("P") &&
      endorsements.includes("S") &&
      row.medical_card_expires >= REFERENCE_DATE &&
      (row.wheelchair_lift === 0 || (row.lift_training_expires ?? "") >= REFERENCE_DATE)
    );
  };
  return nonEmpty(
    rows.filter((row) => !qualified(row)).map((row) => row.route_id),
    "unqualified driver",
  );
}

type Variant = { noLift?: boolean; medicalStrict?: boolean; anyClass?: boolean };

function cell(variant: Variant): string {
  return String.raw`
today = "2025-06-30"
rule = re.search(r"holds a class (\w) or (\w) CDL with both the (\w) \(passenger\) and (\w) \(school bus\)", read_text(POLICY))
classes, needed = rule.group(1, 2), rule.group(3, 4)
lifts = {b["bus_id"]: b["wheelchair_lift"] for b in fetch("list_buses", "buses")}
flagged = []
for route in fetch("list_routes", "routes"):
    d = call("get_driver", driver_id=route["driver_id"])["driver"]
    endorsements = d["endorsements"].split(",")
    ok = ${variant.anyClass ? "True" : 'd["cdl_class"] in classes'} and all(e in endorsements for e in needed)
    ok = ok and d["medical_card_expires"] ${variant.medicalStrict ? ">" : ">="} today
    if lifts[route["bus_id"]]${variant.noLift ? " and False" : ""}:
        ok = ok and (d["lift_training_expires"] or "") >= today
    if not ok:
        flagged.append(route["route_id"])
print(json.dumps(flagged))
`;
}

export const unqualifiedDriversTask = defineTransportTask<Variant>({
  id: "transport.unqualified-drivers",
  summary: "List the routes whose assigned driver is not qualified today under the policy.",
  instruction:
    'Today is 30 June 2025. Audit every AM route\'s assigned driver against the driver qualification rules in our transportation policy (policies/transportation-policy.md) and list the routes whose driver may not drive them today. Reply with a JSON array of route ids, e.g. ["RT-103"].',
  tools: ["list_routes", "list_buses", "list_drivers", "get_driver"],
  verify: ({ initial, answer }) => [checkAnswerIds(answer, expectedUnqualified(initial))],
  cells: cell,
  nearMisses: [
    ["ignores-lift-training", "Forgets that lift buses need current lift training.", { noLift: true }],
    ["card-expiring-today-expired", "Treats a card expiring today as expired.", { medicalStrict: true }],
    ["any-licence-class", "Checks endorsements but not the CDL class.", { anyClass: true }],
  ],
});
