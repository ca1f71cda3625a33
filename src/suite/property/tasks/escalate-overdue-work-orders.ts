import {
  REFERENCE_DATE,
  allRows,
  check,
  checkStateDiff,
  daysBetween,
  defineTask,
  flagNearMisses,
  parseAnswerNumber,
} from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { propertyDomain } from "../domain.js";
import { readSlaDays } from "../workspace-facts.js";
import { PROPERTY_PY } from "./python.js";

/** Work orders past their SLA target today that are not yet escalated. */
export function expectedEscalations(state: StateView): string[] {
  const sla = readSlaDays(state);
  const orders = allRows<{ work_order_id: string; priority: string; opened_on: string }>(
    state.db,
    `SELECT work_order_id, priority, opened_on FROM work_orders
      WHERE status IN ('open', 'assigned', 'in_progress') AND escalated_on IS NULL ORDER BY work_order_id`,
  );
  return orders
    .filter((order) => {
      const target = sla.get(order.priority);
      if (target === undefined) throw new Error(`no SLA target for priority ${order.priority}`);
      return daysBetween(order.opened_on, REFERENCE_DATE) > target;
    })
    .map((order) => order.work_order_id);
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedEscalations(initial);
  if (expected.length === 0) throw new Error("generation produced no overdue work order");
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "work_orders",
        key: "work_order_id",
        changed: new Map(expected.map((id) => [id, { escalated_on: REFERENCE_DATE }])),
      },
    ]),
    check(
      "answer-count",
      parseAnswerNumber(answer) === expected.length,
      `expected ${expected.length} escalations, answer says ${answer.slice(0, 80)}`,
    ),
  ];
}

function cells(near: string[]): string[] {
  const listing = near.includes("first-page-only")
    ? 'orders = [o for o in call("list_work_orders", per_page=50)["work_orders"] if o["status"] in statuses]'
    : 'orders = [o for status in statuses for o in fetch("list_work_orders", "work_orders", status=status)]';
  return [
    PROPERTY_PY,
    String.raw`
sla_text = read_text("policies/maintenance-sla.md")
sla = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\| (\w+) \| (\d+) \|", sla_text, re.M)}
print(sla)
`,
    String.raw`
today = date.fromisoformat("${REFERENCE_DATE}")
statuses = ["open", "assigned", "in_progress"${near.includes("includes-on-hold") ? ', "on_hold"' : ""}]
${listing}
escalated = []
for order in sorted(orders, key=lambda o: o["work_order_id"]):
    age = (today - date.fromisoformat(order["opened_on"])).days
    if order["escalated_on"] is None and age ${near.includes("sla-boundary-off-by-one") ? ">=" : ">"} sla[order["priority"]]:
        call("escalate_work_order", work_order_id=order["work_order_id"])
        escalated.append(order["work_order_id"])
print(f"Escalated {len(escalated)} work orders: {', '.join(escalated)}")
`,
  ];
}

export const escalateOverdueWorkOrdersTask = defineTask({
  id: "property.escalate-overdue-work-orders",
  domain: propertyDomain,
  summary:
    "Escalate every unfinished work order past its SLA target (targets by priority in the SLA document; on-hold orders paused; already escalated ones skipped).",
  instruction:
    "Please run today's SLA sweep on maintenance: escalate (escalate_work_order) every work order that is overdue under our maintenance service-level policy and has not been escalated yet. Leave everything else alone. Reply with the number of work orders you escalated, e.g. `Escalated 6 work orders`.",
  tools: [
    "list_work_orders",
    "get_work_order",
    "escalate_work_order",
    "list_vendors",
    "get_vendor",
    "list_units",
  ],
  verify,
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["includes-on-hold", "Escalates paused (on-hold) work orders too."],
    ["sla-boundary-off-by-one", "Counts an order as overdue on the day its target is reached."],
    ["first-page-only", "Reads only the first page of the work-order listing."],
  ]),
});
