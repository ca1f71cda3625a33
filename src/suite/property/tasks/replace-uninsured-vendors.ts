import {
  REFERENCE_DATE,
  allRows,
  check,
  checkStateDiff,
  defineTask,
  flagNearMisses,
  parseAnswerNumber,
} from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { propertyDomain } from "../domain.js";
import { readRateCard } from "../workspace-facts.js";
import { PROPERTY_PY } from "./python.js";

/** New vendor by work order id: unfinished orders of vendors whose insurance lapsed, to the cheapest eligible vendor. */
export function expectedReassignments(state: StateView): Map<string, string> {
  const rates = readRateCard(state);
  const vendors = allRows<{ vendor_id: string; trade: string; insurance_expires: string; active: number }>(
    state.db,
    "SELECT vendor_id, trade, insurance_expires, active FROM vendors ORDER BY vendor_id",
  );
  const lapsed = new Set(vendors.filter((v) => v.insurance_expires < REFERENCE_DATE).map((v) => v.vendor_id));
  const replacement = (trade: string): string => {
    const eligible = vendors
      .filter((v) => v.trade === trade && v.active === 1 && v.insurance_expires >= REFERENCE_DATE)
      .sort(
        (a, b) => rates.get(a.vendor_id)! - rates.get(b.vendor_id)! || a.vendor_id.localeCompare(b.vendor_id),
      );
    if (!eligible[0]) throw new Error(`no eligible ${trade} vendor`);
    return eligible[0].vendor_id;
  };
  const orders = allRows<{ work_order_id: string; category: string; vendor_id: string }>(
    state.db,
    "SELECT work_order_id, category, vendor_id FROM work_orders WHERE status NOT IN ('completed', 'cancelled') AND vendor_id IS NOT NULL ORDER BY work_order_id",
  );
  return new Map(
    orders.filter((o) => lapsed.has(o.vendor_id)).map((o) => [o.work_order_id, replacement(o.category)]),
  );
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedReassignments(initial);
  if (expected.size === 0) throw new Error("generation produced no work order to reassign");
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "work_orders",
        key: "work_order_id",
        changed: new Map([...expected].map(([id, vendor]) => [id, { vendor_id: vendor }])),
      },
    ]),
    check(
      "answer-count",
      parseAnswerNumber(answer) === expected.size,
      `expected ${expected.size} reassignments`,
    ),
  ];
}

function cells(near: string[]): string[] {
  const lapsedTest = near.includes("expiring-today-as-lapsed") ? "<=" : "<";
  const validTest = near.includes("expiring-today-as-lapsed") ? ">" : ">=";
  return [
    PROPERTY_PY,
    String.raw`
rates = {row["vendor_id"]: float(row["hourly_rate"]) for row in csv.DictReader(io.StringIO(read_text("vendors/rate-card.csv")))}
vendors = fetch("list_vendors", "vendors")
today = "${REFERENCE_DATE}"
lapsed = [v for v in vendors if v["insurance_expires"] ${lapsedTest} today]
print("lapsed:", [v["vendor_id"] for v in lapsed])
def replacement(trade):
    eligible = [v for v in vendors if v["trade"] == trade ${near.includes("ignores-inactive-flag") ? "" : 'and v["active"]'} and v["insurance_expires"] ${validTest} today]
    return min(eligible, key=lambda v: (rates[v["vendor_id"]], v["vendor_id"]))["vendor_id"]
`,
    String.raw`
moved = []
for vendor in lapsed:
    for order in fetch("list_work_orders", "work_orders", vendor_id=vendor["vendor_id"]):
        if order["status"] ${near.includes("assigned-status-only") ? '!= "assigned"' : 'in ("completed", "cancelled")'}:
            continue
        new_vendor = replacement(order["category"])
        call("assign_work_order", work_order_id=order["work_order_id"], vendor_id=new_vendor)
        moved.append((order["work_order_id"], vendor["vendor_id"], new_vendor))
print(f"Reassigned {len(moved)} work orders")
`,
  ];
}

export const replaceUninsuredVendorsTask = defineTask({
  id: "property.replace-uninsured-vendors",
  domain: propertyDomain,
  summary:
    "Move unfinished work orders off vendors whose liability insurance has lapsed, to the cheapest active, insured vendor of the same trade per the rate card.",
  instruction:
    "Compliance flagged vendors whose liability insurance has expired (expiry date before today; a certificate expiring today is still valid). Move every unfinished work order (anything not completed or cancelled) assigned to such a vendor to the active vendor of the work order's trade with valid insurance and the lowest hourly rate on our vendor rate card (lowest vendor id on a tie). Change nothing else. Reply with how many work orders you reassigned, e.g. `Reassigned 4 work orders`.",
  tools: ["list_vendors", "get_vendor", "list_work_orders", "get_work_order", "assign_work_order"],
  verify,
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["expiring-today-as-lapsed", "Treats a certificate that expires today as lapsed."],
    ["ignores-inactive-flag", "Reassigns to a cheaper vendor who is no longer active."],
    [
      "assigned-status-only",
      "Moves only orders in status assigned, leaving in-progress and on-hold work with the uninsured vendor.",
    ],
  ]),
});
