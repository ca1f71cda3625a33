import { defineBillingTask } from "./python.js";
import { parseCsv, parseMarkdownTable, roundCents, type StateView } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { creditNotesVerifier } from "./expectations.js";

const MONTH_MINUTES = 31 * 1440;

/** The credit percentage per region for May, from the uptime report and the policy's tiers. */
export function regionCredits(state: StateView): Map<string, number> {
  const tiers = parseMarkdownTable(state.readFile(PATHS.sla) ?? "", "Credit tiers").map(
    ([below, pct]) => [Number(below), Number(pct)] as const,
  );
  const downtime = new Map<string, number>([
    ["NA", 0],
    ["EU", 0],
    ["APAC", 0],
  ]);
  for (const row of parseCsv(state.readFile(PATHS.uptime) ?? ""))
    if (row.scheduled_maintenance !== "yes")
      downtime.set(row.region!, (downtime.get(row.region!) ?? 0) + Number(row.downtime_minutes));
  const credits = new Map<string, number>();
  for (const [region, minutes] of downtime) {
    const uptime = 100 * (1 - minutes / MONTH_MINUTES);
    const reached = tiers.filter(([below]) => uptime < below).map(([, pct]) => pct);
    if (reached.length > 0) credits.set(region, Math.max(...reached));
  }
  return credits;
}

export function expectedSlaCredits(
  state: StateView,
): Array<{ invoice_id: string; customer_id: string; amount: number }> {
  const credits = regionCredits(state);
  const rows = state.db
    .prepare(
      `SELECT i.invoice_id, i.customer_id, c.region, l.amount AS seats
         FROM invoices i JOIN subscriptions s ON s.subscription_id = i.subscription_id
         JOIN plans p ON p.plan_code = s.plan_code JOIN customers c ON c.customer_id = i.customer_id
         JOIN invoice_lines l ON l.invoice_id = i.invoice_id AND l.kind = 'seats'
        WHERE p.sla_eligible = 1 AND s.status != 'cancelled' AND i.status != 'void'
          AND i.issued_on BETWEEN '2025-05-01' AND '2025-05-31'
        ORDER BY i.invoice_id`,
    )
    .all() as Array<{ invoice_id: string; customer_id: string; region: string; seats: number }>;
  return rows
    .filter((row) => credits.has(row.region))
    .map((row) => ({
      invoice_id: row.invoice_id,
      customer_id: row.customer_id,
      amount: roundCents((row.seats * credits.get(row.region)!) / 100),
    }));
}

interface Variant {
  onTotal?: boolean;
  allPlans?: boolean;
  stackTiers?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    `policy = read_text("${PATHS.sla}")
print(policy)
tiers = [(float(m.group(1)), int(m.group(2))) for m in re.finditer(r"^\\| (\\d+\\.\\d) \\| (\\d+) \\|$", policy, re.M)]
downtime = {"NA": 0, "EU": 0, "APAC": 0}
for row in csv.DictReader(io.StringIO(read_text("${PATHS.uptime}"))):
    if row["scheduled_maintenance"] != "yes":
        downtime[row["region"]] += int(row["downtime_minutes"])
credit_pct = {}
for region, minutes in downtime.items():
    uptime = 100 * (1 - minutes / (31 * 1440))
    reached = [pct for below, pct in tiers if uptime < below]
    if reached:
        credit_pct[region] = ${variant.stackTiers ? "sum(reached)" : "max(reached)"}
print(downtime, credit_pct)`,
    `eligible = [p["plan_code"] for p in tools.list_plans()["plans"] if ${variant.allPlans ? "True" : 'p["sla_eligible"]'}]
region_of = {c["customer_id"]: c["region"] for c in fetch_all("list_customers", "customers")}
subs = {}
for code in eligible:
    for s in fetch_all("list_subscriptions", "subscriptions", plan_code=code):
        if s["status"] != "cancelled":
            subs[s["subscription_id"]] = s
issued = 0
for inv in fetch_all("list_invoices", "invoices", issued_from="2025-05-01", issued_to="2025-05-31"):
    if inv["subscription_id"] not in subs or inv["status"] == "void":
        continue
    pct = credit_pct.get(region_of[inv["customer_id"]])
    if not pct:
        continue
    detail = tools.get_invoice(invoice_id=inv["invoice_id"])
    base = ${variant.onTotal ? 'detail["invoice"]["total"]' : 'sum(l["amount"] for l in detail["lines"] if l["kind"] == "seats")'}
    amount = round(base * pct / 100 + 1e-9, 2)
    tools.create_credit_note(invoice_id=inv["invoice_id"], amount=amount, reason=f"SLA credit May 2025: {pct}% (uptime)")
    issued += 1
print(issued)`,
  ];
}

export const slaCreditsTask = defineBillingTask({
  id: "billing.sla-credits",
  summary:
    "Issue May SLA credit notes from the uptime CSV and the SLA credit policy (tiers, maintenance, eligible plans).",
  instruction:
    "Please issue the SLA credits we owe for May 2025. Work out each region's May uptime from the uptime report, apply the SLA credit policy, and create one credit note for every invoice the policy says gets a credit, for the amount it defines. Don't change anything else. Reply with only the number of credit notes you created.",
  tools: [
    "list_plans",
    "get_plan",
    "list_customers",
    "get_customer",
    "list_subscriptions",
    "list_invoices",
    "get_invoice",
    "list_credit_notes",
    "create_credit_note",
  ],
  verify: creditNotesVerifier(expectedSlaCredits, "SLA credit"),
  cells,
  nearMisses: {
    "credit-on-total": [
      { onTotal: true },
      "Computes the credit on the invoice total instead of the seat charges.",
    ],
    "all-plans": [{ allPlans: true }, "Credits plans that are not SLA-eligible."],
    "stacked-tiers": [{ stackTiers: true }, "Adds up every tier reached instead of applying the lowest one."],
  },
});
