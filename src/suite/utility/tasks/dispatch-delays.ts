import { allRows, checkAnswerIds } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { NOW, NOW_TEXT, POLICY, policyTable, secondsOf } from "../world.js";
import { defineUtilityTask } from "./common.js";

/** June's P1/P2 orders dispatched later than the dispatch target, or still open past it. */
export function expectedLateDispatches(state: StateView): string[] {
  const targets = new Map(
    policyTable(state, POLICY.dispatch, "Dispatch targets").map(([p, m]) => [p!, Number(m)]),
  );
  const orders = allRows<{
    work_order_id: string;
    priority: string;
    created_at: string;
    dispatched_at: string | null;
  }>(
    state.db,
    "SELECT work_order_id, priority, created_at, dispatched_at FROM work_orders WHERE priority IN ('P1', 'P2') AND created_at >= '2025-06-01' ORDER BY work_order_id",
  );
  return orders
    .filter(
      (wo) => secondsOf(wo.dispatched_at ?? NOW) - secondsOf(wo.created_at) > targets.get(wo.priority)! * 60,
    )
    .map((wo) => wo.work_order_id);
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkAnswerIds(answer, expectedLateDispatches(initial))];
}

type Variant = { completionClock?: boolean; inclusive?: boolean; skipOpen?: boolean; openLate?: boolean };

function cell(variant: Variant): string {
  const dispatched = variant.completionClock
    ? 'wo["completed_at"]'
    : 'call("get_work_order", work_order_id=wo["work_order_id"])["work_order"]["dispatched_at"]';
  return String.raw`
targets = {r[0]: int(r[1]) for r in md_table(read_text("policies/dispatch.md"), "Dispatch targets")}
late = []
for priority in ("P1", "P2"):
    for wo in fetch("list_work_orders", "work_orders", priority=priority, created_from="2025-06-01"):
        if wo["status"] == "open":
            ${variant.skipOpen ? "continue" : variant.openLate ? 'late.append(wo["work_order_id"])\n            continue' : "at = NOW"}
        else:
            at = ${dispatched}
            at = utc(at) if at else NOW
        minutes = (at - utc(wo["created_at"])).total_seconds() / 60
        if minutes ${variant.inclusive ? ">=" : ">"} targets[priority]:
            late.append(wo["work_order_id"])
print(json.dumps(sorted(late)))
`;
}

export const dispatchDelaysTask = defineUtilityTask<Variant>({
  id: "utility.dispatch-delays",
  summary: "List June's P1/P2 work orders that missed the dispatch policy's dispatch target.",
  instruction: `Which P1 and P2 work orders created in June 2025 (UTC) have missed their dispatch target in policies/dispatch.md so far? It is now ${NOW_TEXT}. Reply with a JSON array of work order ids, e.g. ["WO-00017", "WO-00102"].`,
  tools: ["list_work_orders", "get_work_order"],
  verify,
  cells: cell,
  nearMisses: [
    ["completion-clock", "Measures to completion instead of dispatch.", { completionClock: true }],
    ["inclusive-boundary", "Counts a dispatch exactly at the target as late.", { inclusive: true }],
    ["ignores-open", "Leaves out orders still waiting for a crew.", { skipOpen: true }],
    ["open-always-late", "Counts every order still waiting for a crew as late.", { openLate: true }],
  ],
});
