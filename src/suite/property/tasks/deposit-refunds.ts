import {
  REFERENCE_DATE,
  allRows,
  checkStateDiff,
  defineTask,
  flagNearMisses,
  roundCents,
  sumCents,
} from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { propertyDomain } from "../domain.js";
import { checkStatedTotal } from "./answers.js";
import { PROPERTY_PY } from "./python.js";

/** Refund by lease id for this month's move-outs without a recorded refund. */
export function expectedRefunds(state: StateView): Map<string, number> {
  const leases = allRows<{ lease_id: string; security_deposit: number; deductions: number; balance: number }>(
    state.db,
    `SELECT l.lease_id, l.security_deposit,
            (SELECT COALESCE(SUM(i.cost), 0) FROM inspection_items i JOIN inspections n ON n.inspection_id = i.inspection_id
              WHERE n.lease_id = l.lease_id AND n.inspection_type = 'move_out' AND i.condition IN ('damage', 'cleaning')) AS deductions,
            (SELECT COALESCE(SUM(CASE e.entry_type WHEN 'payment' THEN -e.amount ELSE e.amount END), 0) FROM ledger_entries e
              WHERE e.lease_id = l.lease_id AND e.entry_type IN ('rent', 'late_fee', 'payment')) AS balance
       FROM leases l WHERE l.status = 'ended' AND l.move_out_date >= ? AND l.move_out_date <= ?
        AND l.lease_id NOT IN (SELECT lease_id FROM ledger_entries WHERE entry_type = 'deposit_refund') ORDER BY l.lease_id`,
    `${REFERENCE_DATE.slice(0, 7)}-01`,
    REFERENCE_DATE,
  );
  // The deposit less the damage and cleaning the move-out inspection found and less the unpaid balance.
  return new Map(
    leases.map((lease) => {
      const owed = Math.max(0, roundCents(lease.balance));
      const refund = roundCents(lease.security_deposit - roundCents(lease.deductions) - owed);
      return [lease.lease_id, Math.max(0, refund)];
    }),
  );
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const refunds = expectedRefunds(initial);
  if (refunds.size === 0) throw new Error("generation produced no move-out to settle");
  const total = sumCents(refunds.values());
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "ledger_entries",
        key: "entry_id",
        added: [...refunds].map(([lease_id, amount]) => ({ lease_id, entry_type: "deposit_refund", amount })),
      },
    ]),
    checkStatedTotal(answer, total),
  ];
}

function cells(near: string[]): string[] {
  const inspect = near.includes("trusts-error-bodies")
    ? 'tools.get_inspection(inspection_id=inspection["inspection_id"])'
    : 'call("get_inspection", inspection_id=inspection["inspection_id"])';
  const deductible = near.includes("deducts-normal-wear")
    ? '("damage", "cleaning", "normal_wear")'
    : '("damage", "cleaning")';
  return [
    PROPERTY_PY,
    String.raw`
policy = read_text("policies/security-deposits.md")
print(policy[:400])
month_start = "${REFERENCE_DATE.slice(0, 7)}-01"
moved_out = fetch("list_leases", "leases", status="ended", moved_out_from=month_start)
print([l["lease_id"] for l in moved_out])
`,
    String.raw`
refunds = {}
for summary in moved_out:
    lid = summary["lease_id"]
    entries = fetch("list_ledger_entries", "entries", lease_id=lid)
    if any(e["entry_type"] == "deposit_refund" for e in entries):
        continue
    lease = call("get_lease", lease_id=lid)["lease"]
    charged = sum(e["amount"] for e in entries if e["entry_type"] in ("rent", "late_fee"))
    paid = sum(e["amount"] for e in entries if e["entry_type"] == "payment")
    owed = ${near.includes("ignores-unpaid-balance") ? "0" : "max(0, money(charged - paid))"}
    deductions = 0
    for inspection in fetch("list_inspections", "inspections", lease_id=lid, inspection_type="move_out"):
        detail = ${inspect}
        deductions += sum(item["cost"] for item in detail.get("items", []) if item["condition"] in ${deductible})
    refund = max(0, money(lease["security_deposit"] - deductions - owed))
    call("record_deposit_refund", lease_id=lid, amount=refund, memo=f"Deposit {lease['security_deposit']:.2f} less deductions {deductions:.2f} and balance {owed:.2f}")
    refunds[lid] = refund
print(refunds)
print(f"Total refunded: ${"$"}{sum(refunds.values()):,.2f}")
`,
  ];
}

export const depositRefundsTask = defineTask({
  id: "property.deposit-refunds",
  domain: propertyDomain,
  summary:
    "Settle this month's move-outs: deposit minus damage and cleaning (not normal wear) from the move-out inspection minus the unpaid ledger balance; the inspection service fails silently.",
  instruction:
    "Please settle the security deposits of everyone who moved out this month and hasn't had a refund recorded yet. Work out each refund under our security deposit policy from the move-out inspection and the lease ledger, and record it with record_deposit_refund (record 0 when nothing is due back). Reply with the total refunded, e.g. `Total refunded: $2,310.00`.",
  tools: [
    "list_leases",
    "get_lease",
    "list_ledger_entries",
    "list_inspections",
    "get_inspection",
    "record_deposit_refund",
    "get_unit",
    "get_tenant",
  ],
  verify,
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["deducts-normal-wear", "Deducts normal wear and tear too."],
    ["ignores-unpaid-balance", "Refunds without deducting the unpaid ledger balance."],
    ["trusts-error-bodies", "Uses get_inspection results without checking for the service's error body."],
  ]),
});
