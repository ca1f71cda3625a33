import { allRows, checkAnswerIdLists } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { readScaleLogs } from "../logs.js";
import { DOCS, policyValue } from "../world.js";
import { defineCoopTask } from "./common.js";

export interface Reconciliation {
  missing: string[];
  not_voided: string[];
  weight_errors: string[];
}

/** Journal tickets missing from the system, voids not keyed, and keyed net weights off by more than the tolerance. */
export function expectedReconciliation(state: StateView): Reconciliation {
  const { tickets, voided } = readScaleLogs(state);
  const tolerance = policyValue(state, DOCS.scale, "Reconciliation tolerance", "net weight tolerance (lb)");
  const keyed = new Map(
    allRows<{ ticket_id: string; net_lb: number; status: string }>(
      state.db,
      "SELECT ticket_id, net_lb, status FROM tickets",
    ).map((t) => [t.ticket_id, t]),
  );
  const result: Reconciliation = { missing: [], not_voided: [], weight_errors: [] };
  for (const t of tickets.values()) {
    const row = keyed.get(t.ticket_id);
    if (voided.has(t.ticket_id)) {
      if (row?.status === "active") result.not_voided.push(t.ticket_id);
    } else if (!row) result.missing.push(t.ticket_id);
    else if (Math.abs(row.net_lb - t.net_lb) > tolerance) result.weight_errors.push(t.ticket_id);
  }
  return result;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkAnswerIdLists(answer, new Map(Object.entries(expectedReconciliation(initial))))];
}

type Variant = { kgAsLb?: boolean; exact?: boolean; voidedMissing?: boolean; atTolerance?: boolean };

function cell(v: Variant): string {
  return String.raw`
tolerance = ${v.exact ? "0" : `{r[0]: float(r[1]) for r in md_table(read_text("scale/scale-house-procedures.md"), "Reconciliation tolerance")}["net weight tolerance (lb)"]`}
tickets, voided = scale_tickets(kg_as_lb=${v.kgAsLb ? "True" : "False"})
first = min(t["ticket_date"] for t in tickets.values())
keyed = {t["ticket_id"]: t for t in fetch("list_tickets", "tickets", date_from=first)}
result = {"missing": [], "not_voided": [], "weight_errors": []}
for tid, t in sorted(tickets.items()):
    row = keyed.get(tid)
    if tid in voided${v.voidedMissing ? " and row is not None" : ""}:
        if row is not None and row["status"] == "active":
            result["not_voided"].append(tid)
    elif row is None:
        result["missing"].append(tid)
    elif abs(row["net_lb"] - t["net_lb"]) ${v.atTolerance ? ">=" : ">"} tolerance:
        result["weight_errors"].append(tid)
print(json.dumps(result))
`;
}

export const scaleReconciliationTask = defineCoopTask<Variant>({
  id: "coop.scale-reconciliation",
  summary:
    "Reconcile the scale journals with the keyed tickets: missing tickets, unkeyed voids, keying errors.",
  instruction:
    'Reconcile the truck scale journals in logs/ against the tickets keyed into the accounting system, following the reconciliation section of scale/scale-house-procedures.md. I want three lists of ticket ids: tickets the journals printed that were never keyed ("missing"), tickets the journals voided that are still active in the system ("not_voided"), and keyed tickets whose net weight disagrees with the journal ("weight_errors"). Reply with a JSON object {"missing": [...], "not_voided": [...], "weight_errors": [...]} using ids like T-101234.',
  tools: ["list_tickets", "get_ticket"],
  verify,
  cells: cell,
  nearMisses: [
    ["kg-as-lb", "Compares kilogram journal weights with pounds.", { kgAsLb: true }],
    ["exact-weights", "Flags any difference, ignoring the reconciliation tolerance.", { exact: true }],
    ["flags-at-tolerance", "Flags a difference of exactly the tolerance.", { atTolerance: true }],
    [
      "voided-as-missing",
      "Reports a voided ticket that was never keyed as missing.",
      { voidedMissing: true },
    ],
  ],
});
