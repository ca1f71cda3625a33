import { allRows, checkAnswerAmounts } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { NOW, NOW_TEXT, PRIORITIES, deadlineOf, secondsOf, slaTargets } from "../world.js";
import { defineUtilityTask } from "./common.js";

/** June-created work orders that breached their completion target, counted per priority. */
export function expectedBreaches(state: StateView): Map<string, number> {
  const targets = slaTargets(state);
  const counts = new Map<string, number>(PRIORITIES.map((p) => [p, 0]));
  const orders = allRows<{
    priority: string;
    created_at: string;
    completed_at: string | null;
    hold_minutes: number;
  }>(
    state.db,
    "SELECT priority, created_at, completed_at, hold_minutes FROM work_orders WHERE created_at >= '2025-06-01'",
  );
  for (const wo of orders)
    if (
      secondsOf(wo.completed_at ?? NOW) >
      deadlineOf(wo.created_at, targets.get(wo.priority)!) + wo.hold_minutes * 60
    )
      counts.set(wo.priority, counts.get(wo.priority)! + 1);
  return counts;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkAnswerAmounts("answer", answer, expectedBreaches(initial), 0)];
}

type Variant = { calendar?: boolean; completedOnly?: boolean; trustPartial?: boolean; noHold?: boolean };

function cell(variant: Variant): string {
  const list = variant.trustPartial
    ? 'orders, page = [], 1\nwhile True:\n    result = tools.list_work_orders(created_from="2025-06-01", page=page, per_page=50)\n    orders.extend(result["work_orders"])\n    if not result["has_more"]:\n        break\n    page += 1'
    : 'orders = fetch("list_work_orders", "work_orders", created_from="2025-06-01")';
  return String.raw`
targets = {r[0]: (int(r[1]), r[2]) for r in md_table(read_text("policies/work-order-sla.md"), "Completion targets")}
${list}

def deadline(created, amount, unit):
    if unit == "hours":
        return created + timedelta(hours=amount)
    day = created
    ${variant.calendar ? "return created + timedelta(days=amount)" : "while amount > 0:\n        day += timedelta(days=1)\n        if day.weekday() < 5:\n            amount -= 1\n    return day"}

late = {p: 0 for p in ("P1", "P2", "P3", "P4")}
for wo in orders:
    if wo["completed_at"] is None and ${variant.completedOnly ? "True" : "False"}:
        continue
    finished = utc(wo["completed_at"]) if wo["completed_at"] else NOW
    due = deadline(utc(wo["created_at"]), *targets[wo["priority"]])
    if finished <= due:
        continue
    ${variant.noHold ? "" : 'due += timedelta(minutes=call("get_work_order", work_order_id=wo["work_order_id"])["work_order"]["hold_minutes"])'}
    if finished > due:
        late[wo["priority"]] += 1
print(json.dumps(late))
`;
}

export const slaBreachesTask = defineUtilityTask<Variant>({
  id: "utility.sla-breaches",
  summary: "Count June's work orders that breached the SLA's completion target, per priority.",
  instruction: `How many work orders created in June 2025 (UTC) have breached their completion target under policies/work-order-sla.md so far? It is now ${NOW_TEXT}. Reply with a JSON object with a count for each priority, e.g. {"P1": 2, "P2": 5, "P3": 0, "P4": 1}.`,
  tools: ["list_work_orders", "get_work_order"],
  verify,
  cells: cell,
  nearMisses: [
    ["calendar-days", "Counts business-day targets in calendar days.", { calendar: true }],
    ["completed-only", "Ignores orders that are still open past their deadline.", { completedOnly: true }],
    [
      "ignores-hold",
      "Does not extend deadlines by the customer hold on the order's details.",
      { noHold: true },
    ],
    ["trusts-partial-page", "Takes a partial page of the listing as the end of it.", { trustPartial: true }],
  ],
});
