import {
  REFERENCE_DATE,
  allRows,
  check,
  checkStateDiff,
  defineTask,
  flagNearMisses,
  roundCents,
  sumCents,
} from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { propertyDomain } from "../domain.js";
import { checkStatedTotal } from "./answers.js";
import { graceEnd, lateFeeFor } from "../rules.js";
import { readAddenda, readApprovedWaivers, readLatePolicy } from "../workspace-facts.js";
import { LATE_POLICY_PY, PROPERTY_PY } from "./python.js";

/** The late fees the policy calls for on the current month's rent, by lease id. */
export function expectedLateFees(state: StateView): Map<string, number> {
  const period = REFERENCE_DATE.slice(0, 7);
  const policy = readLatePolicy(state);
  const { dueDay } = readAddenda(state);
  const waived = readApprovedWaivers(state);
  const leases = allRows<{ lease_id: string; monthly_rent: number }>(
    state.db,
    "SELECT lease_id, monthly_rent FROM leases WHERE status = 'active' ORDER BY lease_id",
  );
  const entries = allRows<{ lease_id: string; entry_type: string; entry_date: string; amount: number }>(
    state.db,
    "SELECT lease_id, entry_type, entry_date, amount FROM ledger_entries WHERE period = ?",
    period,
  );
  const fees = new Map<string, number>();
  for (const lease of leases) {
    const own = entries.filter((entry) => entry.lease_id === lease.lease_id);
    const charged = sumCents(own.filter((entry) => entry.entry_type === "rent").map((entry) => entry.amount));
    if (charged === 0 || own.some((entry) => entry.entry_type === "late_fee") || waived.has(lease.lease_id))
      continue;
    const lastOnTime = graceEnd(period, dueDay.get(lease.lease_id) ?? 1, policy.graceDays);
    const paid = sumCents(
      own
        .filter((entry) => entry.entry_type === "payment" && entry.entry_date <= lastOnTime)
        .map((entry) => entry.amount),
    );
    if (roundCents(charged - paid) >= policy.threshold)
      fees.set(lease.lease_id, lateFeeFor(lease.monthly_rent, policy.pct, policy.min, policy.max));
  }
  return fees;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const fees = expectedLateFees(initial);
  if (fees.size === 0) throw new Error("generation produced no late fee to charge");
  const period = REFERENCE_DATE.slice(0, 7);
  const total = sumCents(fees.values());
  // The count is the number before "fees", so a leading date or period in the reply is not taken for it.
  const countMatch = /(\d+)\s+fees?\b/i.exec(answer);
  const count = countMatch === null ? null : Number(countMatch[1]);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "ledger_entries",
        key: "entry_id",
        added: [...fees].map(([lease_id, amount]) => ({
          lease_id,
          period,
          entry_type: "late_fee",
          amount,
          entry_date: REFERENCE_DATE,
        })),
      },
    ]),
    check("answer-count", count === fees.size, `expected ${fees.size} fees, answer says ${String(count)}`),
    checkStatedTotal(answer, total),
  ];
}

function cells(near: string[]): string[] {
  const fetchPayments = near.includes("no-retry-on-503")
    ? 'fetch_all("list_ledger_entries", "entries", entry_type="payment", period=period)'
    : 'fetch("list_ledger_entries", "entries", entry_type="payment", period=period)';
  return [
    PROPERTY_PY,
    LATE_POLICY_PY +
      String.raw`
waived = set()
for path in workspace_files("correspondence"):
    found = re.search(r"property manager: Approved\. .*?lease (L-\d{5}) is waived", read_text(path))
    if found:
        waived.add(found.group(1))
print("waived:", sorted(waived))
`,
    String.raw`
period = "${REFERENCE_DATE.slice(0, 7)}"
leases = fetch("list_leases", "leases", status="active")
payments = ${fetchPayments}
charged_already = {e["lease_id"] for e in fetch("list_ledger_entries", "entries", entry_type="late_fee", period=period)}
rent = {e["lease_id"]: e["amount"] for e in fetch("list_ledger_entries", "entries", entry_type="rent", period=period)}
posted = []
for lease in leases:
    lid = lease["lease_id"]
    if lid not in rent or lid in charged_already${near.includes("ignores-hardship-waivers") ? "" : " or lid in waived"}:
        continue
    day = ${near.includes("ignores-addenda") ? "1" : "due_day.get(lid, 1)"}
    last_on_time = add_days(f"{period}-{day:02d}", grace_days)
    paid = sum(p["amount"] for p in payments if p["lease_id"] == lid and p["entry_date"] ${near.includes("grace-day-off-by-one") ? "<" : "<="} last_on_time)
    unpaid = money(rent[lid] - paid)
    if unpaid ${near.includes("ignores-threshold") ? "> 0" : ">= threshold"}:
        fee = money(min(fee_max, max(fee_min, lease["monthly_rent"] * fee_pct / 100)))
        call("post_late_fee", lease_id=lid, period=period, amount=fee, memo=f"Late fee {period}")
        posted.append(fee)
print(f"{len(posted)} fees, ${"$"}{sum(posted):,.2f}")
`,
  ];
}

export const juneLateFeesTask = defineTask({
  id: "property.june-late-fees",
  domain: propertyDomain,
  summary:
    "Charge this month's late fees per the grace-period policy: addendum due days, the unpaid threshold, min/max fee, written hardship waivers, one fee per month.",
  instruction:
    "June rent collection closes today. Charge every late fee our rent collection policy calls for on June 2025 rent (period 2025-06) with post_late_fee, following the policy document, lease addenda and any hardship decisions in the correspondence folder. Don't touch anything else. When done, reply with the number of fees you posted and their total, in the form `7 fees, $455.00`.",
  tools: ["list_leases", "get_lease", "list_ledger_entries", "post_late_fee", "list_tenants", "get_tenant"],
  verify,
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["grace-day-off-by-one", "Treats a payment on the last day of the grace period as late."],
    ["ignores-addenda", "Uses the 1st as the due day for every lease, ignoring due-day addenda."],
    ["ignores-hardship-waivers", "Charges the fee the property manager waived in writing."],
    ["ignores-threshold", "Charges a fee for any shortfall, even under the policy's minimum unpaid amount."],
    [
      "no-retry-on-503",
      "Pages the payment listing without retrying the transient 503, so the run stops before posting.",
    ],
  ]),
});
