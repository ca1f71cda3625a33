import { allRows, check, defineTask, flagNearMisses, groupBy, parseAnswerList } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { propertyDomain } from "../domain.js";
import { graceEnd } from "../rules.js";
import { readAddenda, readLatePolicy } from "../workspace-facts.js";
import { LATE_POLICY_PY, PROPERTY_PY } from "./python.js";

/** Tenants with a run of three or more consecutive late months in the ledger. */
export function expectedChronicTenants(state: StateView): string[] {
  const { graceDays } = readLatePolicy(state);
  const { dueDay } = readAddenda(state);
  const entries = allRows<{
    lease_id: string;
    tenant_id: string;
    period: string;
    entry_type: string;
    entry_date: string;
    amount: number;
  }>(
    state.db,
    `SELECT e.lease_id, l.tenant_id, e.period, e.entry_type, e.entry_date, e.amount
       FROM ledger_entries e JOIN leases l ON l.lease_id = e.lease_id
      WHERE e.entry_type IN ('rent', 'payment') ORDER BY e.lease_id, e.period, e.entry_id`,
  );
  const tenants = new Set<string>();
  for (const own of groupBy(entries, (entry) => entry.lease_id).values()) {
    const { lease_id, tenant_id } = own[0]!;
    let run = 0;
    for (const [period, month] of groupBy(own, (entry) => entry.period)) {
      const lastOnTime = graceEnd(period, dueDay.get(lease_id) ?? 1, graceDays);
      let rent = 0;
      let onTime = 0;
      for (const entry of month)
        if (entry.entry_type === "rent") rent += entry.amount;
        else if (entry.entry_date <= lastOnTime) onTime += entry.amount;
      if (rent === 0) continue;
      run = onTime + 0.005 < rent ? run + 1 : 0;
      if (run >= 3) tenants.add(tenant_id);
    }
  }
  return [...tenants].sort();
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedChronicTenants(initial);
  if (expected.length === 0) throw new Error("generation produced no chronic late payer");
  const given = new Set(parseAnswerList(answer).filter((item) => /^T-\d{5}$/.test(item)));
  const missing = expected.filter((id) => !given.has(id));
  const extra = [...given].filter((id) => !expected.includes(id));
  return [
    check(
      "chronic-tenants",
      missing.length === 0 && extra.length === 0,
      missing.length + extra.length === 0
        ? `exactly the ${expected.length} tenants`
        : `expected ${expected.length}; missing ${missing.join(", ") || "none"}; not chronic ${extra.join(", ") || "none"}`,
    ),
  ];
}

function cells(near: string[]): string[] {
  return [
    PROPERTY_PY,
    LATE_POLICY_PY,
    String.raw`
leases = {l["lease_id"]: l for l in fetch("list_leases", "leases")}
rent = fetch("list_ledger_entries", "entries", entry_type="rent")
payments = fetch("list_ledger_entries", "entries", entry_type="payment")
months = {}
for e in rent:
    months.setdefault(e["lease_id"], {}).setdefault(e["period"], [0.0, 0.0])[0] += e["amount"]
for p in payments:
    day = ${near.includes("ignores-due-day-addenda") ? "1" : 'due_day.get(p["lease_id"], 1)'}
    last_on_time = add_days(f"{p['period']}-{day:02d}", ${near.includes("no-grace-period") ? "0" : "grace_days"})
    if p["entry_date"] <= last_on_time:
        months.setdefault(p["lease_id"], {}).setdefault(p["period"], [0.0, 0.0])[1] += p["amount"]
chronic = set()
for lid, by_period in months.items():
    run = 0
    for period in sorted(by_period):
        charged, on_time = by_period[period]
        if charged == 0:
            continue
        late = on_time + 0.005 < charged
        run = ${near.includes("three-late-not-consecutive") ? "run + 1 if late else run" : "run + 1 if late else 0"}
        if run >= 3:
            chronic.add(leases[lid]["tenant_id"])
print(json.dumps(sorted(chronic)))
`,
  ];
}

export const chronicLatePayersTask = defineTask({
  id: "property.chronic-late-payers",
  domain: propertyDomain,
  summary:
    "Tenants late three months in a row in the ledger's six months, with lateness per the policy's grace period and addendum due days.",
  instruction:
    'For the collections review, find every tenant who was late with rent three or more months in a row at any point in the ledger (January through June 2025). A month counts as late exactly when our rent collection policy says so, including any due-day changes in lease addenda. Reply with only a JSON array of tenant ids, e.g. ["T-00012", "T-00040"].',
  tools: ["list_leases", "get_lease", "list_tenants", "get_tenant", "list_ledger_entries"],
  verify,
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["no-grace-period", "Counts any payment after the due date as late."],
    ["ignores-due-day-addenda", "Uses the 1st as every lease's due day."],
    ["three-late-not-consecutive", "Flags any three late months, consecutive or not."],
  ]),
});
