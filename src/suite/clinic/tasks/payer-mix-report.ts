import {
  check,
  defineTask,
  parseAnswerJson,
  parseAnswerNumber,
  roundCents,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { clinicDomain } from "../domain.js";
import { NO_SHOW_CHARGE_CODE, VISIT_RULES, type VisitType } from "../rules.js";
import { clinicNearMisses, PYTHON_PAGING_CELL } from "./python-helpers.js";

export const REVENUE_DEFINITIONS_PATH = "billing/revenue-report-definitions.md";
const MONTH = "2025-06";
const LAB_BUCKET = "LAB";

/**
 * Writes the revenue report's definitions and plants June no-show fees (administrative charges the report
 * leaves out) on no-shows that have none.
 */
function prepare(context: GenerateContext): void {
  const { db } = context;
  context.writeFile(
    REVENUE_DEFINITIONS_PATH,
    `# Monthly payer-mix report: definitions

Owner: Revenue Cycle. The payer-mix report shows gross charges for one calendar month, by department and
payer type. It is built from the billing ledger (charge lines), not from the appointment book.

- **Month**: a charge belongs to the month of its service date.
- **Gross charges**: the charge line amounts as billed, before insurance or patient payments.
  Administrative fees (category \`admin_fee\`: no-show fees, statement fees) are not revenue and are left out.
- **Department**: the specialty code of the provider of the appointment the charge belongs to (FM, PED,
  DERM, CARD, ORTH). Laboratory charges (category \`lab\`) are credited to the in-house laboratory and are
  reported under the department code \`${LAB_BUCKET}\`, whichever provider ordered them.
- **Payer type**: the plan type of the patient's insurance plan (\`commercial\`, \`medicare\`,
  \`medicaid\`), or \`self_pay\` for patients without insurance.
`,
  );
  const noShows = db
    .prepare(
      `SELECT a.id, a.patient_id, a.visit_type, substr(a.start_time, 1, 10) AS day FROM appointments a
        WHERE a.status = 'no_show' AND substr(a.start_time, 1, 7) = ?
          AND NOT EXISTS (SELECT 1 FROM charges c WHERE c.appointment_id = a.id)
        ORDER BY a.id LIMIT 2`,
    )
    .all(MONTH) as Array<{ id: number; patient_id: number; visit_type: string; day: string }>;
  if (noShows.length === 0) throw new Error("no June no-show to plant a fee on");
  const insert = db.prepare(
    `INSERT INTO charges (appointment_id, patient_id, service_date, code, description, category, amount, claim_status)
     VALUES (?, ?, ?, ?, 'Missed appointment fee', 'admin_fee', ?, 'patient_only')`,
  );
  for (const row of noShows)
    insert.run(
      row.id,
      row.patient_id,
      row.day,
      NO_SHOW_CHARGE_CODE,
      VISIT_RULES[row.visit_type as VisitType].noShowFee,
    );
}

/** Department -> payer type -> gross charges of the month, per the report definitions. */
export function expectedPayerMix(state: StateView): Map<string, Map<string, number>> {
  const rows = state.db
    .prepare(
      `SELECT c.category, c.amount, s.code AS specialty, COALESCE(pl.plan_type, 'self_pay') AS payer
         FROM charges c JOIN appointments a ON a.id = c.appointment_id
         JOIN providers pr ON pr.id = a.provider_id JOIN specialties s ON s.id = pr.specialty_id
         JOIN patients pa ON pa.id = c.patient_id LEFT JOIN insurance_plans pl ON pl.id = pa.insurance_plan_id
        WHERE substr(c.service_date, 1, 7) = ? AND c.category != 'admin_fee'
        ORDER BY c.id`,
    )
    .all(MONTH) as Array<{ category: string; amount: number; specialty: string; payer: string }>;
  const report = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const department = row.category === "lab" ? LAB_BUCKET : row.specialty;
    const payers = report.get(department) ?? new Map<string, number>();
    payers.set(row.payer, roundCents((payers.get(row.payer) ?? 0) + row.amount));
    report.set(department, payers);
  }
  return report;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedPayerMix(initial);
  if (expected.size === 0) throw new Error("generation produced no June charges");
  const given = parseAnswerJson(answer);
  const problems: string[] = [];
  if (!given || typeof given !== "object" || Array.isArray(given))
    problems.push("the answer is not a JSON object");
  else {
    const departments = new Map(
      Object.entries(given as Record<string, unknown>).map(([key, value]) => [
        key.trim().toUpperCase(),
        value,
      ]),
    );
    for (const [department, payers] of expected) {
      const actual = departments.get(department);
      if (!actual || typeof actual !== "object") {
        problems.push(`missing ${department}`);
        continue;
      }
      const amounts = new Map(
        Object.entries(actual as Record<string, unknown>).map(([key, value]) => [
          key
            .trim()
            .toLowerCase()
            .replace(/[\s-]+/g, "_"),
          typeof value === "number" ? value : (parseAnswerNumber(String(value)) ?? NaN),
        ]),
      );
      for (const [payer, amount] of payers) {
        const value = amounts.get(payer);
        if (value === undefined || !(Math.abs(value - amount) <= 0.011))
          problems.push(`${department}/${payer}: ${String(value)}, expected ${amount.toFixed(2)}`);
      }
      for (const [payer, value] of amounts)
        if (!payers.has(payer) && Math.abs(value) > 0.005)
          problems.push(`${department}/${payer}: ${value}, expected nothing`);
    }
    for (const department of departments.keys())
      if (!expected.has(department)) problems.push(`unexpected department ${department}`);
  }
  return [
    check(
      "payer-mix",
      problems.length === 0,
      problems.length === 0
        ? `gross charges match for all ${expected.size} departments`
        : problems.slice(0, 10).join("; "),
    ),
  ];
}

interface Variant {
  includeAdminFees?: boolean;
  labsUnderSpecialty?: boolean;
  firstPageOnly?: boolean;
  anyMonth?: boolean;
}

function cells(variant: Variant = {}): string[] {
  return [
    PYTHON_PAGING_CELL,
    String.raw`
definitions = tools.read_file(path="${REVENUE_DEFINITIONS_PATH}")["content"]
print(definitions)
specialty_of = {p["id"]: p["specialty_code"] for p in fetch_all("list_providers", "providers")}
plan_type = {p["id"]: p["plan_type"] for p in fetch_all("list_insurance_plans", "plans")}
payer_of = {}
for patient in fetch_all("list_patients", "patients"):
    plan = patient["insurance_plan_id"]
    payer_of[patient["id"]] = plan_type[plan] if plan is not None else "self_pay"
provider_of = {}
for status in ("completed", "no_show", "cancelled", "scheduled"):
    for appt in fetch_all("list_appointments", "appointments", status=status, date_from="2025-05-01", date_to="2025-07-31"):
        provider_of[appt["id"]] = appt["provider_id"]
print(len(specialty_of), "providers,", len(payer_of), "patients,", len(provider_of), "appointments")
`,
    String.raw`
charges = ${variant.firstPageOnly ? 'tools.list_charges()["charges"]' : 'fetch_all("list_charges", "charges")'}
report = {}
for charge in charges:
    if ${variant.anyMonth ? "False" : 'not charge["service_date"].startswith("2025-06")'}:
        continue
    if ${variant.includeAdminFees ? "False" : 'charge["category"] == "admin_fee"'}:
        continue
    department = ${variant.labsUnderSpecialty ? "" : '"LAB" if charge["category"] == "lab" else '}specialty_of[provider_of[charge["appointment_id"]]]
    payers = report.setdefault(department, {})
    payer = payer_of[charge["patient_id"]]
    payers[payer] = round(payers.get(payer, 0) + charge["amount"] + 1e-9, 2)
print(len(charges), "charge lines read")
`,
    `print(json.dumps(report))`,
  ];
}

export const payerMixReportTask = defineTask({
  id: "clinic.payer-mix-report",
  domain: clinicDomain,
  summary:
    "June gross charges by department and payer type: charge lines joined to appointments, providers' specialties and patients' plans, with the report definitions' lab and admin-fee rules.",
  instruction:
    'Revenue Cycle needs the payer-mix report for June 2025. Build it from the billing ledger exactly as billing/revenue-report-definitions.md defines it. Reply with only a JSON object mapping each department code to an object of payer type -> gross charges in dollars rounded to cents, e.g. {"FM": {"commercial": 1520.0, "medicare": 410.0}, "LAB": {...}}; leave out payer types with no charges in a department.',
  tools: [
    "list_providers",
    "list_insurance_plans",
    "list_patients",
    "get_patient",
    "list_appointments",
    "get_appointment",
    "list_charges",
  ],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: clinicNearMisses(cells, {
    "includes-admin-fees": [{ includeAdminFees: true }, "Counts no-show fees as gross charges."],
    "labs-under-ordering-specialty": [
      { labsUnderSpecialty: true },
      "Reports lab charges under the ordering provider's specialty instead of LAB.",
    ],
    "first-page-only": [{ firstPageOnly: true }, "Reads only the first page of the charge listing."],
    "whole-ledger": [
      { anyMonth: true },
      "Forgets the month and reports every charge in the ledger, late-May visits included.",
    ],
  }),
});
